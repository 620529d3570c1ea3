import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { TCredential } from '@threadreach/contract';
import { jsonResponse, mockApi, type TMockHandler, type TMockRequest } from '../../../test/fetch-mock';
import { renderApp } from '../../../test/render-app';
import { makeToken } from '../../../test/tokens';
import { setToken } from '../../../lib/token-storage';
import { buildCredential, buildPoolStats, page } from '../credentials.test-support';

afterEach(() => vi.unstubAllGlobals());

const SEARCH = buildCredential({
  id: 'aaaaaaaa-1111-4111-8111-111111111111',
  account_name: 'search_bot',
  usage_stats: { total_requests: 37, active_clients: 2 },
});
const SEND = buildCredential({
  id: 'bbbbbbbb-2222-4222-8222-222222222222',
  type: 'send',
  account_name: 'send_app',
  proxy_preferences: { country: 'US', state: 'CA', city: 'Los Angeles' },
  last_used: '2030-01-02T03:04:05Z',
  enabled: false,
});

/** A list endpoint answering from `rows` with the query's filters applied, as the server would. */
function listOf(rows: () => TCredential[]): TMockHandler {
  return (req: TMockRequest) => {
    const q = req.url.searchParams;
    const type = q.get('credential_type');
    const items = rows()
      .filter((c) => q.get('include_disabled') === 'true' || c.enabled)
      .filter((c) => !type || c.type === type);
    const limit = Number(q.get('limit'));
    const offset = Number(q.get('offset'));
    return jsonResponse(200, page(items.slice(offset, offset + limit), items.length, limit, offset));
  };
}

function signIn(roles: string[]) {
  setToken(makeToken({ roles, profiles_limit: 0 }));
}

const rowOf = (name: string) =>
  within(screen.getByRole('table', { name: 'Credentials' }))
    .getByText(name)
    .closest('tr') as HTMLElement;

