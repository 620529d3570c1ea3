import { randomBytes } from 'node:crypto';
import type { TPageQuery, TProxyDetailList, TProxyPoolStats } from '@threadreach/contract';
import type { Dispatcher } from 'undici';
import type { AppContext } from '../../context';
import type { DbOrTx } from '../../db/client';
import { createDirectDispatcher, createProxyDispatcher } from '../../integrations/proxy/proxy-dispatcher';
import { maskProxyUrl, renderProxyUrl, type ProxyLocation } from '../../integrations/proxy/proxy-template';
import type { TargetPolicy } from '../../integrations/proxy/ssrf-guard';
import { RedditBudgetExhaustedError, type RedditTransport } from '../../integrations/reddit';
import {
  countProxyOutcome,
  deleteProxy,
  findProxy,
  insertReplacement,
  listAllProxies,
  listProxiesPage,
  putProxy,
  replacementFigures,
} from './proxy-pool.repository';
import type { CredentialProxyRow } from './proxy-pool.table';

/** The credential a proxy serves: its id and location preference. */
export interface ProxyOwner extends ProxyLocation {
  id: string;
  accountName: string;
}

const HEALTH_CHECK_TIMEOUT_MS = 10_000;

const proxyUrlRef = (credentialId: string) => ({
  table: 'credential_proxies',
  rowId: credentialId,
  column: 'proxy_url',
});

// Connection pools only: which proxy a credential uses is always read from the database.
const dispatchers = new Map<string, Dispatcher>();
let direct: Dispatcher | null = null;

function policy(ctx: AppContext): TargetPolicy {
  return { allowedHosts: ctx.config.proxy.allowedHosts };
}

/** Gives the credential a fresh proxy from the template, or none (direct) when no template is configured. */
export async function assignProxy(
  ctx: AppContext,
  owner: ProxyOwner,
  db: DbOrTx = ctx.db,
): Promise<CredentialProxyRow | null> {
  const template = ctx.config.proxy.urlTemplate;
  if (!template) {
    await deleteProxy(db, owner.id);
    return null;
  }
  const existing = await findProxy(db, owner.id);
  return putFreshProxy(ctx, db, owner, template, existing?.replacementCount ?? 0);
}

async function putFreshProxy(
  ctx: AppContext,
  db: DbOrTx,
  owner: ProxyOwner,
  template: string,
  replacementCount: number,
) {
  // A new session id makes the provider hand out a new exit address.
  const url = renderProxyUrl(template, owner, randomBytes(6).toString('hex'));
  return putProxy(
    db,
    owner.id,
    { proxyUrl: ctx.secrets.encrypt(url, proxyUrlRef(owner.id)), proxyMasked: maskProxyUrl(url) },
    { replacementCount },
    new Date(ctx.clock.now()),
  );
}

/** Swaps the credential's proxy for a new one and records why. */
export async function replaceProxy(
  ctx: AppContext,
  owner: ProxyOwner,
  reason: string,
): Promise<CredentialProxyRow | null> {
  const template = ctx.config.proxy.urlTemplate;
  if (!template) return null;
  const replaced = await ctx.db.transaction(async (tx) => {
    const old = await findProxy(tx, owner.id);
    if (!old) return { fresh: await putFreshProxy(ctx, tx, owner, template, 0), old: null };
    await insertReplacement(tx, {
      credentialId: owner.id,
      oldProxyMasked: old.proxyMasked,
      reason,
      replacedAt: new Date(ctx.clock.now()),
    });
    return { fresh: await putFreshProxy(ctx, tx, owner, template, old.replacementCount + 1), old };
  });
  if (replaced.old) await forgetDispatcher(ctx, replaced.old);
  ctx.log.info({ credentialId: owner.id, reason }, 'proxy replaced');
  return replaced.fresh;
}

async function forgetDispatcher(ctx: AppContext, row: CredentialProxyRow) {
  try {
    const url = ctx.secrets.decrypt(row.proxyUrl, proxyUrlRef(row.credentialId));
    const dispatcher = dispatchers.get(url);
    dispatchers.delete(url);
    await dispatcher?.close();
  } catch {
    // An undecryptable row has no pool to close.
  }
}

/** Closes the connection pool of a credential's proxy (before the credential is deleted). */
export async function releaseProxy(ctx: AppContext, credentialId: string): Promise<void> {
  const row = await findProxy(ctx.db, credentialId);
  if (row) await forgetDispatcher(ctx, row);
}

