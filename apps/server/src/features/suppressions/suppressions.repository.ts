import { and, count, desc, asc, eq, inArray, isNotNull, like, sql } from 'drizzle-orm';
import { PERMANENT_SUPPRESSION_REASONS, type TPageQuery } from '@threadreach/contract';
import type { DbOrTx } from '../../db/client';
import { dmMessages } from '../dms/dms.table';
import { suppressions, type SuppressionReason, type SuppressionRow } from './suppressions.table';

export interface NewSuppression {
  username: string;
  reason: SuppressionReason;
  note: string | null;
}

/** lower(name): what the list and the DM recipients compare. */
export const usernameKey = (username: string) => username.toLowerCase();

function suppressionRow(ownerUserId: string, entry: NewSuppression, at: Date) {
  return {
    ownerUserId,
    usernameKey: usernameKey(entry.username),
    username: entry.username,
    reason: entry.reason,
    note: entry.note,
    createdAt: at,
  };
}

/** The entries whose reason is none of these. */
function reasonNotIn(reasons: readonly SuppressionReason[]) {
  return sql`${suppressions.reason} not in (${sql.join(
    reasons.map((r) => sql`${r}`),
    sql`, `,
  )})`;
}

/** A LIKE pattern for lowercase names containing `text`, its %, _ and \\ taken as themselves. */
export function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** One page of a workspace's list, newest first; `search` keeps names containing it. */
export async function listSuppressions(
  db: DbOrTx,
  ownerUserId: string,
  filter: TPageQuery & { search?: string | undefined },
): Promise<{ rows: SuppressionRow[]; total: number }> {
  const where = and(
    eq(suppressions.ownerUserId, ownerUserId),
    filter.search ? like(suppressions.usernameKey, containsPattern(filter.search)) : undefined,
  );
  const [rows, totals] = await Promise.all([
    db
      .select()
      .from(suppressions)
      .where(where)
      .orderBy(desc(suppressions.createdAt), asc(suppressions.usernameKey))
      .limit(filter.limit)
      .offset(filter.offset),
    db.select({ n: count() }).from(suppressions).where(where),
  ]);
  return { rows, total: totals[0]?.n ?? 0 };
}

/** Adds the names not listed yet and returns their keys; listed ones keep their entry. */
export async function insertSuppressions(
  db: DbOrTx,
  ownerUserId: string,
  entries: NewSuppression[],
  at: Date,
): Promise<Set<string>> {
  if (entries.length === 0) return new Set();
  const rows = await db
    .insert(suppressions)
    .values(entries.map((e) => suppressionRow(ownerUserId, e, at)))
    .onConflictDoNothing()
    .returning({ key: suppressions.usernameKey });
  return new Set(rows.map((r) => r.key));
}

/**
 * Puts one person on the list for a reason the product found (a refusal, Reddit's answer). A refusal
 * also turns an existing removable entry into a permanent one; other reasons leave an entry as it is.
 * True when the list changed.
 */
export async function suppressRecipient(
  db: DbOrTx,
  ownerUserId: string,
  entry: NewSuppression,
  at: Date,
): Promise<boolean> {
  const values = suppressionRow(ownerUserId, entry, at);
  const target = [suppressions.ownerUserId, suppressions.usernameKey];
  const rows =
    entry.reason === 'refusal'
      ? await db
          .insert(suppressions)
          .values(values)
          .onConflictDoUpdate({
            target,
            set: { reason: 'refusal', note: sql`coalesce(excluded.note, ${suppressions.note})` },
            setWhere: sql`${suppressions.reason} <> 'refusal'`,
          })
          .returning({ key: suppressions.usernameKey })
      : await db
          .insert(suppressions)
          .values(values)
          .onConflictDoNothing()
          .returning({ key: suppressions.usernameKey });
  return rows.length > 0;
}

/** Rows per insert: six parameters a row stays far below PostgreSQL's 65535. */
const CONTACTED_CHUNK = 1000;

