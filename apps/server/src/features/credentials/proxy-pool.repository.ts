import { count, desc, eq, gt, inArray, max, sql } from 'drizzle-orm';
import type { TPageQuery } from '@threadreach/contract';
import type { DbOrTx } from '../../db/client';
import { credentialProxies, proxyReplacements, type CredentialProxyRow } from './proxy-pool.table';

export async function findProxy(db: DbOrTx, credentialId: string): Promise<CredentialProxyRow | null> {
  const [row] = await db
    .select()
    .from(credentialProxies)
    .where(eq(credentialProxies.credentialId, credentialId));
  return row ?? null;
}

export async function findProxies(db: DbOrTx, credentialIds: string[]): Promise<CredentialProxyRow[]> {
  if (credentialIds.length === 0) return [];
  return db.select().from(credentialProxies).where(inArray(credentialProxies.credentialId, credentialIds));
}

export async function listAllProxies(db: DbOrTx): Promise<CredentialProxyRow[]> {
  return db.select().from(credentialProxies).orderBy(credentialProxies.credentialId);
}

export async function listProxiesPage(
  db: DbOrTx,
  page: TPageQuery,
): Promise<{ rows: CredentialProxyRow[]; total: number }> {
  const [rows, totals] = await Promise.all([
    db
      .select()
      .from(credentialProxies)
      .orderBy(desc(credentialProxies.assignedAt), credentialProxies.credentialId)
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: count() }).from(credentialProxies),
  ]);
  return { rows, total: totals[0]?.n ?? 0 };
}

/** A new proxy for the credential: its figures start again. */
export async function putProxy(
  db: DbOrTx,
  credentialId: string,
  proxy: { proxyUrl: string; proxyMasked: string },
  keep: { replacementCount: number },
  now: Date,
): Promise<CredentialProxyRow> {
  const values = {
    credentialId,
    proxyUrl: proxy.proxyUrl,
    proxyMasked: proxy.proxyMasked,
    healthStatus: null,
    successCount: 0,
    failureCount: 0,
    consecutiveFailures: 0,
    lastHealthCheck: null,
    lastError: null,
    replacementCount: keep.replacementCount,
    assignedAt: now,
  };
  const [row] = await db
    .insert(credentialProxies)
    .values(values)
    .onConflictDoUpdate({ target: credentialProxies.credentialId, set: values })
    .returning();
  return row!;
}

export async function deleteProxy(db: DbOrTx, credentialId: string): Promise<void> {
  await db.delete(credentialProxies).where(eq(credentialProxies.credentialId, credentialId));
}

/** Counts one outcome through the proxy and returns the row as it now is. */
export async function countProxyOutcome(
  db: DbOrTx,
  credentialId: string,
  outcome: { ok: boolean; error?: string; checked?: boolean },
  maxFailures: number,
  now: Date,
): Promise<CredentialProxyRow | null> {
  const consecutive = outcome.ok ? sql`0` : sql`${credentialProxies.consecutiveFailures} + 1`;
  const [row] = await db
    .update(credentialProxies)
    .set({
      successCount: outcome.ok ? sql`${credentialProxies.successCount} + 1` : credentialProxies.successCount,
      failureCount: outcome.ok ? credentialProxies.failureCount : sql`${credentialProxies.failureCount} + 1`,
      consecutiveFailures: consecutive,
      healthStatus: outcome.ok
        ? 'healthy'
        : sql`case when ${credentialProxies.consecutiveFailures} + 1 >= ${maxFailures} then 'failed' else 'degraded' end`,
      lastError: outcome.ok ? credentialProxies.lastError : (outcome.error ?? 'unknown error').slice(0, 500),
      ...(outcome.checked ? { lastHealthCheck: now } : {}),
    })
    .where(eq(credentialProxies.credentialId, credentialId))
    .returning();
  return row ?? null;
}

export async function insertReplacement(
  db: DbOrTx,
  values: { credentialId: string; oldProxyMasked: string; reason: string; replacedAt: Date },
): Promise<void> {
  await db.insert(proxyReplacements).values(values);
}

export async function replacementFigures(
  db: DbOrTx,
  since: Date,
): Promise<{ inWindow: number; lastAt: Date | null }> {
  const [inWindow] = await db
    .select({ n: count() })
    .from(proxyReplacements)
    .where(gt(proxyReplacements.replacedAt, since));
  const [last] = await db.select({ at: max(proxyReplacements.replacedAt) }).from(proxyReplacements);
  return { inWindow: inWindow?.n ?? 0, lastAt: last?.at ? new Date(last.at) : null };
}
