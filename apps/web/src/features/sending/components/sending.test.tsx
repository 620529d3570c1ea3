import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  accountsEndpoints,
  AGENT_TEXTS,
  dmsEndpoints,
  doNotContactEndpoints,
  historyEndpoints,
  leadsEndpoints,
  OUTSIDE_WORKING_HOURS_REASON,
  projectsEndpoints,
  searchEndpoints,
  SENDING_TEXTS,
  sendingEndpoints,
  type TConnectedAccount,
  type TDmMessage,
  type TSendingStatus,
} from '@threadreach/contract';
import { errorReply, mockEndpoint, type TMockHandler } from '../../../test/api-mock.test-support';
import { accountList, buildConnectedAccount } from '../../../test/accounts.test-support';
import { mockAgentAtRest } from '../../../test/agent.test-support';
import {
  advance,
  buildDm,
  buildProject,
  buildSendingItem,
  dmGenerationStatus,
  dmPage,
  page,
  PROJECT_ID,
  renderScreen,
  searchStatus,
  sendingStatus,
} from '../../../test/discovery.test-support';
import { buildCampaignStatistics } from '../../history/history.test-support';
import { AccountsPanel } from '../../accounts';
import { LeadsStep } from '../../leads';
import { SENDING_STATUS_REFRESH_MS } from '../hooks/use-sending';
import {
  ALL_ACCOUNTS_TOO_YOUNG,
  NOTHING_READY_TO_SEND,
  SAVE_BEFORE_SENDING_ALL,
  sendAllQuestion,
  stopSendingQuestion,
} from '../sending-texts';
import { SendingStatusPanel } from './sending-status-panel';

const user = userEvent.setup({ delay: null });

const outsideHours = (account: TConnectedAccount): TConnectedAccount => ({
  ...account,
  capacity: { ...account.capacity, can_send_now: false, reason: OUTSIDE_WORKING_HOURS_REASON },
});

/** Step 4 with these DMs and this sending status; returns the mocks that count calls. */
function renderStep4(
  dms: TDmMessage[],
  status: TSendingStatus | TMockHandler<typeof sendingEndpoints.status> = sendingStatus(),
  accounts: TConnectedAccount[] = [],
  options: { withAccountsPanel?: boolean } = {},
) {
  mockEndpoint(projectsEndpoints.list, page([buildProject()], 1, 500));
  const accountReads = mockEndpoint(accountsEndpoints.list, accountList(accounts));
  const posts = mockEndpoint(leadsEndpoints.posts, page([]));
  mockEndpoint(leadsEndpoints.comments, page([]));
  mockEndpoint(leadsEndpoints.profiles, page([]));
  mockEndpoint(searchEndpoints.enhancedStatus, searchStatus());
  mockEndpoint(dmsEndpoints.generateAllStatus, dmGenerationStatus());
  const statistics = mockEndpoint(historyEndpoints.campaignStatistics, buildCampaignStatistics());
  const list = mockEndpoint(dmsEndpoints.list, dmPage(dms));
  const statusCalls = mockEndpoint(sendingEndpoints.status, status);
  const agent = mockAgentAtRest();
  renderScreen(
    <>
      {options.withAccountsPanel && <AccountsPanel projectId={PROJECT_ID} readOnly={false} />}
      <LeadsStep projectId={PROJECT_ID} readOnly={false} />
    </>,
  );
  return { list, statusCalls, agent, posts, accountReads, statistics };
}

const dmRow = (name: string) => screen.findByRole('article', { name: `DM to u/${name}` });

/** Send All DMs, then the answer to its question. */
async function sendAll() {
  await user.click(await screen.findByRole('button', { name: 'Send All DMs' }));
  await user.click(await screen.findByRole('button', { name: 'Send all' }));
}

