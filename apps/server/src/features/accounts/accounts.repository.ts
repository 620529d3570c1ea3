import {
  and,
  asc,
  count,
  countDistinct,
  desc,
  eq,
  gt,
  inArray,
  isNotNull,
  isNull,
  lt,
  lte,
  ne,
  or,
  sql,
  type SQL,
} from 'drizzle-orm';
import type { TPageQuery, TSendOutcomeCode } from '@threadreach/contract';
import type { DbOrTx } from '../../db/client';
import { dmMessages, unqueuedChanges } from '../dms/dms.table';
import { redditAccounts, redditAuthStates, type RedditAccountRow } from './accounts.table';

export type NewRedditAccount = typeof redditAccounts.$inferInsert;
export type RedditAuthStateRow = typeof redditAuthStates.$inferSelect;

/** Which project owns each account id (the `child` scope's loader). */
export async function accountOwners(db: DbOrTx, ids: string[]): Promise<Map<string, string>> {
  const rows = await db
    .select({ id: redditAccounts.id, projectId: redditAccounts.projectId })
    .from(redditAccounts)
    .where(inArray(redditAccounts.id, ids));
  return new Map(rows.map((r) => [r.id, r.projectId]));
}

export async function listProjectAccounts(
  db: DbOrTx,
  projectId: string,
  page: TPageQuery,
): Promise<{ rows: RedditAccountRow[]; total: number }> {
  const where = eq(redditAccounts.projectId, projectId);
  const rows = await db
    .select()
    .from(redditAccounts)
    .where(where)
    .orderBy(asc(redditAccounts.createdAt), asc(redditAccounts.id))
    .limit(page.limit)
    .offset(page.offset);
  const [total] = await db.select({ n: count() }).from(redditAccounts).where(where);
  return { rows, total: total?.n ?? 0 };
}

/** How many DMs of the project are queued to go from each of these accounts; those with none are left out. */
export async function queuedSendsByAccount(
  db: DbOrTx,
  projectId: string,
  accountIds: string[],
): Promise<Map<string, number>> {
  if (accountIds.length === 0) return new Map();
  const rows = await db
    .select({ accountId: dmMessages.accountId, n: count() })
    .from(dmMessages)
    .where(
      and(
        eq(dmMessages.projectId, projectId),
        eq(dmMessages.state, 'queued'),
        inArray(dmMessages.accountId, accountIds),
      ),
    )
    .groupBy(dmMessages.accountId);
  return new Map(rows.map((r) => [r.accountId!, r.n]));
}

export async function findProjectAccount(
  db: DbOrTx,
  projectId: string,
  accountId: string,
): Promise<RedditAccountRow | null> {
  const [row] = await db
    .select()
    .from(redditAccounts)
    .where(and(eq(redditAccounts.projectId, projectId), eq(redditAccounts.id, accountId)));
  return row ?? null;
}

const namedAs = (redditUsername: string) =>
  sql`lower(${redditAccounts.redditUsername}) = ${redditUsername.toLowerCase()}`;

export async function findProjectAccountByUsername(
  db: DbOrTx,
  projectId: string,
  username: string,
): Promise<RedditAccountRow | null> {
  const [row] = await db
    .select()
    .from(redditAccounts)
    .where(and(eq(redditAccounts.projectId, projectId), namedAs(username)));
  return row ?? null;
}

/**
 * Reddit accounts connected over all of a workspace's projects, each counted once however many projects
 * it sends for: what its profiles_limit is checked against.
 */
export async function countOwnerAccounts(db: DbOrTx, ownerUserId: string): Promise<number> {
  const [row] = await db
    .select({ n: countDistinct(sql`lower(${redditAccounts.redditUsername})`) })
    .from(redditAccounts)
    .where(eq(redditAccounts.ownerUserId, ownerUserId));
  return row?.n ?? 0;
}

async function anyAccount(db: DbOrTx, where: SQL | undefined): Promise<boolean> {
  const [row] = await db.select({ id: redditAccounts.id }).from(redditAccounts).where(where).limit(1);
  return row !== undefined;
}

