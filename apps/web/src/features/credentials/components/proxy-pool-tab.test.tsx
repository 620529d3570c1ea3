import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { credentialsEndpoints } from '@threadreach/contract';
import { mockEndpoint } from '../../../test/api-mock.test-support';
import { buildPoolStats, page, renderSignedIn } from '../credentials.test-support';
import { NO_PROXY_DETAILS_TEXT, ProxyPoolTab, REPLACEMENTS_WARNING_TEXT } from './proxy-pool-tab';

const card = (label: string) => screen.getByRole('group', { name: label });

describe('Proxy Pool tab', () => {
  it("says 'No proxy details available' when there are no proxies", async () => {
    mockEndpoint(credentialsEndpoints.proxyPoolStats, buildPoolStats());
    mockEndpoint(credentialsEndpoints.proxyPoolDetails, page([]));
    renderSignedIn(<ProxyPoolTab />);
    expect(await screen.findByText(NO_PROXY_DETAILS_TEXT)).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
    expect(card('Replacements (24h)').dataset.color).toBe('default');
    expect(screen.queryByText(REPLACEMENTS_WARNING_TEXT)).toBeNull();
    expect(within(card('Last Replacement')).getByText('Never')).toBeTruthy();
    // No request went through a proxy: no rate, rather than 0.0%.
    expect(within(card('Avg Failure Rate')).getByText('—')).toBeTruthy();
  });

  it('shows the summary cards, a warning after replacements and a red failure rate above 5%', async () => {
    mockEndpoint(
      credentialsEndpoints.proxyPoolStats,
      buildPoolStats({
        total_proxies: 4,
        healthy_proxies: 2,
        degraded_proxies: 1,
        failed_proxies: 1,
        total_requests: 1500,
        total_replacements_24h: 2,
        current_active_failures: 1,
        avg_failure_rate: 0.0625,
      }),
    );
    mockEndpoint(credentialsEndpoints.proxyPoolDetails, page([]));
    renderSignedIn(<ProxyPoolTab />);
    expect(await screen.findByRole('group', { name: 'Total Proxies' })).toBeTruthy();
    expect(within(card('Total Proxies')).getByText('4')).toBeTruthy();
    expect(within(card('Healthy')).getByText('2')).toBeTruthy();
    expect(within(card('Total Requests')).getByText('1500')).toBeTruthy();
    expect(card('Replacements (24h)').dataset.color).toBe('orange');
    expect(within(card('Replacements (24h)')).getByText(REPLACEMENTS_WARNING_TEXT)).toBeTruthy();
    expect(within(card('Avg Failure Rate')).getByText('6.3%')).toBeTruthy();
    expect(card('Avg Failure Rate').dataset.color).toBe('red');
  });

  it('does not highlight a failure rate of exactly 5%', async () => {
    mockEndpoint(
      credentialsEndpoints.proxyPoolStats,
      buildPoolStats({ total_requests: 100, avg_failure_rate: 0.05 }),
    );
    mockEndpoint(credentialsEndpoints.proxyPoolDetails, page([]));
    renderSignedIn(<ProxyPoolTab />);
    expect(await screen.findByText('5.0%')).toBeTruthy();
    expect(card('Avg Failure Rate').dataset.color).toBe('default');
  });

  it('lists each proxy with its health, counts and last error', async () => {
    mockEndpoint(credentialsEndpoints.proxyPoolStats, buildPoolStats({ total_proxies: 1 }));
    const details = mockEndpoint(
      credentialsEndpoints.proxyPoolDetails,
      page([
        {
          credential_id: '3f2a9c1e-5b7d-4e8f-9a0b-1c2d3e4f5a6b',
          proxy_masked: 'http://user:****@proxy.example:8080',
          health_status: 'degraded',
          success_count: 40,
          failure_count: 3,
          last_health_check: null,
          last_error: 'connect ETIMEDOUT',
        },
      ]),
    );
    renderSignedIn(<ProxyPoolTab />);
    const table = await screen.findByRole('table', { name: 'Proxy details' });
    const row = within(table).getAllByRole('row')[1]!;
    expect(within(row).getByText('3f2a9c1e')).toBeTruthy();
    expect(within(row).getByText('http://user:****@proxy.example:8080')).toBeTruthy();
    expect(within(row).getByText('degraded')).toBeTruthy();
    expect(within(row).getByText('40 / 3')).toBeTruthy();
    expect(within(row).getByText('Never')).toBeTruthy();
    expect(within(row).getByText('connect ETIMEDOUT')).toBeTruthy();
    const query = details.calls[0]!.url.searchParams;
    expect(query.get('limit')).toBe('20');
    expect(query.get('offset')).toBe('0');
  });
});