describe('Send on a DM', { timeout: 15_000 }, () => {
  it('sends it now and says Sent to u/…; the DM list, the leads and the sending status reload', async () => {
    const dm = buildDm({ recipient_username: 'alice' });
    const { list, statusCalls, posts } = renderStep4([dm]);
    const send = mockEndpoint(sendingEndpoints.sendOne, {
      recipient: 'alice',
      dm_id: dm.id,
      state: 'sent',
      account: 'demo_founder',
      scheduled_for: null,
      message: 'Sent to u/alice',
    });
    const item = await dmRow('alice');
    const listed = list.calls.length;
    const statused = statusCalls.calls.length;
    const leadsListed = posts.calls.length;
    await user.click(within(item).getByRole('button', { name: 'Send' }));
    expect(await screen.findByText(SENDING_TEXTS.sentTo('alice'))).toBeTruthy();
    expect(send.calls[0]!.rawBody).toEqual({
      project_id: PROJECT_ID,
      post_id: dm.reddit_post_id,
      dm_id: dm.id,
    });
    await waitFor(() => expect(list.calls.length).toBeGreaterThan(listed));
    await waitFor(() => expect(statusCalls.calls.length).toBeGreaterThan(statused));
    // The person is contacted now: the lists of leads leave them out.
    await waitFor(() => expect(posts.calls.length).toBeGreaterThan(leadsListed));
  });

  it("shows the server's reason for a refusal, and 'Error sending DM message' without one", async () => {
    const dm = buildDm({ recipient_username: 'bob' });
    renderStep4([dm]);
    const reason = 'u/bob was already contacted from this workspace';
    mockEndpoint(sendingEndpoints.sendOne, errorReply(409, reason, 'already_contacted'));
    const item = await dmRow('bob');
    await user.click(within(item).getByRole('button', { name: 'Send' }));
    expect(await screen.findByText(reason)).toBeTruthy();

    mockEndpoint(sendingEndpoints.sendOne, errorReply(500, 'Internal server error', 'internal'));
    await user.click(within(item).getByRole('button', { name: 'Send' }));
    expect(await screen.findByText(SENDING_TEXTS.sendFailed)).toBeTruthy();
  });

  it('brings Connect account into view and focus when refused for want of an account', async () => {
    const scrolled: Element[] = [];
    vi.spyOn(window.HTMLElement.prototype, 'scrollIntoView').mockImplementation(function (this: Element) {
      scrolled.push(this);
    });
    renderStep4([buildDm({ recipient_username: 'erin' })], sendingStatus(), [], { withAccountsPanel: true });
    const connect = await screen.findByRole('button', { name: 'Connect account' });
    mockEndpoint(sendingEndpoints.sendOne, errorReply(422, SENDING_TEXTS.noAccounts, 'no_accounts'));
    await user.click(within(await dmRow('erin')).getByRole('button', { name: 'Send' }));
    expect(await screen.findByText(SENDING_TEXTS.noAccounts)).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(connect));
    expect(scrolled).toEqual([connect]);

    // Any other refusal leaves the page where it is.
    connect.blur();
    mockEndpoint(
      sendingEndpoints.sendOne,
      errorReply(409, 'u/erin was already contacted', 'already_contacted'),
    );
    await user.click(within(await dmRow('erin')).getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('u/erin was already contacted')).toBeTruthy();
    expect(document.activeElement).not.toBe(connect);
    expect(scrolled).toHaveLength(1);
  });

  it('says the agent runs when the server refuses for it (started in another tab), and reads the agent again', async () => {
    const dm = buildDm({ recipient_username: 'dora' });
    const { agent } = renderStep4([dm]);
    mockEndpoint(sendingEndpoints.sendOne, errorReply(409, AGENT_TEXTS.stopAgentToSend, 'agent_running'));
    const item = await dmRow('dora');
    await waitFor(() => expect(agent.settings.calls.length).toBeGreaterThan(0));
    const read = agent.settings.calls.length;
    await user.click(within(item).getByRole('button', { name: 'Send' }));
    expect(await screen.findByText(AGENT_TEXTS.stopAgentToSend)).toBeTruthy();
    await waitFor(() => expect(agent.settings.calls.length).toBeGreaterThan(read));
  });

  it('says when the DM did not go at once: queued for a wait Reddit asked for', async () => {
    const dm = buildDm({ recipient_username: 'carol' });
    renderStep4([dm]);
    const message =
      'Reddit asked u/demo_founder to wait. The DM to u/carol is queued for 2030-01-01 10:00 UTC.';
    mockEndpoint(sendingEndpoints.sendOne, {
      recipient: 'carol',
      dm_id: dm.id,
      state: 'queued',
      account: 'demo_founder',
      scheduled_for: '2030-01-01T10:00:00Z',
      message,
    });
    await user.click(within(await dmRow('carol')).getByRole('button', { name: 'Send' }));
    expect(await screen.findByText(message)).toBeTruthy();
    expect(screen.queryByText(SENDING_TEXTS.sentTo('carol'))).toBeNull();
  });

  it('turns Send off for a person added to the do-not-contact list, once the list is closed', async () => {
    const dm = buildDm({ recipient_username: 'changed_mind' });
    renderStep4([dm]);
    mockEndpoint(doNotContactEndpoints.list, page([]));
    const item = await dmRow('changed_mind');
    expect(within(item).getByRole('button', { name: 'Send' }).hasAttribute('disabled')).toBe(false);
    const detail = "u/changed_mind is on this workspace's do-not-contact list (added by hand)";
    mockEndpoint(dmsEndpoints.list, dmPage([{ ...dm, do_not_contact: { reason: 'manual', detail } }]));
    await user.click(screen.getByRole('button', { name: 'Do-not-contact list' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Close' }));
    expect(await within(item).findByText(detail)).toBeTruthy();
    expect(within(item).getByRole('button', { name: 'Send' }).hasAttribute('disabled')).toBe(true);
  });
});

describe('Send All DMs', { timeout: 15_000 }, () => {
  it('sits beside Generate All DMs and shows how many were queued and when', async () => {
    renderStep4([buildDm()]);
    const message =
      'Queued 12 DMs over 2 accounts: the first goes at 2030-01-02 14:00 UTC, the last at 2030-01-03 16:10 UTC.';
    const bulk = mockEndpoint(sendingEndpoints.sendBulk, {
      message,
      queued: 12,
      skipped: 0,
      first_at: '2030-01-02T14:00:00Z',
      last_at: '2030-01-03T16:10:00Z',
      accounts: [],
    });
    const button = await screen.findByRole('button', { name: 'Send All DMs' });
    const generate = screen.getByRole('button', { name: 'Generate All DMs' });
    expect(button.parentElement).toBe(generate.parentElement);
    await user.click(button);
    expect(await screen.findByRole('button', { name: 'Send all' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Send all' }));
    expect(await screen.findByText(message)).toBeTruthy();
    expect(bulk.calls[0]!.rawBody).toEqual({ project_id: PROJECT_ID });
    expect(await screen.findByRole('button', { name: 'Send All DMs' })).toBeTruthy();
  });

  it('says in its question how many the accounts can still send today, when that is fewer', async () => {
    renderStep4(
      [buildDm({ recipient_username: 'amy' }), buildDm({ recipient_username: 'ben' })],
      sendingStatus(),
      [
        buildConnectedAccount({ remaining_today: 1 }),
        // One that must sign in again sends nothing today, whatever it has left...
        buildConnectedAccount({ remaining_today: 5, auth_status: 'expired' }),
        // ...and one outside its working hours sends nothing now.
        outsideHours(buildConnectedAccount({ remaining_today: 7 })),
      ],
    );
    await user.click(await screen.findByRole('button', { name: 'Send All DMs' }));
    expect(
      await screen.findByText(
        "Send 2 DMs not sent yet? They leave one at a time from your Reddit accounts, within each account's working hours and daily limit: your accounts in their working hours now have room for 1 more DM today, the rest go on later days, and any that would expire first stay unsent.",
      ),
    ).toBeTruthy();
  });

  it('says so when no account can send now, as on a weekend outside working hours', async () => {
    renderStep4([buildDm({ recipient_username: 'amy' })], sendingStatus(), [
      outsideHours(buildConnectedAccount({ remaining_today: 10 })),
    ]);
    await user.click(await screen.findByRole('button', { name: 'Send All DMs' }));
    expect(await screen.findByText(/none of your accounts can send now/)).toBeTruthy();
  });

  it('waits, saying why, while every account is too young to send', async () => {
    renderStep4([buildDm({ recipient_username: 'amy' })], sendingStatus(), [
      buildConnectedAccount({ remaining_today: 0, account_age_days: 2 }),
    ]);
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Send All DMs' }).hasAttribute('disabled')).toBe(true),
    );
    await user.hover(screen.getByRole('button', { name: 'Send All DMs' }).parentElement!);
    expect(await screen.findByRole('tooltip', { name: ALL_ACCOUNTS_TOO_YOUNG })).toBeTruthy();
  });

  it('asks first, saying how many DMs will go; Not now sends nothing', async () => {
    renderStep4([
      buildDm({ recipient_username: 'amy' }),
      buildDm({ recipient_username: 'ben' }),
      buildDm({ recipient_username: 'cid', state: 'sent' }),
    ]);
    const bulk = mockEndpoint(sendingEndpoints.sendBulk, {
      message: 'Queued 2 DMs over 1 account.',
      queued: 2,
      skipped: 0,
      first_at: '2030-01-02T14:00:00Z',
      last_at: '2030-01-02T14:09:00Z',
      accounts: [],
    });
    await user.click(await screen.findByRole('button', { name: 'Send All DMs' }));
    expect(
      screen.getByText(
        "Send 2 DMs not sent yet? They leave one at a time from your Reddit accounts, within each account's working hours and daily limit.",
      ),
    ).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Not now' }));
    expect(screen.queryByText(sendAllQuestion(2))).toBeNull();
    expect(bulk.calls).toHaveLength(0);
    await sendAll();
    expect(await screen.findByText('Queued 2 DMs over 1 account.')).toBeTruthy();
    expect(bulk.calls).toHaveLength(1);
  });

  it('is off, saying why, when the DM list counts none ready to send', async () => {
    renderStep4([
      buildDm({ recipient_username: 'dee', state: 'sent' }),
      // Approved, but about a lead too old: Send All would leave it, so the list does not count it.
      buildDm({
        recipient_username: 'old_lead',
        lead_expired: { detail: 'This DM expired with its lead and can no longer be sent' },
      }),
    ]);
    const bulk = mockEndpoint(sendingEndpoints.sendBulk, {
      message: 'No DM was queued.',
      queued: 0,
      skipped: 0,
      first_at: null,
      last_at: null,
      accounts: [],
    });
    await dmRow('dee');
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Send All DMs' }).hasAttribute('disabled')).toBe(true),
    );
    const button = screen.getByRole('button', { name: 'Send All DMs' });
    await user.click(button);
    await user.hover(button.parentElement!);
    expect(await screen.findByRole('tooltip', { name: NOTHING_READY_TO_SEND })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Send all' })).toBeNull();
    expect(bulk.calls).toHaveLength(0);
  });

  it('shows the spec texts as they are, and Error sending bulk DMs: {reason} otherwise', async () => {
    renderStep4([buildDm()], sendingStatus(), [], { withAccountsPanel: true });
    mockEndpoint(sendingEndpoints.sendBulk, errorReply(422, SENDING_TEXTS.noAccountsBulk, 'no_accounts'));
    await sendAll();
    expect(await screen.findByText(SENDING_TEXTS.noAccountsBulk)).toBeTruthy();
    // No account: Connect account is where the person goes next.
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Connect account' })),
    );

    mockEndpoint(
      sendingEndpoints.sendBulk,
      errorReply(422, SENDING_TEXTS.noUnsentMessages, 'no_unsent_messages'),
    );
    await sendAll();
    expect(await screen.findByText(SENDING_TEXTS.noUnsentMessages)).toBeTruthy();

    mockEndpoint(
      sendingEndpoints.sendBulk,
      errorReply(422, SENDING_TEXTS.accountTooYoung, 'account_too_young'),
    );
    await sendAll();
    expect(await screen.findByText(SENDING_TEXTS.bulkFailed(SENDING_TEXTS.accountTooYoung))).toBeTruthy();
  });

  it('says the agent runs when the server refuses for it (started in another tab), and reads the agent again', async () => {
    const { agent } = renderStep4([buildDm()]);
    mockEndpoint(sendingEndpoints.sendBulk, errorReply(409, AGENT_TEXTS.stopAgentToSend, 'agent_running'));
    await waitFor(() => expect(agent.settings.calls.length).toBeGreaterThan(0));
    const read = agent.settings.calls.length;
    await sendAll();
    expect(await screen.findByText(SENDING_TEXTS.bulkFailed(AGENT_TEXTS.stopAgentToSend))).toBeTruthy();
    await waitFor(() => expect(agent.settings.calls.length).toBeGreaterThan(read));
  });

  it('waits while a DM has unsaved edits, saying why: it sends the saved texts', async () => {
    renderStep4([buildDm({ recipient_username: 'erin', message_content: 'Generated text' })]);
    const bulk = mockEndpoint(sendingEndpoints.sendBulk, {
      message: 'Queued 1 DM over 1 account.',
      queued: 1,
      skipped: 0,
      first_at: '2030-01-02T14:00:00Z',
      last_at: '2030-01-02T14:00:00Z',
      accounts: [],
    });
    const item = await dmRow('erin');
    await user.type(within(item).getByRole('textbox'), ' and my own words');
    const waiting = screen.getByRole('button', { name: 'Send All DMs' });
    expect(waiting.hasAttribute('disabled')).toBe(true);
    await user.hover(waiting.parentElement!);
    expect(await screen.findByRole('tooltip', { name: SAVE_BEFORE_SENDING_ALL })).toBeTruthy();

    await user.click(within(item).getByRole('button', { name: 'Undo changes' }));
    expect(screen.getByRole('button', { name: 'Send All DMs' }).hasAttribute('disabled')).toBe(false);
    await sendAll();
    await waitFor(() => expect(bulk.calls).toHaveLength(1));
  });

  it('is off for a read-only account', async () => {
    mockEndpoint(projectsEndpoints.list, page([buildProject()], 1, 500));
    mockEndpoint(leadsEndpoints.posts, page([]));
    mockEndpoint(leadsEndpoints.comments, page([]));
    mockEndpoint(leadsEndpoints.profiles, page([]));
    mockEndpoint(searchEndpoints.enhancedStatus, searchStatus());
    mockEndpoint(dmsEndpoints.generateAllStatus, dmGenerationStatus());
    mockEndpoint(dmsEndpoints.list, dmPage([buildDm({ recipient_username: 'dave' })]));
    mockEndpoint(historyEndpoints.campaignStatistics, buildCampaignStatistics());
    mockEndpoint(sendingEndpoints.status, sendingStatus());
    mockAgentAtRest();
    mockEndpoint(accountsEndpoints.list, accountList([]));
    renderScreen(<LeadsStep projectId={PROJECT_ID} readOnly />);
    expect((await screen.findByRole('button', { name: 'Send All DMs' })).hasAttribute('disabled')).toBe(true);
    const item = await dmRow('dave');
    expect(within(item).getByRole('button', { name: 'Send' }).hasAttribute('disabled')).toBe(true);
  });
});

describe('Sending status', { timeout: 15_000 }, () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows counts by state, when the next DM goes, and each DM with its account and reason', async () => {
    mockEndpoint(
      sendingEndpoints.status,
      sendingStatus([
        buildSendingItem({ recipient_username: 'queued_one', state: 'queued' }),
        buildSendingItem({
          recipient_username: 'refused_one',
          state: 'failed',
          failed_at: '2030-01-01T09:00:00Z',
          outcome_code: 'not_whitelisted',
          outcome_reason: 'u/refused_one does not accept messages from u/demo_founder',
        }),
        buildSendingItem({ recipient_username: 'sent_one', state: 'sent', sent_at: '2030-01-01T08:00:00Z' }),
      ]),
    );
    renderScreen(<SendingStatusPanel projectId={PROJECT_ID} readOnly={false} />);
    await advance();
    const counts = screen.getByLabelText('DMs by state');
    expect(within(counts).getByText('Queued: 1')).toBeTruthy();
    expect(within(counts).getByText('Failed: 1')).toBeTruthy();
    expect(within(counts).getByText('Sent: 1')).toBeTruthy();
    expect(within(counts).getByText('Checking delivery: 0')).toBeTruthy();
    expect(screen.getByText(/^Next DM goes at/)).toBeTruthy();
    const failed = screen.getByText('u/refused_one').closest('tr')!;
    expect(
      within(failed).getByText('u/refused_one does not accept messages from u/demo_founder'),
    ).toBeTruthy();
    expect(within(failed).getByText('u/demo_founder')).toBeTruthy();
  });

  it('counts a DM held back because of its person apart from Failed, as the campaign counts do', async () => {
    mockEndpoint(
      sendingEndpoints.status,
      sendingStatus([
        buildSendingItem({
          recipient_username: 'bad_text',
          state: 'failed',
          outcome_code: 'compose_refused',
        }),
        buildSendingItem({
          recipient_username: 'on_the_list',
          state: 'failed',
          outcome_code: 'suppressed',
          outcome_reason: 'u/on_the_list is on your do-not-contact list',
        }),
        buildSendingItem({ recipient_username: 'answered', state: 'failed', outcome_code: 'replied' }),
      ]),
    );
    renderScreen(<SendingStatusPanel projectId={PROJECT_ID} readOnly={false} />);
    await advance();
    const counts = screen.getByLabelText('DMs by state');
    expect(within(counts).getByText('Failed: 1')).toBeTruthy();
    expect(within(counts).getByText('Held back: 2')).toBeTruthy();
    const row = (name: string) => screen.getByText(`u/${name}`).closest('tr')!;
    expect(within(row('bad_text')).getByText('Failed')).toBeTruthy();
    expect(within(row('on_the_list')).getByText('Held back')).toBeTruthy();
    expect(within(row('answered')).getByText('Held back')).toBeTruthy();
  });

  it('Stop sending asks, takes back the queued DMs, says so and reloads; a read-only user has no such button', async () => {
    const status = mockEndpoint(
      sendingEndpoints.status,
      sendingStatus([buildSendingItem({ state: 'queued' }), buildSendingItem({ state: 'queued' })]),
    );
    const stop = mockEndpoint(sendingEndpoints.cancelQueued, {
      cancelled: 2,
      message: 'Sending stopped: 2 queued DMs went back to the unsent DMs. Send All queues them again.',
    });
    const onSettled = vi.fn();
    const { unmount } = renderScreen(
      <SendingStatusPanel projectId={PROJECT_ID} readOnly={false} onSettled={onSettled} />,
    );
    await advance();
    act(() => fireEvent.click(screen.getByRole('button', { name: 'Stop sending' })));
    expect(screen.getByText(stopSendingQuestion(2))).toBeTruthy();
    expect(stop.calls).toHaveLength(0);
    const loads = status.calls.length;
    act(() => fireEvent.click(screen.getByRole('button', { name: 'Stop sending' })));
    await advance();
    expect(stop.calls[0]!.rawBody).toEqual({ project_id: PROJECT_ID });
    expect(
      screen.getByText(
        'Sending stopped: 2 queued DMs went back to the unsent DMs. Send All queues them again.',
      ),
    ).toBeTruthy();
    expect(onSettled).toHaveBeenCalledTimes(1);
    expect(status.calls.length).toBeGreaterThan(loads);
    unmount();

    renderScreen(<SendingStatusPanel projectId={PROJECT_ID} readOnly />);
    await advance();
    expect(screen.getByText('Queued: 2')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Stop sending' })).toBeNull();
  });

  it("Stop sending names only the DMs the customer queued, and is not offered for the agent's alone", async () => {
    const queued = () => buildSendingItem({ state: 'queued' });
    mockEndpoint(sendingEndpoints.status, sendingStatus([queued(), queued(), queued()], 3, 1));
    const first = renderScreen(<SendingStatusPanel projectId={PROJECT_ID} readOnly={false} />);
    await advance();
    expect(screen.getByText('Queued: 3')).toBeTruthy();
    act(() => fireEvent.click(screen.getByRole('button', { name: 'Stop sending' })));
    expect(screen.getByText(stopSendingQuestion(2))).toBeTruthy();
    first.unmount();

    mockEndpoint(sendingEndpoints.status, sendingStatus([queued()], 1, 1));
    renderScreen(<SendingStatusPanel projectId={PROJECT_ID} readOnly={false} />);
    await advance();
    expect(screen.getByText('Queued: 1')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Stop sending' })).toBeNull();
  });

  it('says what the next DM waits for', async () => {
    mockEndpoint(sendingEndpoints.status, {
      ...sendingStatus([buildSendingItem({ state: 'queued' })]),
      next_wait: { account_username: 'demo_founder', reason: 'Outside working hours.' },
    });
    renderScreen(<SendingStatusPanel projectId={PROJECT_ID} readOnly={false} />);
    await advance();
    expect(screen.getByText(/^Next DM goes at .+ · u\/demo_founder: Outside working hours\.$/)).toBeTruthy();
  });

  it('names no past time for a DM already due: it goes now, or says what it waits for', async () => {
    const due = {
      ...sendingStatus([buildSendingItem({ state: 'queued' })]),
      next_scheduled_for: '2020-01-01T09:00:00Z',
    };
    mockEndpoint(sendingEndpoints.status, due);
    const first = renderScreen(<SendingStatusPanel projectId={PROJECT_ID} readOnly={false} />);
    await advance();
    expect(screen.getByText('Next DM goes now')).toBeTruthy();
    first.unmount();

    const reason = 'Auth Required: sign this account in to Reddit again.';
    mockEndpoint(sendingEndpoints.status, {
      ...due,
      next_wait: { account_username: 'demo_founder', reason },
    });
    renderScreen(<SendingStatusPanel projectId={PROJECT_ID} readOnly={false} />);
    await advance();
    expect(screen.getByText(`Next DM waits · u/demo_founder: ${reason}`)).toBeTruthy();
    expect(screen.queryByText(/Next DM goes at/)).toBeNull();
  });

  it('shows a DM of unknown outcome whose account was removed as Delivery unknown, with the reason', async () => {
    const reason =
      'Delivery unknown: u/demo_founder was removed before Reddit confirmed it. u/zed counts as contacted and is not sent it again.';
    mockEndpoint(
      sendingEndpoints.status,
      sendingStatus([
        buildSendingItem({ state: 'unknown', outcome_code: 'account_removed', outcome_reason: reason }),
      ]),
    );
    renderScreen(<SendingStatusPanel projectId={PROJECT_ID} readOnly={false} />);
    await advance();
    const table = screen.getByRole('table');
    expect(within(table).getByText('Delivery unknown')).toBeTruthy();
    expect(within(table).getByText(reason)).toBeTruthy();
  });

  it('counts a DM whose account was removed apart from those being checked, and does not refresh for it', async () => {
    const status = mockEndpoint(
      sendingEndpoints.status,
      sendingStatus([
        buildSendingItem({ state: 'unknown', outcome_code: 'account_removed' }),
        buildSendingItem({ state: 'sent', sent_at: '2030-01-01T08:00:00Z' }),
      ]),
    );
    renderScreen(<SendingStatusPanel projectId={PROJECT_ID} readOnly={false} />);
    await advance();
    const counts = screen.getByLabelText('DMs by state');
    expect(within(counts).getByText('Checking delivery: 0')).toBeTruthy();
    expect(within(counts).getByText('Delivery unknown: 1')).toBeTruthy();
    await act(async () => {
      await advance(3 * SENDING_STATUS_REFRESH_MS);
    });
    expect(status.calls).toHaveLength(1);
  });

  it('refreshes every 30 s while any DM is on its way, and stops once none is', async () => {
    const answers = [
      sendingStatus([buildSendingItem({ state: 'queued' })]),
      sendingStatus([buildSendingItem({ state: 'unknown' })]),
      sendingStatus([buildSendingItem({ state: 'sent', sent_at: '2030-01-01T08:00:00Z' })]),
    ];
    const status = mockEndpoint(sendingEndpoints.status, () =>
      answers.length > 1 ? answers.shift()! : answers[0]!,
    );
    renderScreen(<SendingStatusPanel projectId={PROJECT_ID} readOnly={false} />);
    await advance();
    expect(status.calls).toHaveLength(1);
    await advance(SENDING_STATUS_REFRESH_MS - 1000);
    expect(status.calls).toHaveLength(1);
    await advance(1000);
    expect(status.calls).toHaveLength(2);
    expect(screen.getByText('Checking delivery: 1')).toBeTruthy();
    await advance(SENDING_STATUS_REFRESH_MS);
    expect(status.calls).toHaveLength(3);
    expect(screen.getByText('Sent: 1')).toBeTruthy();
    await act(async () => {
      await advance(3 * SENDING_STATUS_REFRESH_MS);
    });
    expect(status.calls).toHaveLength(3);
  });

  it("reads the DM list, the campaign's counts and the accounts again each time its counts change", async () => {
    const sent = (name: string) =>
      buildSendingItem({ recipient_username: name, state: 'sent', sent_at: '2030-01-01T08:00:00Z' });
    const queued = (name: string) => buildSendingItem({ recipient_username: name, state: 'queued' });
    const answers = [
      sendingStatus([queued('ann'), queued('bob'), queued('cid')]),
      sendingStatus([sent('ann'), queued('bob'), queued('cid')]),
      sendingStatus([sent('ann'), queued('bob'), queued('cid')]),
      sendingStatus([sent('ann'), sent('bob'), queued('cid')]),
    ];
    const reads = renderStep4([buildDm({ recipient_username: 'ann', state: 'queued' })], () =>
      answers.length > 1 ? answers.shift()! : answers[0]!,
    );
    await advance();
    expect(screen.getByText('Queued: 3')).toBeTruthy();
    // The campaign's counts also read themselves every minute: they are read at least once more.
    const counted = () => ({
      dms: reads.list.calls.length,
      accounts: reads.accountReads.calls.length,
      statistics: reads.statistics.calls.length,
    });
    const readAgain = (before: ReturnType<typeof counted>) => {
      const now = counted();
      expect([now.dms, now.accounts]).toEqual([before.dms + 1, before.accounts + 1]);
      expect(now.statistics).toBeGreaterThan(before.statistics);
    };

    // One went: the DM list, the counts and what the accounts have left are read again with the status.
    let before = counted();
    await advance(SENDING_STATUS_REFRESH_MS);
    expect(screen.getByText('Sent: 1')).toBeTruthy();
    readAgain(before);

    // Nothing went meanwhile: only the status is read.
    before = counted();
    await advance(SENDING_STATUS_REFRESH_MS);
    expect(reads.statusCalls.calls).toHaveLength(3);
    expect([counted().dms, counted().accounts]).toEqual([before.dms, before.accounts]);

    before = counted();
    await advance(SENDING_STATUS_REFRESH_MS);
    expect(screen.getByText('Sent: 2')).toBeTruthy();
    readAgain(before);
  });
});

describe('what agent mode learns from in step 4', { timeout: 15_000 }, () => {
  it('records a saved edit with its texts, a send and a deletion', async () => {
    const edited = buildDm({ recipient_username: 'erin', message_content: 'Generated hello' });
    const sent = buildDm({ recipient_username: 'sam' });
    const removed = buildDm({ recipient_username: 'dora' });
    const { agent } = renderStep4([edited, sent, removed]);
    mockEndpoint(dmsEndpoints.update, ({ body }) => ({
      messages: [{ ...edited, message_content: body.messages[0]!.message_content, edited: true }],
    }));
    mockEndpoint(sendingEndpoints.sendOne, {
      recipient: 'sam',
      dm_id: sent.id,
      state: 'sent',
      account: 'demo_founder',
      scheduled_for: null,
      message: 'Sent to u/sam',
    });
    mockEndpoint(dmsEndpoints.delete, undefined);

    const item = await dmRow('erin');
    const box = within(item).getByRole('textbox');
    await user.clear(box);
    await user.type(box, 'Hey Erin, my words');
    await user.click(within(item).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(agent.behavior.calls).toHaveLength(1));
    expect(agent.behavior.calls[0]!.body).toEqual({
      action: 'message_edited',
      metadata: { dm_id: edited.id, before: 'Generated hello', after: 'Hey Erin, my words' },
    });

    await user.click(within(await dmRow('sam')).getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(agent.behavior.calls).toHaveLength(2));
    expect(agent.behavior.calls[1]!.body).toEqual({ action: 'message_sent', metadata: { dm_id: sent.id } });

    await user.click(within(await dmRow('dora')).getByRole('button', { name: 'Delete' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete DM message' });
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(agent.behavior.calls).toHaveLength(3));
    expect(agent.behavior.calls[2]!.body).toEqual({
      action: 'message_deleted',
      metadata: { dm_id: removed.id },
    });
  });
});
