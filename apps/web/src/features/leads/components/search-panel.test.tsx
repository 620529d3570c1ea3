import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse } from 'msw';
import {
  accountsEndpoints,
  dmsEndpoints,
  historyEndpoints,
  leadsEndpoints,
  projectsEndpoints,
  RUN_POLL_INTERVAL_MS,
  RUN_POLL_TIMEOUT_MS,
  searchEndpoints,
  sendingEndpoints,
  type TPost,
  type TSearchStatus,
} from '@threadreach/contract';
import { errorReply, mockEndpoint, sentRequests } from '../../../test/api-mock.test-support';
import { mockAgentAtRest } from '../../../test/agent.test-support';
import {
  advance,
  buildPost,
  dmGenerationStatus,
  buildProject,
  dmPage,
  page,
  PROJECT_ID,
  renderScreen,
  searchStatus,
  sendingStatus,
} from '../../../test/discovery.test-support';
import { mockPublicConfig } from '../../../test/public-config.test-support';
import { accountList } from '../../../test/accounts.test-support';
import { buildCampaignStatistics } from '../../history/history.test-support';
import { LeadsStep } from './leads-step';
import { SearchPanel } from './search-panel';

const user = userEvent.setup({ delay: null });

function renderPanel(withoutKeywords = false) {
  return renderScreen(
    <SearchPanel projectId={PROJECT_ID} readOnly={false} withoutKeywords={withoutKeywords} />,
  );
}

/** Step 4 lists the DM messages below the results, and what sending is doing. */
function mockNoDms() {
  mockPublicConfig();
  mockEndpoint(accountsEndpoints.list, accountList([]));
  mockEndpoint(dmsEndpoints.list, dmPage([]));
  mockEndpoint(dmsEndpoints.generateAllStatus, dmGenerationStatus());
  mockEndpoint(sendingEndpoints.status, sendingStatus());
  mockAgentAtRest();
}

/** Answers the status call from a queue; the last answer repeats. */
function statusSequence(answers: TSearchStatus[]) {
  const queue = [...answers];
  return mockEndpoint(searchEndpoints.enhancedStatus, () => (queue.length > 1 ? queue.shift()! : queue[0]!));
}

const searching = (phase: string, seconds: number, itemsRead: number, leadsFound: number) =>
  searchStatus({
    status: 'searching',
    duration_seconds: seconds,
    progress: { phase, items_read: itemsRead, leads_found: leadsFound },
  });

/** search-enhanced answers started, and from then on the status calls answer `after`. */
function startAnswers(after: TSearchStatus[]) {
  return mockEndpoint(searchEndpoints.enhanced, () => {
    statusSequence(after);
    return { data: { status: 'started' as const } };
  });
}

const progress = () => screen.queryByRole('status', { name: 'Searching...' });
const alerts = () => screen.queryAllByRole('alert').map((a) => a.textContent);

