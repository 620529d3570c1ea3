import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { credentialsEndpoints } from '@threadreach/contract';
import { errorReply, mockEndpoint } from '../../../test/api-mock.test-support';
import { buildDetailed, renderSignedIn } from '../credentials.test-support';
import { CredentialDetailsDialog } from './credential-details-dialog';

const ID = '3f2a9c1e-5b7d-4e8f-9a0b-1c2d3e4f5a6b';

async function openDetails() {
  renderSignedIn(<CredentialDetailsDialog opened credentialId={ID} onClose={() => {}} />);
  return screen.findByRole('dialog', { name: 'Credential Details' });
}

const section = (dialog: HTMLElement, name: string) => within(dialog).getByRole('region', { name });

function factOf(scope: HTMLElement, label: string): string {
  const header = within(scope).getByRole('rowheader', { name: label });
  return header.closest('tr')?.querySelector('td')?.textContent ?? '';
}

describe('Credential Details', () => {
  it('wraps long unbroken values inside the dialog instead of running past its edge', async () => {
    const longName = 'a'.repeat(100);
    const longDescription = 'x'.repeat(300);
    mockEndpoint(
      credentialsEndpoints.detailed,
      buildDetailed({
        id: ID,
        account_name: longName,
        description: longDescription,
        proxy_masked: `http://${'u'.repeat(120)}:****@proxy.example:8080`,
      }),
    );
    const dialog = await openDetails();
    const basic = await within(dialog).findByRole('region', { name: 'Basic Information' });
    expect(factOf(basic, 'Account Name')).toBe(longName);
    expect(factOf(basic, 'Description')).toBe(longDescription);
    // jsdom lays nothing out: what matters is that every value may break anywhere.
    const cells = within(dialog).getAllByRole('cell');
    expect(cells.length).toBeGreaterThan(0);
    for (const cell of cells) expect(getComputedStyle(cell).overflowWrap).toBe('anywhere');
  });

  it('shows basic information, proxy configuration, metrics and proxy health', async () => {
    mockEndpoint(
      credentialsEndpoints.detailed,
      buildDetailed(
        {
          id: ID,
          account_name: 'search_bot',
          client_id_prefix: 'abcd1234',
          description: 'Main search app',
          proxy_preferences: { country: 'US', state: 'CA', city: null },
          proxy_masked: 'http://user:****@proxy.example:8080',
        },
        { total_requests: 50, success_rate_percent: 88, error_rate_percent: 12, proxy_replacement_count: 3 },
      ),
    );
    const dialog = await openDetails();
    const basic = await within(dialog).findByRole('region', { name: 'Basic Information' });
    expect(factOf(basic, 'Account Name')).toBe('search_bot');
    expect(factOf(basic, 'Type')).toBe('Search');
    expect(factOf(basic, 'Client ID Prefix')).toBe('abcd1234');
    expect(factOf(basic, 'Enabled')).toBe('Yes');
    expect(factOf(basic, 'Last Used')).toBe('Never');
    expect(factOf(basic, 'Description')).toBe('Main search app');

    const proxy = section(dialog, 'Proxy Configuration');
    expect(factOf(proxy, 'Location')).toBe('US, CA');
    expect(factOf(proxy, 'Proxy')).toBe('http://user:****@proxy.example:8080');

    const metrics = section(dialog, 'Efficiency Metrics');
    const bar = within(metrics).getByRole('progressbar', { name: 'Success rate' });
    expect(bar.closest('[data-color]')?.getAttribute('data-color')).toBe('yellow');
    expect(within(metrics).getByText('12.0% medium')).toBeTruthy();

    const health = section(dialog, 'Proxy Health');
    expect(factOf(health, 'Status')).toBe('Unknown');
    expect(factOf(health, 'Replacements')).toBe('3');
    expect(factOf(health, 'Last Health Check')).toBe('Never');
    expect(factOf(health, 'Last Proxy Error')).toBe('None');
  });

  it("says 'Credential not found' for a 404 and 'Failed to load credential details' otherwise", async () => {
    mockEndpoint(credentialsEndpoints.detailed, errorReply(404, 'Credential not found', 'not_found'));
    const dialog = await openDetails();
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Credential not found');
  });

  it("says 'Failed to load credential details' when the call fails", async () => {
    mockEndpoint(credentialsEndpoints.detailed, errorReply(500, 'boom', 'internal'));
    const dialog = await openDetails();
    expect((await within(dialog).findByRole('alert', {}, { timeout: 3000 })).textContent).toBe(
      'Failed to load credential details',
    );
  });

  it('Test Connection shows a failure with the response time and the error', async () => {
    mockEndpoint(credentialsEndpoints.detailed, buildDetailed({ id: ID }));
    const test = mockEndpoint(credentialsEndpoints.test, {
      can_connect: false,
      response_time_ms: 42,
      error: 'invalid_client',
    });
    const dialog = await openDetails();
    await userEvent.click(await within(dialog).findByRole('button', { name: 'Test Connection' }));
    const result = await within(dialog).findByRole('status', { name: /Connection test/ });
    expect(result.textContent).toContain('Connection test: failure');
    expect(result.textContent).toContain('Response time: 42 ms');
    expect(result.textContent).toContain('Error: invalid_client');
    expect(test.calls[0]!.params.id).toBe(ID);
    expect(test.calls[0]!.rawBody).toBeUndefined();
  });

  it('shows the actions and the test result at the top, above the basic information', async () => {
    mockEndpoint(credentialsEndpoints.detailed, buildDetailed({ id: ID }));
    mockEndpoint(credentialsEndpoints.test, { can_connect: true, response_time_ms: 7, error: null });
    const dialog = await openDetails();
    await userEvent.click(await within(dialog).findByRole('button', { name: 'Test Connection' }));
    const result = await within(dialog).findByRole('status', { name: /Connection test/ });
    const regions = within(dialog).getAllByRole('region');
    expect(regions.map((r) => r.getAttribute('aria-label'))).toEqual([
      'Actions',
      'Basic Information',
      'Proxy Configuration',
      'Efficiency Metrics',
      'Proxy Health',
    ]);
    const basic = section(dialog, 'Basic Information');
    expect(result.compareDocumentPosition(basic) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it("shows '—' for the rates of a credential with no requests", async () => {
    mockEndpoint(
      credentialsEndpoints.detailed,
      buildDetailed({ id: ID }, { total_requests: 0, success_rate_percent: 100, error_rate_percent: 0 }),
    );
    const dialog = await openDetails();
    const metrics = await within(dialog).findByRole('region', { name: 'Efficiency Metrics' });
    expect(within(metrics).getByTestId('success-rate').textContent).toBe('—');
    expect(within(metrics).queryByText('100.0%')).toBeNull();
  });

  it('Test Connection shows a success', async () => {
    mockEndpoint(credentialsEndpoints.detailed, buildDetailed({ id: ID }));
    mockEndpoint(credentialsEndpoints.test, { can_connect: true, response_time_ms: 120, error: null });
    const dialog = await openDetails();
    await userEvent.click(await within(dialog).findByRole('button', { name: 'Test Connection' }));
    const result = await within(dialog).findByRole('status', { name: /Connection test/ });
    expect(result.textContent).toContain('Connection test: success');
    expect(result.textContent).toContain('Response time: 120 ms');
    expect(result.textContent).not.toContain('Error');
  });

  it("shows 'Test failed' when the test call itself fails", async () => {
    mockEndpoint(credentialsEndpoints.detailed, buildDetailed({ id: ID }));
    mockEndpoint(credentialsEndpoints.test, errorReply(409, 'Credential is disabled', 'conflict'));
    const dialog = await openDetails();
    await userEvent.click(await within(dialog).findByRole('button', { name: 'Test Connection' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert.textContent).toContain('Test failed');
    expect(alert.textContent).toContain('Credential is disabled');
  });

  it('Replace Proxy replaces it and shows the new proxy', async () => {
    mockEndpoint(
      credentialsEndpoints.detailed,
      buildDetailed({ id: ID, proxy_masked: 'http://u:****@old.example:1' }),
    );
    const replace = mockEndpoint(
      credentialsEndpoints.replaceProxy,
      buildDetailed({ id: ID, proxy_masked: 'http://u:****@new.example:2' }, { proxy_replacement_count: 1 }),
    );
    const dialog = await openDetails();
    await userEvent.click(await within(dialog).findByRole('button', { name: 'Replace Proxy' }));
    expect(await screen.findByText('Proxy replaced')).toBeTruthy();
    await waitFor(() =>
      expect(factOf(section(dialog, 'Proxy Configuration'), 'Proxy')).toBe('http://u:****@new.example:2'),
    );
    expect(factOf(section(dialog, 'Proxy Health'), 'Replacements')).toBe('1');
    expect(replace.calls).toHaveLength(1);
  });

  it('disables Replace Proxy, saying why, when the server has no proxy provider', async () => {
    mockEndpoint(
      credentialsEndpoints.detailed,
      buildDetailed({ id: ID, proxy_masked: null, proxy_provider_configured: false }),
    );
    const replace = mockEndpoint(
      credentialsEndpoints.replaceProxy,
      errorReply(409, 'No proxy provider is configured', 'no_proxy_provider'),
    );
    const dialog = await openDetails();
    const button = await within(dialog).findByRole('button', { name: 'Replace Proxy' });
    expect(button.hasAttribute('disabled')).toBe(true);
    await userEvent.click(button);
    await userEvent.hover(button.parentElement!);
    expect(
      await screen.findByRole('tooltip', {
        name: 'No proxy provider is configured (PROXY_URL_TEMPLATE), so this credential connects directly.',
      }),
    ).toBeTruthy();
    expect(replace.calls).toHaveLength(0);
    // Test Connection still works without a proxy.
    expect(within(dialog).getByRole('button', { name: 'Test Connection' }).hasAttribute('disabled')).toBe(
      false,
    );
  });
});
