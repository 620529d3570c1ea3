import { eq, inArray, max, sql, sum } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { redditRequestStats } from './reddit.table';

/** The endpoint label of token grants; their successes are the OAuth clients a credential created. */
export const TOKEN_ENDPOINT = 'POST /api/v1/access_token';

export interface RequestRecord {
  credentialId: string;
  endpoint: string;
  ok: boolean;
  proxied: boolean;
  at: Date;
}

/** Counts one request in its credential's per-day, per-endpoint row. */
export async function recordRequest(db: DbOrTx, r: RequestRecord): Promise<void> {
  const day = r.at.toISOString().slice(0, 10);
  const ok = r.ok ? 1 : 0;
  const proxied = r.proxied ? 1 : 0;
  await db
    .insert(redditRequestStats)
    .values({
      credentialId: r.credentialId,
      day,
      endpoint: r.endpoint,
      requests: 1,
      successes: ok,
      failures: 1 - ok,
      proxied,
      lastAt: r.at,
    })
    .onConflictDoUpdate({
      target: [redditRequestStats.credentialId, redditRequestStats.day, redditRequestStats.endpoint],
      set: {
        requests: sql`${redditRequestStats.requests} + 1`,
        successes: sql`${redditRequestStats.successes} + ${ok}`,
        failures: sql`${redditRequestStats.failures} + ${1 - ok}`,
        proxied: sql`${redditRequestStats.proxied} + ${proxied}`,
        lastAt: sql`greatest(${redditRequestStats.lastAt}, ${r.at.toISOString()}::timestamptz)`,
      },
    });
}

export interface RequestTotals {
  total: number;
  successes: number;
  failures: number;
  proxied: number;
  tokensIssued: number;
  lastAt: Date | null;
}

const EMPTY: RequestTotals = {
  total: 0,
  successes: 0,
  failures: 0,
  proxied: 0,
  tokensIssued: 0,
  lastAt: null,
};

/** Lifetime totals per credential. */
export async function requestTotals(
  db: DbOrTx,
  credentialIds: string[],
): Promise<Map<string, RequestTotals>> {
  const totals = new Map<string, RequestTotals>();
  if (credentialIds.length === 0) return totals;
  const rows = await db
    .select({
      credentialId: redditRequestStats.credentialId,
      total: sum(redditRequestStats.requests),
      successes: sum(redditRequestStats.successes),
      failures: sum(redditRequestStats.failures),
      proxied: sum(redditRequestStats.proxied),
      tokensIssued: sql<string>`coalesce(sum(${redditRequestStats.successes}) filter (where ${redditRequestStats.endpoint} = ${TOKEN_ENDPOINT}), 0)`,
      lastAt: max(redditRequestStats.lastAt),
    })
    .from(redditRequestStats)
    .where(inArray(redditRequestStats.credentialId, credentialIds))
    .groupBy(redditRequestStats.credentialId);
  for (const id of credentialIds) totals.set(id, { ...EMPTY });
  for (const row of rows) {
    totals.set(row.credentialId, {
      total: Number(row.total ?? 0),
      successes: Number(row.successes ?? 0),
      failures: Number(row.failures ?? 0),
      proxied: Number(row.proxied ?? 0),
      tokensIssued: Number(row.tokensIssued ?? 0),
      lastAt: row.lastAt ? new Date(row.lastAt) : null,
    });
  }
  return totals;
}

/** Forgets a deleted credential's figures. */
export async function deleteRequestStats(db: DbOrTx, credentialId: string): Promise<void> {
  await db.delete(redditRequestStats).where(eq(redditRequestStats.credentialId, credentialId));
}