describe('/credentials', () => {
  it('shows Access Denied to a USER and makes no credential calls', async () => {
    setToken(makeToken({ roles: ['USER'] }));
    const { calls } = mockApi({});
    renderApp('/credentials');
    expect(
      await screen.findByText(
        'Access Denied - This page is only accessible to administrators and moderators.',
      ),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to Dashboard' }).getAttribute('href')).toBe('/');
    expect(calls.filter((c) => c.path.startsWith('/reddit-credentials'))).toHaveLength(0);
  });

  it('lists the credentials for a moderator, with the count on the tab', async () => {
    signIn(['MODERATOR']);
    const { callsTo } = mockApi({ 'GET /reddit-credentials': listOf(() => [SEARCH, SEND]) });
    renderApp('/credentials');
    const table = await screen.findByRole('table', { name: 'Credentials' });
    expect(screen.getByRole('tab', { name: 'Credentials (1)' })).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Proxy Pool' })).toBeTruthy();
    const row = within(table).getByText('search_bot').closest('tr') as HTMLElement;
    expect(within(row).getByText('aaaaaaaa')).toBeTruthy();
    expect(within(row).getByText('Search')).toBeTruthy();
    expect(within(row).getByText('Random')).toBeTruthy();
    expect(within(row).getByText('37 requests')).toBeTruthy();
    expect(within(row).getByText('2 active clients')).toBeTruthy();
    expect(within(row).getByText('Never')).toBeTruthy();
    expect(within(row).getByText('Enabled')).toBeTruthy();
    for (const action of ['Details', 'Edit', 'Disable', 'Delete']) {
      expect(within(row).getByRole('button', { name: action })).toBeTruthy();
    }
    expect(within(table).queryByText('send_app')).toBeNull();

    const query = callsTo('GET /reddit-credentials')[0]!.url.searchParams;
    expect(query.get('include_disabled')).toBe('false');
    expect(query.has('credential_type')).toBe(false);
    expect(query.get('limit')).toBe('20');
    expect(query.get('offset')).toBe('0');
    // The Proxy Pool tab loads only when it is opened.
    expect(callsTo('GET /proxy-pool/stats')).toHaveLength(0);
  });

  it('filters by type and includes disabled credentials on request', async () => {
    signIn(['ADMIN']);
    const { callsTo } = mockApi({ 'GET /reddit-credentials': listOf(() => [SEARCH, SEND]) });
    renderApp('/credentials');
    await screen.findByText('search_bot');

    await userEvent.click(screen.getByRole('checkbox', { name: 'Include Disabled' }));
    const row = await waitFor(() => rowOf('send_app'));
    expect(within(row).getByText('US, CA, Los Angeles')).toBeTruthy();
    expect(within(row).getByText('Disabled')).toBeTruthy();
    expect(within(row).getByRole('button', { name: 'Enable' })).toBeTruthy();
    expect(within(row).getByText('Send')).toBeTruthy();

    await userEvent.selectOptions(screen.getByLabelText('Type'), 'Send Only');
    await waitFor(() => expect(screen.queryByText('search_bot')).toBeNull());
    const last = callsTo('GET /reddit-credentials').at(-1)!.url.searchParams;
    expect(last.get('credential_type')).toBe('send');
    expect(last.get('include_disabled')).toBe('true');

    await userEvent.selectOptions(screen.getByLabelText('Type'), 'All');
    await screen.findByText('search_bot');
    expect(callsTo('GET /reddit-credentials').at(-1)!.url.searchParams.has('credential_type')).toBe(false);
  });

  it('disables a credential with PATCH ?enabled=false and no body', async () => {
    signIn(['ADMIN']);
    let rows = [SEARCH];
    const { callsTo } = mockApi({
      'GET /reddit-credentials': listOf(() => rows),
      [`PATCH /reddit-credentials/${SEARCH.id}/enable`]: (req) => {
        rows = [{ ...SEARCH, enabled: req.url.searchParams.get('enabled') === 'true' }];
        return jsonResponse(200, rows[0]);
      },
    });
    renderApp('/credentials');
    await screen.findByText('search_bot');
    await userEvent.click(within(rowOf('search_bot')).getByRole('button', { name: 'Disable' }));
    expect(await screen.findByText('Credential disabled')).toBeTruthy();
    const call = callsTo(`PATCH /reddit-credentials/${SEARCH.id}/enable`)[0]!;
    expect(call.url.searchParams.get('enabled')).toBe('false');
    expect(call.init.body).toBeUndefined();
    // Without 'Include Disabled' it leaves the list; with it, it shows as Disabled.
    await waitFor(() => expect(screen.queryByRole('table', { name: 'Credentials' })).toBeNull());
    await userEvent.click(screen.getByRole('checkbox', { name: 'Include Disabled' }));
    expect(await within(await waitFor(() => rowOf('search_bot'))).findByText('Disabled')).toBeTruthy();
  });

  it("shows 'Failed to toggle credential: …' when the toggle fails", async () => {
    signIn(['ADMIN']);
    mockApi({
      'GET /reddit-credentials': listOf(() => [SEARCH]),
      [`PATCH /reddit-credentials/${SEARCH.id}/enable`]: [404, { detail: 'Credential not found', code: 'x' }],
    });
    renderApp('/credentials');
    await screen.findByText('search_bot');
    await userEvent.click(within(rowOf('search_bot')).getByRole('button', { name: 'Disable' }));
    expect(await screen.findByText('Failed to toggle credential: Credential not found')).toBeTruthy();
  });

  it('asks before deleting, then deletes', async () => {
    signIn(['ADMIN']);
    let rows = [SEARCH];
    const { callsTo } = mockApi({
      'GET /reddit-credentials': listOf(() => rows),
      [`DELETE /reddit-credentials/${SEARCH.id}`]: () => {
        rows = [];
        return jsonResponse(204);
      },
    });
    renderApp('/credentials');
    await screen.findByText('search_bot');
    await userEvent.click(within(rowOf('search_bot')).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Credential' });
    expect(within(dialog).getByText('Are you sure you want to delete this credential?')).toBeTruthy();

    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(callsTo(`DELETE /reddit-credentials/${SEARCH.id}`)).toHaveLength(0);

    await userEvent.click(within(rowOf('search_bot')).getByRole('button', { name: 'Delete' }));
    const again = await screen.findByRole('dialog', { name: 'Delete Credential' });
    await userEvent.click(within(again).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Credential deleted')).toBeTruthy();
    await waitFor(() => expect(screen.queryByText('search_bot')).toBeNull());
    expect(screen.getByText('No credentials found.')).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Credentials (0)' })).toBeTruthy();
  });

  it("shows 'Failed to delete credential: …' in the dialog", async () => {
    signIn(['ADMIN']);
    mockApi({
      'GET /reddit-credentials': listOf(() => [SEARCH]),
      [`DELETE /reddit-credentials/${SEARCH.id}`]: [
        409,
        { detail: 'Credential is in use', code: 'conflict' },
      ],
    });
    renderApp('/credentials');
    await screen.findByText('search_bot');
    await userEvent.click(within(rowOf('search_bot')).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Credential' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'Failed to delete credential: Credential is in use',
    );
  });

  it("shows 'Failed to fetch credentials: …' with the server's detail", async () => {
    signIn(['ADMIN']);
    mockApi({
      'GET /reddit-credentials': [400, { detail: 'limit must be at most 500', code: 'bad_request' }],
    });
    renderApp('/credentials');
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Failed to fetch credentials: limit must be at most 500',
    );
  });

  it('pages through a long list', async () => {
    signIn(['ADMIN']);
    const many = Array.from({ length: 45 }, (_, i) =>
      buildCredential({
        id: `${String(i).padStart(8, '0')}-0000-4000-8000-000000000000`,
        account_name: `bot_${i}`,
      }),
    );
    const { callsTo } = mockApi({ 'GET /reddit-credentials': listOf(() => many) });
    renderApp('/credentials');
    await screen.findByText('bot_0');
    expect(screen.getByRole('tab', { name: 'Credentials (45)' })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: '3' }));
    expect(await screen.findByText('bot_40')).toBeTruthy();
    expect(screen.queryByText('bot_0')).toBeNull();
    expect(callsTo('GET /reddit-credentials').at(-1)!.url.searchParams.get('offset')).toBe('40');
  });

  it('opens Edit from the table and the Proxy Pool tab', async () => {
    signIn(['ADMIN']);
    mockApi({
      'GET /reddit-credentials': listOf(() => [SEARCH]),
      'GET /proxy-pool/stats': [200, buildPoolStats()],
      'GET /proxy-pool/details': [200, page([])],
    });
    renderApp('/credentials');
    await screen.findByText('search_bot');
    await userEvent.click(within(rowOf('search_bot')).getByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Credential' });
    expect((within(dialog).getByLabelText('ID') as HTMLInputElement).value).toBe(SEARCH.id);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await userEvent.click(screen.getByRole('tab', { name: 'Proxy Pool' }));
    expect(await screen.findByText('No proxy details available')).toBeTruthy();
  });
});