describe('Step 4 search settings', { timeout: 15_000 }, () => {
  it('offers Posts and Comments, with Users disabled, and needs at least one', async () => {
    statusSequence([searchStatus()]);
    renderPanel();
    const posts = await screen.findByRole('checkbox', { name: 'Posts' });
    const comments = screen.getByRole('checkbox', { name: 'Comments' });
    const users = screen.getByRole('checkbox', { name: 'Users' });
    expect([posts, comments, users].map((c) => (c as HTMLInputElement).checked)).toEqual([true, true, false]);
    expect(users).toHaveProperty('disabled', true);

    await user.click(posts);
    await user.click(comments);
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText('Please select at least one search type')).toBeTruthy();
    expect(sentRequests().filter((r) => r.method === 'POST')).toHaveLength(0);
  });

  it('remembers Posts and Comments per project', async () => {
    statusSequence([searchStatus()]);
    const first = renderPanel();
    await user.click(await screen.findByRole('checkbox', { name: 'Comments' }));
    first.unmount();

    const start = startAnswers([searchStatus()]);
    renderPanel();
    const posts = await screen.findByRole('checkbox', { name: 'Posts' });
    const comments = screen.getByRole('checkbox', { name: 'Comments' });
    expect([posts, comments].map((c) => (c as HTMLInputElement).checked)).toEqual([true, false]);
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(start.calls).toHaveLength(1));
    expect(start.calls[0]!.rawBody).toMatchObject({ include_posts: true, include_comments: false });
  });

  it('keyword filtering is the project update carrying without_keywords', async () => {
    statusSequence([searchStatus()]);
    const update = mockEndpoint(projectsEndpoints.update, buildProject({ without_keywords: true }));
    renderPanel(false);
    const toggle = await screen.findByRole('switch', { name: /^Keyword filtering/ });
    expect(toggle).toHaveProperty('checked', true);
    await user.click(toggle);
    await waitFor(() => expect(update.calls).toHaveLength(1));
    expect(update.calls[0]!.rawBody).toEqual({ without_keywords: true });
    expect(update.calls[0]!.params.projectId).toBe(PROJECT_ID);
  });

  it("shows the project's setting in step 4 and keeps the new one after the update", async () => {
    mockEndpoint(projectsEndpoints.list, page([buildProject({ without_keywords: false })], 1, 500));
    mockEndpoint(leadsEndpoints.posts, page([]));
    mockEndpoint(leadsEndpoints.comments, page([]));
    mockEndpoint(leadsEndpoints.profiles, page([]));
    mockEndpoint(historyEndpoints.campaignStatistics, buildCampaignStatistics());
    statusSequence([searchStatus()]);
    mockEndpoint(projectsEndpoints.update, buildProject({ without_keywords: true }));
    mockNoDms();
    renderScreen(<LeadsStep projectId={PROJECT_ID} readOnly={false} />);
    await waitFor(() =>
      expect(screen.getByRole('switch', { name: /^Keyword filtering/ })).toHaveProperty('checked', true),
    );
    await user.click(screen.getByRole('switch', { name: /^Keyword filtering/ }));
    const toggle = await screen.findByRole('switch', {
      name: /Every post and comment in your approved subreddits is a lead/,
    });
    expect(toggle).toHaveProperty('checked', false);
    expect(toggle).toHaveProperty('disabled', false);
  });

  it('says Failed to update keyword filtering setting when the update fails', async () => {
    statusSequence([searchStatus()]);
    mockEndpoint(projectsEndpoints.update, errorReply(500, 'database down', 'internal'));
    renderPanel(true);
    const toggle = await screen.findByRole('switch', { name: /^Keyword filtering/ });
    expect(toggle).toHaveProperty('checked', false);
    await user.click(toggle);
    expect(await screen.findByText('Failed to update keyword filtering setting')).toBeTruthy();
    expect(screen.getByRole('switch', { name: /^Keyword filtering/ })).toHaveProperty('checked', false);
  });
});

