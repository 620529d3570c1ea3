import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import type {
  TCredential,
  TCredentialDetailed,
  TEfficiencyStats,
  TProxyPoolStats,
} from '@threadreach/contract';
import { AppProviders } from '../../app/app-providers';
import { setToken } from '../../lib/token-storage';
import { testQueryClient } from '../../test/render-app';
import { makeToken } from '../../test/tokens';

/** Test data and rendering for this feature's tests; each builder makes a complete, valid object. */
export function buildCredential(overrides: Partial<TCredential> = {}): TCredential {
  return {
    id: '3f2a9c1e-5b7d-4e8f-9a0b-1c2d3e4f5a6b',
    type: 'search',
    account_name: 'search_bot',
    client_id: 'client-abc',
    client_id_prefix: 'client-a',
    description: null,
    enabled: true,
    proxy_preferences: { country: null, state: null, city: null },
    usage_stats: { total_requests: 0, active_clients: 0, connected_accounts: 0 },
    last_used: null,
    created_at: '2030-01-01T00:00:00Z',
    ...overrides,
  };
}

export function buildEfficiencyStats(overrides: Partial<TEfficiencyStats> = {}): TEfficiencyStats {
  return {
    success_rate_percent: 100,
    error_rate_percent: 0,
    total_requests: 0,
    success_count: 0,
    failure_count: 0,
    active_clients: 0,
    total_clients_created: 0,
    total_proxy_requests: 0,
    proxy_health_status: null,
    proxy_replacement_count: 0,
    last_health_check: null,
    last_proxy_error: null,
    ...overrides,
  };
}

export function buildDetailed(
  overrides: Partial<TCredentialDetailed> = {},
  stats: Partial<TEfficiencyStats> = {},
): TCredentialDetailed {
  return {
    ...buildCredential(),
    proxy_masked: null,
    proxy_provider_configured: true,
    efficiency_stats: buildEfficiencyStats(stats),
    ...overrides,
  };
}

export function buildPoolStats(overrides: Partial<TProxyPoolStats> = {}): TProxyPoolStats {
  return {
    total_proxies: 0,
    healthy_proxies: 0,
    degraded_proxies: 0,
    failed_proxies: 0,
    total_requests: 0,
    total_replacements_24h: 0,
    current_active_failures: 0,
    last_replacement_time: null,
    avg_failure_rate: 0,
    ...overrides,
  };
}

export function page<T>(items: T[], total = items.length, limit = 20, offset = 0) {
  return { items, total, limit, offset };
}

/** Renders `ui` with the app's providers and a router, signed in with the given roles. */
export function renderSignedIn(ui: ReactElement, roles: string[] = ['ADMIN']) {
  setToken(makeToken({ roles }));
  return render(
    <AppProviders queryClient={testQueryClient()}>
      <MemoryRouter>{ui}</MemoryRouter>
    </AppProviders>,
  );
}