/** Whether the workspace has this Reddit account connected in any of its projects. */
export function ownerHasRedditAccount(
  db: DbOrTx,
  ownerUserId: string,
  redditUsername: string,
): Promise<boolean> {
  return anyAccount(db, and(eq(redditAccounts.ownerUserId, ownerUserId), namedAs(redditUsername)));
}

/** Connections of one Reddit account wait for each other, across workspaces (see isConnectedElsewhere). */
export async function lockRedditName(db: DbOrTx, redditUsername: string): Promise<void> {
  await db.execute(
    sql`select pg_advisory_xact_lock(hashtextextended(${`reddit-name:${redditUsername.toLowerCase()}`}, 0))`,
  );
}

/** Whether another workspace than `ownerUserId`'s has the Reddit account connected. */
export function isConnectedElsewhere(
  db: DbOrTx,
  redditUsername: string,
  ownerUserId: string,
): Promise<boolean> {
  return anyAccount(db, and(namedAs(redditUsername), ne(redditAccounts.ownerUserId, ownerUserId)));
}

export async function insertAccount(db: DbOrTx, values: NewRedditAccount): Promise<RedditAccountRow> {
  const [row] = await db.insert(redditAccounts).values(values).returning();
  return row!;
}

export async function updateProjectAccount(
  db: DbOrTx,
  projectId: string,
  accountId: string,
  values: Partial<NewRedditAccount>,
): Promise<RedditAccountRow | null> {
  const [row] = await db
    .update(redditAccounts)
    .set(values)
    .where(and(eq(redditAccounts.projectId, projectId), eq(redditAccounts.id, accountId)))
    .returning();
  return row ?? null;
}

/** The outcome code of an unknown DM whose account was removed: nothing checks it any more. */
export const ACCOUNT_REMOVED = 'account_removed' satisfies TSendOutcomeCode;

/** The reason an unknown DM gives once its account (`name`, without u/) was removed, for an UPDATE of it. */
export function removedBeforeConfirmed(name: SQL | string): SQL {
  return sql`'Delivery unknown: u/' || ${name}::text || ' was removed before Reddit confirmed it. u/' || ${dmMessages.recipientUsername} || ' counts as contacted and is not sent it again.'`;
}

/**
 * The Reddit account a DM goes or went from, as its connection spells the name: the DM's account, else
 * the project's connection of the Reddit account that claimed it (removed and connected again, the DM
 * keeps no account id), else the claim's own lower-case name (removed since). For a query over
 * `dm_messages` under its own name; written out, as a query over one table leaves its columns unqualified.
 */
export const dmSenderName = sql<string | null>`coalesce(
  (select sc.reddit_username from reddit_accounts sc
    where sc.project_id = "dm_messages"."project_id"
      and (sc.id = "dm_messages"."account_id" or lower(sc.reddit_username) = "dm_messages"."sender_key")
    order by (sc.id = "dm_messages"."account_id") desc nulls last
    limit 1),
  "dm_messages"."sender_key")`;

/**
 * Deletes the project's account. Its DMs of unknown outcome lose their account with it, and with it the
 * sent messages that would settle them: they stay unknown (the person stays contacted) and say why. Its
 * queued DMs go back to the unsent ones.
 */
export async function deleteProjectAccount(
  db: DbOrTx,
  projectId: string,
  accountId: string,
  now: Date,
): Promise<RedditAccountRow | null> {
  return db.transaction(async (tx) => {
    const account = and(eq(redditAccounts.projectId, projectId), eq(redditAccounts.id, accountId));
    const [found] = await tx.select().from(redditAccounts).where(account).for('update');
    if (!found) return null;
    await tx
      .update(dmMessages)
      .set({
        outcomeCode: ACCOUNT_REMOVED,
        outcomeReason: removedBeforeConfirmed(found.redditUsername),
        updatedAt: now,
      })
      .where(and(eq(dmMessages.accountId, accountId), eq(dmMessages.state, 'unknown')));
    // Its queued DMs go back to the unsent ones at once: planned on it, they would wait for nothing.
    await tx
      .update(dmMessages)
      .set(
        unqueuedChanges(
          ACCOUNT_REMOVED,
          `Not sent: u/${found.redditUsername} was removed before it went. Send All queues it again.`,
          now,
        ),
      )
      .where(and(eq(dmMessages.accountId, accountId), eq(dmMessages.state, 'queued')));
    const [row] = await tx.delete(redditAccounts).where(account).returning();
    return row ?? null;
  });
}