describe('Step 4 search', { timeout: 15_000 }, () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  async function clickSearch() {
    act(() => fireEvent.click(screen.getByRole('button', { name: 'Search' })));
    await advance();
  }

  it('runs search-enhanced with the settings, shows progress while polling, and reports the result', async () => {
    statusSequence([searchStatus()]);
    const start = startAnswers([
      searching('reading new posts', 2, 120, 3),
      searching('backfilling r/freelance', 4, 480, 5),
      searchStatus({
        status: 'completed',
        duration_seconds: 6,
        result: { posts_found: 4, comments_found: 2, profiles_found: 0 },
      }),
    ]);
    renderPanel();
    await advance();
    act(() => fireEvent.click(screen.getByRole('checkbox', { name: 'Comments' })));
    await clickSearch();
    expect(start.calls[0]!.rawBody).toEqual({
      include_posts: true,
      include_comments: false,
      include_profiles: false,
      persist_posts: true,
      limit: 100,
    });
    expect(progress()!.textContent).toContain('Phase: reading new posts · 2 s');
    expect(progress()!.textContent).toContain('Items read: 120 · Leads found so far: 3');
    expect(screen.getByRole('button', { name: 'Search' }).hasAttribute('disabled')).toBe(true);

    await advance(RUN_POLL_INTERVAL_MS);
    expect(progress()!.textContent).toContain('Phase: backfilling r/freelance · 4 s');
    expect(progress()!.textContent).toContain('Items read: 480 · Leads found so far: 5');

    await advance(RUN_POLL_INTERVAL_MS);
    expect(progress()).toBeNull();
    expect(screen.getByText('Search completed: 4 posts and 2 comments found')).toBeTruthy();
    const polls = sentRequests().length;
    await advance(RUN_POLL_INTERVAL_MS * 3);
    expect(sentRequests()).toHaveLength(polls);
  });

  it.each([
    ['Reddit is unavailable', 'Search failed: Reddit is unavailable'],
    [null, 'Search failed: Unknown error'],
  ])('a failed search (error %s) shows %s', async (error, text) => {
    statusSequence([searchStatus()]);
    startAnswers([searching('reading new posts', 1, 0, 0), searchStatus({ status: 'failed', error })]);
    renderPanel();
    await advance();
    await clickSearch();
    await advance(RUN_POLL_INTERVAL_MS);
    expect(alerts()).toContain(text);
    expect(progress()).toBeNull();
  });

  it('gives up after 5 minutes with the search timeout text', async () => {
    statusSequence([searchStatus()]);
    startAnswers([searching('reading new comments', 1, 10, 0)]);
    renderPanel();
    await advance();
    await clickSearch();
    await advance(RUN_POLL_TIMEOUT_MS - RUN_POLL_INTERVAL_MS);
    expect(progress()).toBeTruthy();
    await advance(RUN_POLL_INTERVAL_MS * 2);
    expect(alerts()).toContain('Search timeout - please refresh and check status');
    expect(progress()).toBeNull();
  });

  it('stops with Error checking search status when a status call fails', async () => {
    statusSequence([searchStatus()]);
    mockEndpoint(searchEndpoints.enhanced, () => {
      mockEndpoint(searchEndpoints.enhancedStatus, HttpResponse.error());
      return { data: { status: 'started' as const } };
    });
    renderPanel();
    await advance();
    await clickSearch();
    expect(alerts()).toContain('Error checking search status');
  });

  it('on 409 says a search is already running and follows it', async () => {
    statusSequence([searchStatus()]);
    mockEndpoint(searchEndpoints.enhanced, () => {
      statusSequence([searching('scoring', 30, 900, 12)]);
      return errorReply(409, 'Search is already in progress for this project', 'conflict');
    });
    renderPanel();
    await advance();
    await clickSearch();
    expect(alerts()).toContain('Search is already in progress for this project');
    expect(progress()!.textContent).toContain('Leads found so far: 12');
  });

  it.each([
    [
      'no approved keywords',
      () =>
        errorReply(
          400,
          'No approved keywords found. Please go to Step 2 and approve some keywords first.',
          'no_keywords',
        ),
      'No approved keywords found. Please go to Step 2 and approve some keywords first.',
    ],
    [
      'no approved subreddits',
      () =>
        errorReply(
          400,
          'No approved subreddits found. Please go to Step 3 and approve some subreddits first.',
          'no_subreddits',
        ),
      'No approved subreddits found. Please go to Step 3 and approve some subreddits first.',
    ],
    [
      'another refusal',
      () => errorReply(503, 'Reddit budget spent', 'unavailable'),
      'Enhanced search failed: Reddit budget spent',
    ],
    ['a network failure', () => HttpResponse.error(), 'Error starting post search: Network Error'],
    [
      'an answer other than started',
      () => HttpResponse.json({ data: { status: 'queued' } }),
      'Unexpected response from server',
    ],
  ])('starting shows %s', async (_name, answer, text) => {
    statusSequence([searchStatus()]);
    mockEndpoint(searchEndpoints.enhanced, answer);
    renderPanel();
    await advance();
    await clickSearch();
    expect(alerts()).toContain(text);
    expect(progress()).toBeNull();
  });

  it('follows a search already running when the step opens', async () => {
    statusSequence([
      searching('reading new posts', 8, 50, 1),
      searchStatus({ status: 'completed', result: { posts_found: 1, comments_found: 0, profiles_found: 0 } }),
    ]);
    renderPanel();
    await advance();
    expect(progress()!.textContent).toContain('Items read: 50');
    await advance(RUN_POLL_INTERVAL_MS);
    expect(screen.getByText('Search completed: 1 post and 0 comments found')).toBeTruthy();
  });

  it('reloads the results when a search completes', async () => {
    let posts: TPost[] = [];
    mockEndpoint(projectsEndpoints.list, page([buildProject()], 1, 500));
    mockEndpoint(leadsEndpoints.posts, () => page(posts));
    mockEndpoint(leadsEndpoints.comments, page([]));
    mockEndpoint(leadsEndpoints.profiles, page([]));
    mockEndpoint(historyEndpoints.campaignStatistics, buildCampaignStatistics());
    statusSequence([searchStatus()]);
    startAnswers([searching('reading new posts', 1, 5, 1), searchStatus({ status: 'completed' })]);
    mockNoDms();
    renderScreen(<LeadsStep projectId={PROJECT_ID} readOnly={false} />);
    await advance();
    expect(screen.getByText('No posts found yet.')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Posts & Messages' })).toBeTruthy();
    await clickSearch();
    posts = [buildPost({ title: 'Fresh lead' })];
    await advance(RUN_POLL_INTERVAL_MS);
    expect(screen.getByRole('article', { name: 'Fresh lead' })).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Posts (1)' })).toBeTruthy();
  });
});
