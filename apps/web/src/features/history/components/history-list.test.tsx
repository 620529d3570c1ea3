import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { historyEndpoints, leadsEndpoints } from '@threadreach/contract';
import { errorReply, mockEndpoint } from '../../../test/api-mock.test-support';
import { page, PROJECT_ID, renderScreen } from '../../../test/discovery.test-support';
import { LeadTabs } from '../../leads/components/lead-tabs';
import { buildCampaignStatistics, buildHistoryItem } from '../history.test-support';
import { CampaignStatistics } from './campaign-statistics';
import { HISTORY_EMPTY, HistoryList } from './history-list';

const user = userEvent.setup({ delay: null });
const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000).toISOString();

const REFUSED = buildHistoryItem({
  recipient_username: 'angry_al',
  sent_at: hoursAgo(30),
  reply_status: 'refused',
  reply_count: 2,
  last_reply: { body: 'Please stop messaging me', received_at: hoursAgo(2), is_refusal: true },
});
const REPLIED = buildHistoryItem({
  recipient_username: 'pixel_pat',
  sent_at: hoursAgo(50),
  reply_status: 'replied',
  reply_count: 1,
  message_content: 'Hi Pat, our app exports tax reports as CSV.',
  last_reply: { body: 'Is there a free trial?', received_at: hoursAgo(20), is_refusal: false },
});
const SILENT = buildHistoryItem({
  recipient_username: 'quiet_quinn',
  sent_at: hoursAgo(72),
  account_username: null,
});