/**
 * Keeps people whom a project's DMs reached on the list for good once the project is deleted (its DMs, which
 * the one-contact rule reads, go with it). An entry the customer could remove becomes permanent; a
 * refusal stays a refusal.
 */
export async function suppressContacted(
  db: DbOrTx,
  ownerUserId: string,
  usernames: string[],
  note: string,
  at: Date,
): Promise<void> {
  const byKey = new Map(usernames.map((u) => [usernameKey(u), u]));
  const values = [...byKey.values()].map((username) =>
    suppressionRow(ownerUserId, { username, reason: 'contacted', note }, at),
  );
  for (let i = 0; i < values.length; i += CONTACTED_CHUNK) {
    await db
      .insert(suppressions)
      .values(values.slice(i, i + CONTACTED_CHUNK))
      .onConflictDoUpdate({
        target: [suppressions.ownerUserId, suppressions.usernameKey],
        set: { reason: 'contacted', note: sql`excluded.note` },
        setWhere: reasonNotIn(PERMANENT_SUPPRESSION_REASONS),
      });
  }
}

export async function findSuppression(
  db: DbOrTx,
  ownerUserId: string,
  key: string,
): Promise<SuppressionRow | null> {
  const [row] = await db
    .select()
    .from(suppressions)
    .where(and(eq(suppressions.ownerUserId, ownerUserId), eq(suppressions.usernameKey, key)));
  return row ?? null;
}

/** Deletes an entry unless its reason is one of `keep`; the deleted row, or null. */
export async function deleteSuppression(
  db: DbOrTx,
  ownerUserId: string,
  key: string,
  keep: readonly SuppressionReason[],
): Promise<SuppressionRow | null> {
  const [row] = await db
    .delete(suppressions)
    .where(
      and(
        eq(suppressions.ownerUserId, ownerUserId),
        eq(suppressions.usernameKey, key),
        keep.length > 0 ? reasonNotIn(keep) : undefined,
      ),
    )
    .returning();
  return row ?? null;
}

/** Whether anyone of the workspace's DMs to this person got an answer. */
export async function hasRepliedInWorkspace(db: DbOrTx, ownerUserId: string, key: string): Promise<boolean> {
  const rows = await db
    .select({ id: dmMessages.id })
    .from(dmMessages)
    .where(
      and(
        eq(dmMessages.ownerUserId, ownerUserId),
        eq(dmMessages.recipientKey, key),
        isNotNull(dmMessages.repliedAt),
      ),
    )
    .limit(1);
  return rows.length > 0;
}

/**
 * The workspace's queued DMs to these people (by key) fail at once, as Send All fails a DM to someone on
 * the list: `why` says why, after the person's name. Returns how many.
 */
export async function failQueuedDmsTo(
  db: DbOrTx,
  ownerUserId: string,
  keys: string[],
  why: string,
  at: Date,
): Promise<number> {
  if (keys.length === 0) return 0;
  const rows = await db
    .update(dmMessages)
    .set({
      state: 'failed',
      failedAt: at,
      outcomeCode: 'suppressed',
      outcomeReason: sql`'u/' || ${dmMessages.recipientUsername} || ${` ${why}`}::text`,
      updatedAt: at,
    })
    .where(
      and(
        eq(dmMessages.ownerUserId, ownerUserId),
        inArray(dmMessages.recipientKey, keys),
        eq(dmMessages.state, 'queued'),
      ),
    )
    .returning({ id: dmMessages.id });
  return rows.length;
}

/** Why each of these people (by key) is on the workspace's do-not-contact list; the others are left out. */
export async function suppressedAmong(
  db: DbOrTx,
  ownerUserId: string,
  keys: string[],
): Promise<Map<string, SuppressionReason>> {
  if (keys.length === 0) return new Map();
  const rows = await db
    .select({ key: suppressions.usernameKey, reason: suppressions.reason })
    .from(suppressions)
    .where(and(eq(suppressions.ownerUserId, ownerUserId), inArray(suppressions.usernameKey, keys)));
  return new Map(rows.map((r) => [r.key, r.reason]));
}