/** Accounts of a project that may send: a valid grant, active, not disabled, at least `bornBefore` old. */
export async function listSendingAccounts(
  db: DbOrTx,
  projectId: string,
  bornBefore: Date,
): Promise<RedditAccountRow[]> {
  return db
    .select()
    .from(redditAccounts)
    .where(
      and(
        eq(redditAccounts.projectId, projectId),
        eq(redditAccounts.authStatus, 'valid'),
        eq(redditAccounts.isActive, true),
        isNull(redditAccounts.disabledReason),
        isNotNull(redditAccounts.credentialId),
        isNotNull(redditAccounts.refreshTokenCiphertext),
        lte(redditAccounts.accountCreatedAt, bornBefore),
      ),
    )
    .orderBy(asc(redditAccounts.createdAt), asc(redditAccounts.id));
}

/** Valid grants not checked since `checkedBefore`, never-checked and longest-unchecked first. */
export async function accountsDueForAuthCheck(
  db: DbOrTx,
  checkedBefore: Date,
  limit: number,
): Promise<RedditAccountRow[]> {
  return db
    .select()
    .from(redditAccounts)
    .where(
      and(
        eq(redditAccounts.authStatus, 'valid'),
        isNotNull(redditAccounts.credentialId),
        isNotNull(redditAccounts.refreshTokenCiphertext),
        or(isNull(redditAccounts.authCheckedAt), lt(redditAccounts.authCheckedAt, checkedBefore)),
      ),
    )
    .orderBy(sql`${redditAccounts.authCheckedAt} asc nulls first`, asc(redditAccounts.id))
    .limit(limit);
}

/** Records what a check found, for one account; the owner filter is its project. */
export async function recordAccountCheck(
  db: DbOrTx,
  account: Pick<RedditAccountRow, 'id' | 'projectId'>,
  values: Partial<NewRedditAccount>,
): Promise<void> {
  await db
    .update(redditAccounts)
    .set(values)
    .where(and(eq(redditAccounts.id, account.id), eq(redditAccounts.projectId, account.projectId)));
}

export async function insertAuthState(
  db: DbOrTx,
  values: typeof redditAuthStates.$inferInsert,
): Promise<void> {
  await db.insert(redditAuthStates).values(values);
}

/**
 * Bounds one user's pending sign-ins: expired ones go (anyone's), and beyond `max` the user's oldest
 * give way to the newest.
 */
export async function trimAuthStates(db: DbOrTx, userId: string, now: Date, max: number): Promise<void> {
  const beyondMax = db
    .select({ state: redditAuthStates.state })
    .from(redditAuthStates)
    .where(eq(redditAuthStates.userId, userId))
    .orderBy(desc(redditAuthStates.expiresAt))
    .offset(max);
  await db
    .delete(redditAuthStates)
    .where(or(lte(redditAuthStates.expiresAt, now), inArray(redditAuthStates.state, beyondMax)));
}

/** Takes a pending sign-in out, so it completes once; null when unknown or expired. */
export async function takeAuthState(
  db: DbOrTx,
  state: string,
  now: Date,
): Promise<RedditAuthStateRow | null> {
  const [row] = await db
    .delete(redditAuthStates)
    .where(and(eq(redditAuthStates.state, state), gt(redditAuthStates.expiresAt, now)))
    .returning();
  return row ?? null;
}
