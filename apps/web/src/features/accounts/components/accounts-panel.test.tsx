import { beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  ACCOUNT_TOO_YOUNG,
  DEFAULT_ACCOUNT_SETTINGS,
  accountsEndpoints,
  redditAuthEndpoints,
} from '@threadreach/contract';
import { accountList, buildConnectedAccount } from '../../../test/accounts.test-support';
import { errorReply, mockEndpoint } from '../../../test/api-mock.test-support';
import { PROJECT_ID, renderScreen } from '../../../test/discovery.test-support';
import { recordPageLoads } from '../../../test/navigation.test-support';
import { AccountsPanel, OFF_HOURS_TEXT, SEND_GOES_NOW } from './accounts-panel';

const user = userEvent.setup({ delay: null });
let pageLoads: ReturnType<typeof recordPageLoads>;
beforeEach(() => {
  pageLoads = recordPageLoads();
});
const AUTH_URL = 'https://www.reddit.com/api/v1/authorize?client_id=x&state=s';

function renderPanel(props: { readOnly?: boolean; projectId?: string | null } = {}) {
  renderScreen(
    <AccountsPanel
      projectId={props.projectId === undefined ? PROJECT_ID : props.projectId}
      readOnly={props.readOnly ?? false}
    />,
  );
}

const row = (username: string) => screen.findByTestId(`account-${username}`);