/** How the credential's requests leave: through its proxy, or directly when it has none. */
export async function dispatcherFor(
  ctx: AppContext,
  credentialId: string,
): Promise<{ dispatcher: Dispatcher; proxied: boolean }> {
  const row = await findProxy(ctx.db, credentialId);
  if (!row) return { dispatcher: (direct ??= createDirectDispatcher()), proxied: false };
  const url = ctx.secrets.decrypt(row.proxyUrl, proxyUrlRef(credentialId));
  let dispatcher = dispatchers.get(url);
  if (!dispatcher) {
    dispatcher = createProxyDispatcher(url, policy(ctx));
    dispatchers.set(url, dispatcher);
  }
  return { dispatcher, proxied: true };
}

/**
 * Counts a request's outcome through the credential's proxy. After PROXY_MAX_FAILURES failures in a row
 * the proxy is marked failed and replaced.
 */
export async function recordProxyOutcome(
  ctx: AppContext,
  owner: ProxyOwner,
  outcome: { ok: boolean; error?: string; checked?: boolean },
): Promise<void> {
  const row = await countProxyOutcome(
    ctx.db,
    owner.id,
    outcome,
    ctx.config.proxy.maxFailures,
    new Date(ctx.clock.now()),
  );
  if (row?.healthStatus === 'failed') {
    ctx.log.warn({ credentialId: owner.id, error: outcome.error }, 'proxy failed repeatedly');
    await replaceProxy(
      ctx,
      owner,
      `${row.consecutiveFailures} consecutive failures: ${outcome.error ?? 'unknown'}`,
    );
  }
}

/**
 * One round trip to Reddit through the credential's Reddit transport: its proxy (behind the address
 * guard), a slot of its budget, its request statistics. Any HTTP answer means the proxy works. A check
 * never waits: when the budget is spent the credential is busy, its own requests keep the proxy's
 * figures, and the check is skipped.
 */
export async function checkProxy(
  ctx: AppContext,
  owner: ProxyOwner,
  transport: Pick<RedditTransport, 'probe'>,
): Promise<{ ok: boolean; error?: string; skipped?: boolean }> {
  let probe: Awaited<ReturnType<RedditTransport['probe']>>;
  try {
    probe = await transport.probe({ timeoutMs: HEALTH_CHECK_TIMEOUT_MS, mode: { wait: false } });
  } catch (error) {
    if (error instanceof RedditBudgetExhaustedError) return { ok: true, skipped: true };
    throw error;
  }
  if (!probe.proxied) return { ok: true };
  const outcome = probe.ok ? { ok: true } : { ok: false, error: probe.error };
  await recordProxyOutcome(ctx, owner, { ...outcome, checked: true });
  return outcome;
}

export async function getProxyPoolStats(ctx: AppContext): Promise<TProxyPoolStats> {
  const rows = await listAllProxies(ctx.db);
  const replacements = await replacementFigures(ctx.db, new Date(ctx.clock.now() - 24 * 3600_000));
  const successes = rows.reduce((n, r) => n + r.successCount, 0);
  const failures = rows.reduce((n, r) => n + r.failureCount, 0);
  return {
    total_proxies: rows.length,
    healthy_proxies: rows.filter((r) => r.healthStatus === 'healthy').length,
    degraded_proxies: rows.filter((r) => r.healthStatus === 'degraded').length,
    failed_proxies: rows.filter((r) => r.healthStatus === 'failed').length,
    total_requests: successes + failures,
    total_replacements_24h: replacements.inWindow,
    current_active_failures: rows.filter((r) => r.consecutiveFailures > 0).length,
    last_replacement_time: replacements.lastAt?.toISOString() ?? null,
    avg_failure_rate: successes + failures === 0 ? 0 : failures / (successes + failures),
  };
}

export async function listProxyDetails(ctx: AppContext, page: TPageQuery): Promise<TProxyDetailList> {
  const { rows, total } = await listProxiesPage(ctx.db, page);
  return { items: rows.map(presentProxyDetail), total, limit: page.limit, offset: page.offset };
}

function presentProxyDetail(row: CredentialProxyRow) {
  return {
    credential_id: row.credentialId,
    proxy_masked: row.proxyMasked,
    health_status: row.healthStatus,
    success_count: row.successCount,
    failure_count: row.failureCount,
    last_health_check: row.lastHealthCheck?.toISOString() ?? null,
    last_error: row.lastError,
  };
}
