import { and, count, desc, eq, inArray, isNotNull, isNull, lt, notExists, or, type SQL } from 'drizzle-orm';
import type { TCredentialType, TPageQuery } from '@threadreach/contract';
import type { DbOrTx } from '../../db/client';
import { redditAccounts } from '../accounts/accounts.table';
import { redditCredentials, type CredentialRow } from './credentials.table';

export type NewCredential = typeof redditCredentials.$inferInsert;

export async function insertCredential(db: DbOrTx, values: NewCredential): Promise<CredentialRow> {
  const [row] = await db.insert(redditCredentials).values(values).returning();
  return row!;
}

export async function findCredential(db: DbOrTx, id: string): Promise<CredentialRow | null> {
  const [row] = await db.select().from(redditCredentials).where(eq(redditCredentials.id, id));
  return row ?? null;
}

export async function findCredentialByClientId(db: DbOrTx, clientId: string): Promise<CredentialRow | null> {
  const [row] = await db.select().from(redditCredentials).where(eq(redditCredentials.clientId, clientId));
  return row ?? null;
}

export async function listCredentials(
  db: DbOrTx,
  filter: { type?: TCredentialType; includeDisabled: boolean },
  page: TPageQuery,
): Promise<{ rows: CredentialRow[]; total: number }> {
  const conditions: SQL[] = [];
  if (filter.type) conditions.push(eq(redditCredentials.type, filter.type));
  if (!filter.includeDisabled) conditions.push(eq(redditCredentials.enabled, true));
  const where = conditions.length ? and(...conditions) : undefined;
  const [rows, totals] = await Promise.all([
    db
      .select()
      .from(redditCredentials)
      .where(where)
      .orderBy(desc(redditCredentials.createdAt), redditCredentials.id)
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: count() }).from(redditCredentials).where(where),
  ]);
  return { rows, total: totals[0]?.n ?? 0 };
}

/** Every enabled credential (few rows: one per Reddit app). */
export async function listEnabledCredentials(db: DbOrTx): Promise<CredentialRow[]> {
  return db
    .select()
    .from(redditCredentials)
    .where(eq(redditCredentials.enabled, true))
    .orderBy(redditCredentials.createdAt);
}

export async function updateCredential(
  db: DbOrTx,
  id: string,
  values: Partial<NewCredential>,
  now: Date,
): Promise<CredentialRow | null> {
  const [row] = await db
    .update(redditCredentials)
    .set({ ...values, updatedAt: now })
    .where(eq(redditCredentials.id, id))
    .returning();
  return row ?? null;
}

/**
 * Records Reddit's verdict on the client id and secret: `at` when it refused them, null when it accepted
 * them. Writes only a change; true when the credential has just turned refused.
 */
export async function setCredentialRefused(db: DbOrTx, id: string, at: Date | null): Promise<boolean> {
  const rows = await db
    .update(redditCredentials)
    .set({ refusedAt: at })
    .where(
      and(
        eq(redditCredentials.id, id),
        at ? isNull(redditCredentials.refusedAt) : isNotNull(redditCredentials.refusedAt),
      ),
    )
    .returning({ id: redditCredentials.id });
  return at !== null && rows.length > 0;
}

/** Records use at most once a minute, so busy credentials do not rewrite their row on every request. */
export async function touchCredential(db: DbOrTx, id: string, at: Date): Promise<void> {
  await db
    .update(redditCredentials)
    .set({ lastUsedAt: at })
    .where(
      and(
        eq(redditCredentials.id, id),
        or(
          isNull(redditCredentials.lastUsedAt),
          lt(redditCredentials.lastUsedAt, new Date(at.getTime() - 60_000)),
        ),
      ),
    );
}

/**
 * Deletes the credential unless a connected account signs in through it: the foreign key would silently
 * sign such accounts out. False when nothing was deleted (no such credential, or one in use).
 */
export async function deleteUnusedCredential(db: DbOrTx, id: string): Promise<boolean> {
  const rows = await db
    .delete(redditCredentials)
    .where(
      and(
        eq(redditCredentials.id, id),
        notExists(
          db
            .select({ id: redditAccounts.id })
            .from(redditAccounts)
            .where(eq(redditAccounts.credentialId, redditCredentials.id)),
        ),
      ),
    )
    .returning({ id: redditCredentials.id });
  return rows.length > 0;
}

/** How many connected accounts hold a grant of each send credential: while any do, it cannot be deleted. */
export async function connectedAccountCounts(db: DbOrTx, ids: string[]): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: redditAccounts.credentialId, n: count() })
    .from(redditAccounts)
    .where(inArray(redditAccounts.credentialId, ids))
    .groupBy(redditAccounts.credentialId);
  return new Map(rows.map((r) => [r.id!, r.n]));
}
