import { beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { credentialsEndpoints, type TCredential } from '@threadreach/contract';
import {
  errorReply,
  mockEndpoint,
  sentRequests,
  type TMockHandler,
} from '../../../test/api-mock.test-support';
import { mockPublicConfig } from '../../../test/public-config.test-support';
import { renderApp } from '../../../test/render-app';
import { makeToken } from '../../../test/tokens';
import { setToken } from '../../../lib/token-storage';
import { buildCredential, buildPoolStats, page } from '../credentials.test-support';
import { LAST_SEARCH_CREDENTIAL_QUESTION } from '../credential-messages';

const SEARCH = buildCredential({
  id: 'aaaaaaaa-1111-4111-8111-111111111111',
  account_name: 'search_bot',
  usage_stats: { total_requests: 37, active_clients: 2, connected_accounts: 0 },
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
function listOf(rows: () => TCredential[]): TMockHandler<typeof credentialsEndpoints.list> {
  return ({ query }) => {
    const items = rows()
      .filter((c) => query.include_disabled || c.enabled)
      .filter((c) => !query.credential_type || c.type === query.credential_type);
    const { limit, offset } = query;
    return page(items.slice(offset, offset + limit), items.length, limit, offset);
  };
}

/** Disable on a row; the only enabled search credential asks first, and this answers yes. */
async function disable(row: HTMLElement) {
  await userEvent.click(within(row).getByRole('button', { name: 'Disable' }));
  if (within(row).queryByText(LAST_SEARCH_CREDENTIAL_QUESTION)) {
    await userEvent.click(within(row).getByRole('button', { name: 'Disable' }));
  }
}

function signIn(roles: string[]) {
  setToken(makeToken({ roles, profiles_limit: 0 }));
}

const rowOf = (name: string) =>
  within(screen.getByRole('table', { name: 'Credentials' }))
    .getByText(name)
    .closest('tr') as HTMLElement;

// The page's heading reads whether the server runs the demo.
beforeEach(() => {
  mockPublicConfig({ demo_mode: false });
});

describe('/credentials', () => {
  it('shows Access Denied to a USER and makes no credential calls', async () => {
    setToken(makeToken({ roles: ['USER'] }));
    renderApp('/credentials');
    expect(
      await screen.findByText(
        'Access Denied - This page is only accessible to administrators and moderators.',
      ),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to Dashboard' }).getAttribute('href')).toBe('/');
    const credentialsPath = credentialsEndpoints.list.path;
    expect(sentRequests().filter((r) => r.url.pathname.startsWith(credentialsPath))).toHaveLength(0);
  });

  it('lists the credentials for a moderator, with the count on the tab', async () => {
    signIn(['MODERATOR']);
    const list = mockEndpoint(
      credentialsEndpoints.list,
      listOf(() => [{ ...SEARCH, usage_stats: { ...SEARCH.usage_stats, active_clients: 1 } }, SEND]),
    );
    renderApp('/credentials');
    const table = await screen.findByRole('table', { name: 'Credentials' });
    expect(screen.getByRole('tab', { name: 'Credentials (1)' })).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Proxy Pool' })).toBeTruthy();
    const row = within(table).getByText('search_bot').closest('tr') as HTMLElement;
    expect(within(row).getByText('aaaaaaaa')).toBeTruthy();
    expect(within(row).getByText('Search')).toBeTruthy();
    expect(within(row).getByText('Random')).toBeTruthy();
    expect(within(row).getByText('37 requests')).toBeTruthy();
    expect(within(row).getByText('1 active client')).toBeTruthy();
    expect(within(row).getByText('Never')).toBeTruthy();
    expect(within(row).getByText('Enabled')).toBeTruthy();
    for (const action of ['Details', 'Edit', 'Disable', 'Delete']) {
      expect(within(row).getByRole('button', { name: action })).toBeTruthy();
    }
    expect(within(table).queryByText('send_app')).toBeNull();

    const query = list.calls[0]!.url.searchParams;
    expect(query.get('include_disabled')).toBe('false');
    expect(query.has('credential_type')).toBe(false);
    expect(query.get('limit')).toBe('20');
    expect(query.get('offset')).toBe('0');
    // The Proxy Pool tab loads only when it is opened.
    const statsPath = credentialsEndpoints.proxyPoolStats.path;
    expect(sentRequests().filter((r) => r.url.pathname === statsPath)).toHaveLength(0);
  });

  it('ends long account names and proxy places in an ellipsis, with the full text on hover', async () => {
    signIn(['ADMIN']);
    const city = 'São José dos Campos Santo Antônio do Descoberto X';
    const name = `search_bot_${'x'.repeat(80)}`;
    mockEndpoint(
      credentialsEndpoints.list,
      listOf(() => [
        buildCredential({
          id: 'cccccccc-3333-4333-8333-333333333333',
          account_name: name,
          proxy_preferences: { country: 'BR', state: 'São Paulo', city },
        }),
      ]),
    );
    renderApp('/credentials');
    const table = await screen.findByRole('table', { name: 'Credentials' });
    const place = within(table).getByText(`BR, São Paulo, ${city}`);
    expect(place.getAttribute('title')).toBe(`BR, São Paulo, ${city}`);
    expect(place.getAttribute('data-truncate')).toBe('end');
    const account = within(table).getByText(name);
    expect(account.getAttribute('title')).toBe(name);
    expect(account.getAttribute('data-truncate')).toBe('end');
    // The type and status badges keep their full width, so Search and Send stay apart.
    for (const text of ['Search', 'Enabled']) {
      const badge = within(table).getByText(text).closest('.mantine-Badge-root') as HTMLElement;
      expect(badge.style.minWidth).toBe('max-content');
    }
  });

  it('filters by type and includes disabled credentials on request', async () => {
    signIn(['ADMIN']);
    const list = mockEndpoint(
      credentialsEndpoints.list,
      listOf(() => [SEARCH, SEND]),
    );
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
    const last = list.calls.at(-1)!.url.searchParams;
    expect(last.get('credential_type')).toBe('send');
    expect(last.get('include_disabled')).toBe('true');

    await userEvent.selectOptions(screen.getByLabelText('Type'), 'All');
    await screen.findByText('search_bot');
    expect(list.calls.at(-1)!.url.searchParams.has('credential_type')).toBe(false);
  });

  it('disables a credential with PATCH ?enabled=false and no body', async () => {
    signIn(['ADMIN']);
    let rows = [SEARCH];
    mockEndpoint(
      credentialsEndpoints.list,
      listOf(() => rows),
    );
    const toggle = mockEndpoint(credentialsEndpoints.setEnabled, ({ query }) => {
      rows = [{ ...SEARCH, enabled: query.enabled }];
      return rows[0]!;
    });
    renderApp('/credentials');
    await screen.findByText('search_bot');
    // The only enabled search credential: every customer's search stops with it, so it asks first.
    await userEvent.click(within(rowOf('search_bot')).getByRole('button', { name: 'Disable' }));
    expect(within(rowOf('search_bot')).getByText(LAST_SEARCH_CREDENTIAL_QUESTION)).toBeTruthy();
    await userEvent.click(within(rowOf('search_bot')).getByRole('button', { name: 'Keep enabled' }));
    expect(toggle.calls).toHaveLength(0);
    await userEvent.click(within(rowOf('search_bot')).getByRole('button', { name: 'Disable' }));
    await userEvent.click(within(rowOf('search_bot')).getByRole('button', { name: 'Disable' }));
    expect(await screen.findByText('Credential disabled')).toBeTruthy();
    const sent = toggle.calls[0]!;
    expect(sent.params.id).toBe(SEARCH.id);
    expect(sent.url.searchParams.get('enabled')).toBe('false');
    expect(sent.rawBody).toBeUndefined();
    // Without 'Include Disabled' it leaves the list; with it, it shows as Disabled.
    await waitFor(() => expect(screen.queryByRole('table', { name: 'Credentials' })).toBeNull());
    await userEvent.click(screen.getByRole('checkbox', { name: 'Include Disabled' }));
    expect(await within(await waitFor(() => rowOf('search_bot'))).findByText('Disabled')).toBeTruthy();
  });

  it('disables a search credential at once while another search credential is enabled', async () => {
    signIn(['ADMIN']);
    const other = { ...SEARCH, id: '00000000-0000-4000-8000-0000000000aa', account_name: 'search_two' };
    mockEndpoint(
      credentialsEndpoints.list,
      listOf(() => [SEARCH, other]),
    );
    const toggle = mockEndpoint(credentialsEndpoints.setEnabled, ({ query }) => ({
      ...SEARCH,
      enabled: query.enabled,
    }));
    renderApp('/credentials');
    await screen.findByText('search_bot');
    await userEvent.click(within(rowOf('search_bot')).getByRole('button', { name: 'Disable' }));
    expect(await screen.findByText('Credential disabled')).toBeTruthy();
    expect(toggle.calls).toHaveLength(1);
    expect(screen.queryByText(LAST_SEARCH_CREDENTIAL_QUESTION)).toBeNull();
  });

  it("shows 'Failed to toggle credential: …' when the toggle fails", async () => {
    signIn(['ADMIN']);
    mockEndpoint(
      credentialsEndpoints.list,
      listOf(() => [SEARCH]),
    );
    mockEndpoint(credentialsEndpoints.setEnabled, errorReply(404, 'Credential not found', 'x'));
    renderApp('/credentials');
    await screen.findByText('search_bot');
    await disable(rowOf('search_bot'));
    expect(await screen.findByText('Failed to toggle credential: Credential not found')).toBeTruthy();
  });

  describe('a credential deleted elsewhere (the server answers 404)', () => {
    /** The list holds search_bot until it is gone; each action on it then answers 404. */
    function goneElsewhere() {
      let rows = [SEARCH];
      const list = mockEndpoint(
        credentialsEndpoints.list,
        listOf(() => rows),
      );
      const gone = () => {
        rows = [];
        return errorReply(404, 'Credential not found', 'not_found');
      };
      mockEndpoint(credentialsEndpoints.setEnabled, gone);
      mockEndpoint(credentialsEndpoints.update, gone);
      const remove = mockEndpoint(credentialsEndpoints.delete, gone);
      return { list, remove };
    }

    it('Disable says so and the row leaves the list', async () => {
      signIn(['ADMIN']);
      const { list } = goneElsewhere();
      renderApp('/credentials');
      await screen.findByText('search_bot');
      const loads = list.calls.length;
      await disable(rowOf('search_bot'));
      expect(await screen.findByText('Failed to toggle credential: Credential not found')).toBeTruthy();
      await waitFor(() => expect(screen.queryByRole('table', { name: 'Credentials' })).toBeNull());
      expect(list.calls.length).toBeGreaterThan(loads);
      expect(screen.getByText('No credentials found.')).toBeTruthy();
    });

    it('Edit, Save says so and the row leaves the list', async () => {
      signIn(['ADMIN']);
      goneElsewhere();
      renderApp('/credentials');
      await screen.findByText('search_bot');
      await userEvent.click(within(rowOf('search_bot')).getByRole('button', { name: 'Edit' }));
      const dialog = await screen.findByRole('dialog', { name: 'Edit Credential' });
      await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
      expect(
        await within(dialog).findByText('Failed to update credential: Credential not found'),
      ).toBeTruthy();
      await waitFor(() => expect(screen.queryByRole('table', { name: 'Credentials' })).toBeNull());
    });

    it('Delete closes its dialog, says so, and the row leaves the list', async () => {
      signIn(['ADMIN']);
      const { remove } = goneElsewhere();
      renderApp('/credentials');
      await screen.findByText('search_bot');
      await userEvent.click(within(rowOf('search_bot')).getByRole('button', { name: 'Delete' }));
      const dialog = await screen.findByRole('dialog', { name: 'Delete Credential' });
      await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
      expect(await screen.findByText('Failed to delete credential: Credential not found')).toBeTruthy();
      await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Delete Credential' })).toBeNull());
      await waitFor(() => expect(screen.queryByRole('table', { name: 'Credentials' })).toBeNull());
      expect(screen.getByRole('tab', { name: 'Credentials (0)' })).toBeTruthy();
      expect(remove.calls).toHaveLength(1);
    });
  });

  it('says, before deleting a send credential, how many connected accounts sign in through it, and offers no Delete', async () => {
    signIn(['ADMIN']);
    const inUse = { ...SEND, enabled: true, usage_stats: { ...SEND.usage_stats, connected_accounts: 3 } };
    mockEndpoint(
      credentialsEndpoints.list,
      listOf(() => [inUse]),
    );
    renderApp('/credentials');
    await screen.findByText('send_app');
    await userEvent.click(within(rowOf('send_app')).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Credential' });
    expect(
      within(dialog).getByText(
        '3 connected Reddit accounts sign in through it, so it cannot be deleted: they would have to be re-authenticated. Disable it instead: they keep working and no new accounts connect through it.',
      ),
    ).toBeTruthy();
    const confirm = within(dialog).getByRole('button', { name: 'Delete' });
    expect((confirm as HTMLButtonElement).disabled).toBe(true);
    // Cancel still closes it.
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Delete Credential' })).toBeNull());
  });

  it("shows the server's refusal to delete a credential accounts sign in through, and keeps it", async () => {
    signIn(['ADMIN']);
    const refusal =
      '1 connected Reddit account signs in through this credential and would have to be re-authenticated ' +
      'if it were deleted. Disable it instead: connected accounts keep working and no new accounts ' +
      'connect through it.';
    // The list was loaded before the account connected: it still says no account uses the credential.
    const send = { ...SEND, enabled: true };
    mockEndpoint(
      credentialsEndpoints.list,
      listOf(() => [send]),
    );
    const remove = mockEndpoint(credentialsEndpoints.delete, errorReply(409, refusal, 'credential_in_use'));
    renderApp('/credentials');
    await screen.findByText('send_app');
    await userEvent.click(within(rowOf('send_app')).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Credential' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      `Failed to delete credential: ${refusal}`,
    );
    // The dialog stays open with its answer, and the credential stays in the list.
    expect(screen.getByRole('dialog', { name: 'Delete Credential' })).toBeTruthy();
    expect(screen.queryByText('Credential deleted')).toBeNull();
    expect(rowOf('send_app')).toBeTruthy();
    expect(remove.calls).toHaveLength(1);
  });

  it('asks before deleting, then deletes', async () => {
    signIn(['ADMIN']);
    let rows = [SEARCH];
    mockEndpoint(
      credentialsEndpoints.list,
      listOf(() => rows),
    );
    const remove = mockEndpoint(credentialsEndpoints.delete, () => {
      rows = [];
    });
    renderApp('/credentials');
    await screen.findByText('search_bot');
    await userEvent.click(within(rowOf('search_bot')).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Credential' });
    expect(within(dialog).getByText('Are you sure you want to delete this credential?')).toBeTruthy();
    // No account signed in through a search credential: nothing more to say.
    expect(within(dialog).queryByText(/connected Reddit account/)).toBeNull();

    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(remove.calls).toHaveLength(0);

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
    mockEndpoint(
      credentialsEndpoints.list,
      listOf(() => [SEARCH]),
    );
    mockEndpoint(credentialsEndpoints.delete, errorReply(409, 'Credential is in use', 'conflict'));
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
    mockEndpoint(credentialsEndpoints.list, errorReply(400, 'limit must be at most 500', 'bad_request'));
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
    const list = mockEndpoint(
      credentialsEndpoints.list,
      listOf(() => many),
    );
    renderApp('/credentials');
    await screen.findByText('bot_0');
    expect(screen.getByRole('tab', { name: 'Credentials (45)' })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Page 3' }));
    expect(await screen.findByText('bot_40')).toBeTruthy();
    expect(screen.queryByText('bot_0')).toBeNull();
    expect(list.calls.at(-1)!.query.offset).toBe(40);
  });

  it('opens Edit from the table and the Proxy Pool tab', async () => {
    signIn(['ADMIN']);
    mockEndpoint(
      credentialsEndpoints.list,
      listOf(() => [SEARCH]),
    );
    mockEndpoint(credentialsEndpoints.proxyPoolStats, buildPoolStats());
    mockEndpoint(credentialsEndpoints.proxyPoolDetails, page([]));
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
