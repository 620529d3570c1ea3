import type { TCredential, TCredentialDetailed } from '@threadreach/contract';
import type { RequestTotals } from '../../integrations/reddit';
import type { CredentialProxyRow } from './proxy-pool.table';
import type { CredentialRow } from './credentials.table';

export interface CredentialUsage {
  totals: RequestTotals;
  activeClients: number;
  /** Connected accounts whose grant is of this (send) credential. */
  connectedAccounts: number;
}

/** A credential as responses show it; the client secret is never part of it. */
export function presentCredential(row: CredentialRow, usage: CredentialUsage): TCredential {
  return {
    id: row.id,
    type: row.type,
    account_name: row.accountName,
    client_id: row.clientId,
    client_id_prefix: row.clientId.slice(0, 8),
    description: row.description,
    enabled: row.enabled,
    proxy_preferences: { country: row.proxyCountry, state: row.proxyState, city: row.proxyCity },
    usage_stats: {
      total_requests: usage.totals.total,
      active_clients: usage.activeClients,
      connected_accounts: usage.connectedAccounts,
    },
    last_used: row.lastUsedAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
  };
}

const percent = (part: number, whole: number) => Math.round((part / whole) * 10_000) / 100;

export function presentCredentialDetailed(
  row: CredentialRow,
  usage: CredentialUsage,
  proxy: CredentialProxyRow | null,
  proxyProviderConfigured: boolean,
): TCredentialDetailed {
  const { totals } = usage;
  return {
    ...presentCredential(row, usage),
    proxy_masked: proxy?.proxyMasked ?? null,
    proxy_provider_configured: proxyProviderConfigured,
    efficiency_stats: {
      // With no requests yet there is nothing that failed.
      success_rate_percent: totals.total === 0 ? 100 : percent(totals.successes, totals.total),
      error_rate_percent: totals.total === 0 ? 0 : percent(totals.failures, totals.total),
      total_requests: totals.total,
      success_count: totals.successes,
      failure_count: totals.failures,
      active_clients: usage.activeClients,
      total_clients_created: totals.tokensIssued,
      total_proxy_requests: totals.proxied,
      proxy_health_status: proxy?.healthStatus ?? null,
      proxy_replacement_count: proxy?.replacementCount ?? 0,
      last_health_check: proxy?.lastHealthCheck?.toISOString() ?? null,
      last_proxy_error: proxy?.lastError ?? null,
    },
  };
}