describe('connected accounts panel', { timeout: 15_000 }, () => {
  it('lists each account with its readiness and what it has left today', async () => {
    const waitUntil = new Date(Date.now() + 125_000).toISOString();
    mockEndpoint(
      accountsEndpoints.list,
      accountList([
        buildConnectedAccount({
          reddit_username: 'ready_one',
          account_display_name: 'u/ready_one',
          remaining_today: 7,
        }),
        buildConnectedAccount({
          reddit_username: 'expired_one',
          account_display_name: 'u/expired_one',
          auth_status: 'expired',
          capacity: { tokens_expired: true, can_send_now: false },
        }),
        buildConnectedAccount({
          reddit_username: 'spent_one',
          account_display_name: 'u/spent_one',
          remaining_today: 0,
          capacity: { can_send_now: false, reason: 'Daily limit reached: it sends again tomorrow.' },
        }),
        buildConnectedAccount({
          reddit_username: 'young_one',
          account_display_name: 'u/young_one',
          account_age_days: 3,
          remaining_today: 0,
          capacity: { can_send_now: false, reason: ACCOUNT_TOO_YOUNG },
        }),
        buildConnectedAccount({
          reddit_username: 'suspended_one',
          account_display_name: 'u/suspended_one',
          disabled_reason: 'Reddit has suspended this account.',
          remaining_today: 0,
          capacity: {
            remaining_capacity: 0,
            can_send_now: false,
            reason: 'Reddit has suspended this account.',
          },
        }),
        buildConnectedAccount({
          reddit_username: 'paced_one',
          account_display_name: 'u/paced_one',
          remaining_today: 4,
          capacity: {
            can_send_now: false,
            next_available_at: waitUntil,
            reason: 'Waiting between messages.',
          },
        }),
      ]),
    );
    renderPanel();
    expect(screen.getByText('Each connected account sends up to 10 messages per day.')).toBeTruthy();

    const ready = await row('ready_one');
    expect(within(ready).getByText('u/ready_one')).toBeTruthy();
    expect(within(ready).getByLabelText('Status: Ready')).toBeTruthy();
    expect(within(ready).getByText('7/10')).toBeTruthy();
    expect(within(ready).queryByRole('button', { name: 'Re-authenticate' })).toBeNull();

    const expired = await row('expired_one');
    expect(within(expired).getByLabelText('Status: Auth Required')).toBeTruthy();
    expect(within(expired).getByRole('button', { name: 'Re-authenticate' })).toBeTruthy();

    expect(within(await row('spent_one')).getByLabelText('Status: Limit Reached')).toBeTruthy();
    const young = await row('young_one');
    expect(within(young).getByText(ACCOUNT_TOO_YOUNG)).toBeTruthy();
    expect(within(young).getByText('3 days old · 4650 karma')).toBeTruthy();
    // Too young or suspended: no daily limit was reached, and nothing can go today.
    expect(within(young).getByLabelText('Status: Authenticated')).toBeTruthy();
    expect(within(young).getByText('0/10')).toBeTruthy();
    const suspended = await row('suspended_one');
    expect(within(suspended).getByLabelText('Status: Authenticated')).toBeTruthy();
    expect(within(suspended).getByText('Reddit has suspended this account.')).toBeTruthy();
    expect(within(suspended).getByText('0/10')).toBeTruthy();

    const paced = await row('paced_one');
    const badge = within(paced).getByLabelText(/^Status: can send in \d\d:\d\d$/);
    // A countdown from 02:05, however long the lines above took on a busy machine.
    const [minutes, seconds] = badge.textContent!.split(':').map(Number);
    const left = minutes! * 60 + seconds!;
    expect(left).toBeLessThanOrEqual(125);
    expect(left).toBeGreaterThan(60);
    // Its pacing holds a DM sent with Send too.
    expect(within(paced).queryByText(SEND_GOES_NOW)).toBeNull();
  });

  /** The panel with one account outside working hours for `waitMs` more, `queued` DMs queued from it. */
  async function offHoursAccount(waitMs: number, queued: number) {
    const nextAvailable = new Date(Date.now() + waitMs).toISOString();
    mockEndpoint(
      accountsEndpoints.list,
      accountList([
        buildConnectedAccount({
          reddit_username: 'weekend_one',
          account_display_name: 'u/weekend_one',
          queued_sends: queued,
          capacity: {
            can_send_now: false,
            next_available_at: nextAvailable,
            reason: 'Outside working hours.',
          },
        }),
      ]),
    );
    renderPanel();
    return row('weekend_one');
  }

  it('outside working hours, counts down to queued sends and says Send goes now', async () => {
    const weekend = await offHoursAccount(28 * 3600_000 + 50 * 60_000 + 9_000, 2);
    const badge = within(weekend).getByLabelText(/^Status: queued sends in 28:50:\d\d$/);
    expect(badge.textContent).toMatch(/^Queued sends in 28:50:\d\d$/);
    expect(within(weekend).getByText('Outside working hours.')).toBeTruthy();
    expect(within(weekend).getByText(SEND_GOES_NOW)).toBeTruthy();
  });

  it('outside working hours with nothing queued from the account, says so with no countdown to queued sends', async () => {
    const weekend = await offHoursAccount(15 * 3600_000 + 34 * 60_000 + 39_000, 0);
    expect(within(weekend).queryByText(/Queued sends/)).toBeNull();
    const badge = within(weekend).getByLabelText('Status: outside working hours');
    expect(badge.textContent).toBe(OFF_HOURS_TEXT);
    // When Send All and the agent would send from it, and that Send does not wait.
    expect(badge.getAttribute('title')).toMatch(
      /^Send All and the agent send from this account in 15:34:\d\d$/,
    );
    expect(within(weekend).getByText(SEND_GOES_NOW)).toBeTruthy();
  });

  it('says when there is no account yet, and refreshes on demand', async () => {
    const list = mockEndpoint(accountsEndpoints.list, accountList([]));
    renderPanel();
    expect(await screen.findByText(/No Reddit accounts connected yet/)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(list.calls).toHaveLength(2));
  });

  it("Connect account starts Reddit's sign-in for the project and goes to its consent page", async () => {
    mockEndpoint(accountsEndpoints.list, accountList([]));
    const login = mockEndpoint(redditAuthEndpoints.login, { auth_url: AUTH_URL });
    renderPanel();
    await user.click(await screen.findByRole('button', { name: 'Connect account' }));
    await waitFor(() => expect(pageLoads.assign).toHaveBeenCalledWith(AUTH_URL));
    expect(login.calls[0]!.query).toEqual({ project_id: PROJECT_ID, additional_account: true });
  });

  it('says why connecting failed', async () => {
    mockEndpoint(accountsEndpoints.list, accountList([]));
    mockEndpoint(
      redditAuthEndpoints.login,
      errorReply(503, 'Connecting Reddit accounts is not set up yet.', 'no_send_credential'),
    );
    renderPanel();
    await user.click(await screen.findByRole('button', { name: 'Connect account' }));
    expect(
      await screen.findByText('Error connecting to Reddit: Connecting Reddit accounts is not set up yet.'),
    ).toBeTruthy();
    expect(pageLoads.left).toEqual([]);
  });

  it('shows Limit Reached, disabled with the reason, at the limit', async () => {
    const reason =
      'Limit Reached: 3 of 3 Reddit accounts are connected across your projects. Upgrade your subscription to connect more.';
    mockEndpoint(
      accountsEndpoints.list,
      accountList([buildConnectedAccount()], { used: 3, blocked_reason: reason }),
    );
    const login = mockEndpoint(redditAuthEndpoints.login, { auth_url: AUTH_URL });
    renderPanel();
    const button = await screen.findByRole('button', { name: 'Limit Reached' });
    expect(button.getAttribute('aria-disabled')).toBe('true');
    expect(document.getElementById(button.getAttribute('aria-describedby')!)?.textContent).toBe(reason);
    await user.click(button);
    expect(login.calls).toHaveLength(0);
  });

  it('asks for a project first when there is none', async () => {
    renderPanel({ projectId: null });
    await user.click(screen.getByRole('button', { name: 'Connect account' }));
    expect(await screen.findByText('Please select a project first')).toBeTruthy();
  });

  it('re-authenticates an Auth Required account', async () => {
    const account = buildConnectedAccount({
      reddit_username: 'expired_one',
      capacity: { has_authentication: false, can_send_now: false },
    });
    mockEndpoint(accountsEndpoints.list, accountList([account]));
    const reauth = mockEndpoint(accountsEndpoints.reauthenticate, { auth_url: AUTH_URL });
    renderPanel();
    await user.click(within(await row('expired_one')).getByRole('button', { name: 'Re-authenticate' }));
    await waitFor(() => expect(pageLoads.assign).toHaveBeenCalledWith(AUTH_URL));
    expect(reauth.calls[0]!.params).toEqual({ projectId: PROJECT_ID, accountId: account.id });
  });

  it('removes an account after confirmation, and says when it fails', async () => {
    const account = buildConnectedAccount();
    let accounts = [account];
    mockEndpoint(accountsEndpoints.list, () => accountList(accounts));
    let fail = true;
    const remove = mockEndpoint(accountsEndpoints.remove, () => {
      if (fail) return errorReply(500, 'database down', 'internal');
      accounts = [];
      return undefined;
    });
    renderPanel();
    await user.click(within(await row('demo_founder')).getByRole('button', { name: 'Remove' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove Reddit account' });
    expect(within(dialog).getByText(/Remove u\/demo_founder\?/)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(await within(dialog).findByText('Error removing Reddit account')).toBeTruthy();

    fail = false;
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('u/demo_founder removed')).toBeTruthy();
    expect(await screen.findByText(/No Reddit accounts connected yet/)).toBeTruthy();
    expect(remove.calls.map((c) => c.params)).toEqual([
      { projectId: PROJECT_ID, accountId: account.id },
      { projectId: PROJECT_ID, accountId: account.id },
    ]);
  });

  it('lets READONLY users look but not connect, re-authenticate or remove', async () => {
    mockEndpoint(
      accountsEndpoints.list,
      accountList([buildConnectedAccount({ capacity: { tokens_expired: true, can_send_now: false } })]),
    );
    mockEndpoint(accountsEndpoints.getSettings, ({ params }) => ({
      account_id: params.accountId,
      ...DEFAULT_ACCOUNT_SETTINGS,
      working_days: [...DEFAULT_ACCOUNT_SETTINGS.working_days],
    }));
    renderPanel({ readOnly: true });
    const account = await row('demo_founder');
    expect(within(account).getByRole('button', { name: 'Re-authenticate' }).hasAttribute('disabled')).toBe(
      true,
    );
    expect(within(account).getByRole('button', { name: 'Remove' }).hasAttribute('disabled')).toBe(true);
    expect(screen.getByRole('button', { name: 'Connect account' }).getAttribute('aria-disabled')).toBe(
      'true',
    );
    await user.click(within(account).getByRole('button', { name: 'Settings' }));
    const dialog = await screen.findByRole('dialog', { name: /Settings of/ });
    expect(
      (await within(dialog).findByRole('button', { name: 'Save Settings' })).hasAttribute('disabled'),
    ).toBe(true);
  });
});

describe('account settings dialog', { timeout: 15_000 }, () => {
  async function openSettings() {
    const account = buildConnectedAccount();
    mockEndpoint(accountsEndpoints.list, accountList([account]));
    mockEndpoint(accountsEndpoints.getSettings, ({ params }) => ({
      account_id: params.accountId,
      ...DEFAULT_ACCOUNT_SETTINGS,
      working_days: [...DEFAULT_ACCOUNT_SETTINGS.working_days],
    }));
    renderPanel();
    await user.click(within(await row('demo_founder')).getByRole('button', { name: 'Settings' }));
    const dialog = await screen.findByRole('dialog', { name: 'Settings of u/demo_founder' });
    await within(dialog).findByRole('form', { name: 'Account settings' });
    return { account, dialog };
  }

  it('shows the settings and saves them', async () => {
    const { account, dialog } = await openSettings();
    const min = within(dialog).getByLabelText('Min delay (seconds)') as HTMLInputElement;
    expect(min.value).toBe('30');
    expect((within(dialog).getByLabelText('Max delay (seconds)') as HTMLInputElement).value).toBe('120');
    expect((within(dialog).getByLabelText('Working hours start') as HTMLSelectElement).value).toBe('9');
    const zone = within(dialog).getByLabelText('Timezone') as HTMLSelectElement;
    expect([...zone.options].map((o) => o.value)).toEqual([
      'UTC',
      'America/New_York',
      'America/Chicago',
      'America/Denver',
      'America/Los_Angeles',
      'Europe/London',
      'Europe/Berlin',
      'Asia/Tokyo',
    ]);
    expect((within(dialog).getByLabelText('Monday') as HTMLInputElement).checked).toBe(true);
    expect((within(dialog).getByLabelText('Sunday') as HTMLInputElement).checked).toBe(false);

    const save = mockEndpoint(accountsEndpoints.updateSettings, ({ params, body }) => ({
      account_id: params.accountId,
      ...DEFAULT_ACCOUNT_SETTINGS,
      working_days: [...DEFAULT_ACCOUNT_SETTINGS.working_days],
      ...body,
    }));
    const summary = within(dialog).getByTestId('working-hours-summary');
    expect(summary.textContent).toBe('Sends from 09:00 until 17:00.');
    await user.clear(min);
    await user.type(min, '45');
    await user.selectOptions(within(dialog).getByLabelText('Working hours end'), '9');
    expect(summary.textContent).toBe('Same start and end: sends at any hour of a working day.');
    await user.selectOptions(within(dialog).getByLabelText('Working hours end'), '6');
    expect(summary.textContent).toBe('Sends from 09:00 until 06:00 the next morning, overnight.');
    await user.selectOptions(within(dialog).getByLabelText('Working hours end'), '0');
    expect(summary.textContent).toBe('Sends from 09:00 until midnight.');
    await user.selectOptions(within(dialog).getByLabelText('Working hours end'), '18');
    expect(summary.textContent).toBe('Sends from 09:00 until 18:00.');
    await user.selectOptions(zone, 'Europe/Berlin');
    await user.click(within(dialog).getByLabelText('Sunday'));
    await user.click(within(dialog).getByLabelText('Monday'));
    await user.click(within(dialog).getByRole('button', { name: 'Save Settings' }));

    expect(await screen.findByText('Account settings saved')).toBeTruthy();
    expect(save.calls[0]!.params).toEqual({ accountId: account.id });
    expect(save.calls[0]!.rawBody).toEqual({
      delay_range_min: 45,
      delay_range_max: 120,
      working_days: [2, 3, 4, 5, 7],
      working_hours_start: 9,
      working_hours_end: 18,
      timezone: 'Europe/Berlin',
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('refuses values outside the bounds before sending anything', async () => {
    const { dialog } = await openSettings();
    const save = mockEndpoint(accountsEndpoints.updateSettings, errorReply(500, 'unexpected', 'x'));
    const min = within(dialog).getByLabelText('Min delay (seconds)');
    await user.clear(min);
    await user.type(min, '5');
    const max = within(dialog).getByLabelText('Max delay (seconds)');
    await user.clear(max);
    await user.type(max, '4000');
    await user.click(within(dialog).getByRole('button', { name: 'Save Settings' }));
    expect(await within(dialog).findByText('Min delay must be between 10 and 3600 seconds')).toBeTruthy();
    expect(within(dialog).getByText('Max delay must be between 10 and 3600 seconds')).toBeTruthy();

    await user.clear(min);
    await user.type(min, '300');
    await user.clear(max);
    await user.type(max, '60');
    await user.click(within(dialog).getByRole('button', { name: 'Save Settings' }));
    expect(await within(dialog).findByText('Min delay must not be greater than max delay')).toBeTruthy();

    await user.clear(max);
    await user.type(max, '600');
    for (const day of ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday']) {
      await user.click(within(dialog).getByLabelText(day));
    }
    await user.click(within(dialog).getByRole('button', { name: 'Save Settings' }));
    expect(await within(dialog).findByText('Select at least one working day')).toBeTruthy();
    expect(save.calls).toHaveLength(0);
  });

  it("says 'Failed to save account settings' when the server refuses", async () => {
    const { dialog } = await openSettings();
    mockEndpoint(
      accountsEndpoints.updateSettings,
      errorReply(400, 'delay_range_min must not be greater than delay_range_max', 'invalid_settings'),
    );
    await user.click(within(dialog).getByRole('button', { name: 'Save Settings' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert.textContent).toContain('Failed to save account settings');
    expect(alert.textContent).toContain('delay_range_min must not be greater than delay_range_max');
  });
});