describe('History tab', { timeout: 15_000 }, () => {
  it('lists contacted people with when they were sent a DM, from which account, and their reply', async () => {
    mockEndpoint(historyEndpoints.list, page([REFUSED, REPLIED, SILENT], 3));
    renderScreen(<HistoryList projectId={PROJECT_ID} />);

    const pat = await screen.findByRole('article', { name: 'u/pixel_pat' });
    expect(within(pat).getByText('Replied')).toBeTruthy();
    expect(within(pat).getByText('Sent 2 days ago from u/demo_founder')).toBeTruthy();
    expect(within(pat).getByText('r/freelance · Looking for a bookkeeping app')).toBeTruthy();
    expect(within(pat).getByLabelText('Message sent').textContent).toBe(
      'Hi Pat, our app exports tax reports as CSV.',
    );
    const reply = within(pat).getByLabelText('Reply from u/pixel_pat');
    expect(reply.textContent).toContain('Is there a free trial?');
    expect(reply.textContent).toContain('Replied 20 h ago');

    const al = screen.getByRole('article', { name: 'u/angry_al' });
    expect(within(al).getByText('Refused')).toBeTruthy();
    expect(within(al).getByLabelText('Reply from u/angry_al').textContent).toContain('2 replies');

    const quinn = screen.getByRole('article', { name: 'u/quiet_quinn' });
    expect(within(quinn).getByText('No reply')).toBeTruthy();
    expect(within(quinn).getByText('Sent 3 days ago')).toBeTruthy();
    expect(within(quinn).queryByLabelText('Reply from u/quiet_quinn')).toBeNull();
    expect(screen.getByText('3 people')).toBeTruthy();
  });

  it('lets the keyboard reach and scroll the list, though its rows hold nothing focusable (WCAG 2.1.1)', async () => {
    mockEndpoint(historyEndpoints.list, page([REPLIED, SILENT], 2));
    renderScreen(<HistoryList projectId={PROJECT_ID} readOnly />);
    await screen.findByRole('article', { name: 'u/pixel_pat' });
    const list = screen.getByRole('region', { name: 'Contacted people' });
    expect(within(list).getAllByRole('article')).toHaveLength(2);
    await user.tab();
    await user.tab();
    expect(document.activeElement).toBe(list);
  });

  it('keeps one kind of reply, and pages', async () => {
    const list = mockEndpoint(historyEndpoints.list, ({ query }) =>
      query.reply_status === 'refused' ? page([REFUSED], 1) : page([REPLIED], 45, 20, query.offset),
    );
    renderScreen(<HistoryList projectId={PROJECT_ID} />);
    await screen.findByRole('article', { name: 'u/pixel_pat' });
    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(list.calls.at(-1)!.query).toMatchObject({ offset: 20, limit: 20 }));

    await user.click(screen.getByText('Refused'));
    expect(await screen.findByRole('article', { name: 'u/angry_al' })).toBeTruthy();
    expect(list.calls.at(-1)!.query).toMatchObject({ reply_status: 'refused', offset: 0 });
    expect(screen.queryByRole('article', { name: 'u/pixel_pat' })).toBeNull();
  });

  it('checks the inboxes now on request, says what it found, and reloads the list', async () => {
    const list = mockEndpoint(historyEndpoints.list, page([SILENT]));
    const check = mockEndpoint(historyEndpoints.checkReplies, {
      project_id: PROJECT_ID,
      accounts_checked: 1,
      new_replies: 2,
      refusals: 1,
      not_checked: [],
    });
    renderScreen(<HistoryList projectId={PROJECT_ID} />);
    await screen.findByRole('article', { name: 'u/quiet_quinn' });
    const loads = list.calls.length;
    await user.click(screen.getByRole('button', { name: 'Check for replies' }));
    expect(
      await screen.findByText(
        '2 new replies (1 asked not to be contacted again and is on your do-not-contact list)',
      ),
    ).toBeTruthy();
    expect(check.calls[0]!.params).toEqual({ projectId: PROJECT_ID });
    await waitFor(() => expect(list.calls.length).toBeGreaterThan(loads));

    mockEndpoint(historyEndpoints.checkReplies, {
      project_id: PROJECT_ID,
      accounts_checked: 0,
      new_replies: 0,
      refusals: 0,
      not_checked: [
        {
          account_username: 'demo_founder',
          reason: 'u/demo_founder must be re-authenticated before its inbox can be read',
        },
      ],
    });
    await user.click(screen.getByRole('button', { name: 'Check for replies' }));
    expect(
      await screen.findByText('u/demo_founder must be re-authenticated before its inbox can be read'),
    ).toBeTruthy();
  });

  it('offers no inbox check to a read-only viewer', async () => {
    mockEndpoint(historyEndpoints.list, page([SILENT]));
    renderScreen(<HistoryList projectId={PROJECT_ID} readOnly />);
    await screen.findByRole('article', { name: 'u/quiet_quinn' });
    expect(screen.queryByRole('button', { name: 'Check for replies' })).toBeNull();
  });

  it('says when nobody was contacted yet, and when the list cannot load', async () => {
    mockEndpoint(historyEndpoints.list, page([]));
    const view = renderScreen(<HistoryList projectId={PROJECT_ID} />);
    expect(await screen.findByText(HISTORY_EMPTY)).toBeTruthy();
    view.unmount();

    mockEndpoint(historyEndpoints.list, errorReply(500, 'database down', 'internal'));
    renderScreen(<HistoryList projectId={PROJECT_ID} />);
    expect((await screen.findByRole('alert')).textContent).toBe('database down');
  });

  it("is step 4's fourth results tab, loaded when opened and remembered per project", async () => {
    mockEndpoint(leadsEndpoints.posts, page([]));
    mockEndpoint(leadsEndpoints.comments, page([]));
    mockEndpoint(leadsEndpoints.profiles, page([]));
    const history = mockEndpoint(historyEndpoints.list, page([REPLIED]));
    renderScreen(<LeadTabs projectId={PROJECT_ID} readOnly={false} />);
    const tab = await screen.findByRole('tab', { name: 'History' });
    expect(screen.getAllByRole('tab').map((t) => t.textContent?.replace(/ \(\d+\)$/, ''))).toEqual([
      'Posts',
      'Comments',
      'Users',
      'History',
    ]);
    expect(history.calls).toHaveLength(0);
    await user.click(tab);
    expect(await screen.findByRole('article', { name: 'u/pixel_pat' })).toBeTruthy();
    expect(localStorage.getItem(`projectTab:${PROJECT_ID}`)).toBe('history');
  });
});

describe('campaign statistics', { timeout: 15_000 }, () => {
  it('shows DMs generated, sent, failed, expired, replied and the reply rate', async () => {
    const statistics = mockEndpoint(
      historyEndpoints.campaignStatistics,
      buildCampaignStatistics({
        generated: 1204,
        sent: 300,
        failed: 12,
        expired: 40,
        replied: 200,
        reply_rate: 0.6667,
      }),
    );
    renderScreen(<CampaignStatistics projectId={PROJECT_ID} />);
    const cards = await screen.findByRole('list', { name: 'Campaign statistics' });
    await waitFor(() =>
      expect(within(cards).getByRole('listitem', { name: 'Generated' }).textContent).toContain('1,204'),
    );
    const value = (label: string) =>
      within(cards).getByRole('listitem', { name: label }).textContent?.replace(label, '');
    expect(['Generated', 'Sent', 'Failed', 'Expired', 'Replied', 'Reply rate'].map(value)).toEqual([
      '1,204',
      '300',
      '12',
      '40',
      '200',
      '66.7%',
    ]);
    expect(statistics.calls[0]!.query).toEqual({ project_id: PROJECT_ID });
  });

  it('says when the counts cannot load', async () => {
    mockEndpoint(historyEndpoints.campaignStatistics, errorReply(500, 'database down', 'internal'));
    renderScreen(<CampaignStatistics projectId={PROJECT_ID} />);
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Failed to load campaign statistics: database down',
    );
  });
});
