import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse } from 'msw';
import {
  RUN_POLL_INTERVAL_MS,
  RUN_POLL_TIMEOUT_MS,
  subredditsEndpoints,
  type TSubreddit,
  type TSubredditGenerationStatus,
} from '@threadreach/contract';
import { errorReply, mockEndpoint, sentRequests } from '../../../test/api-mock.test-support';
import {
  advance,
  buildSubreddit,
  generationStatus,
  PROJECT_ID,
  renderScreen,
  subredditList,
  withoutAiSubscription,
} from '../../../test/discovery.test-support';
import { SUBREDDIT_MESSAGES, SubredditsStep } from './subreddits-step';

const FREELANCE = buildSubreddit({
  subreddit_name: 'freelance',
  description: 'Freelancers helping freelancers',
  estimated_members: 512345,
  relevance_score: 0.91,
  approved: true,
});
const DESIGN = buildSubreddit({
  subreddit_name: 'graphic_design',
  description: 'Graphic design talk',
  estimated_members: 2400,
  relevance_score: 0.64,
  approved: false,
});

const user = userEvent.setup({ delay: null });

function renderStep(props: { watchGeneration?: boolean; readOnly?: boolean; aiBlocked?: boolean } = {}) {
  const callbacks = { onBack: vi.fn(), onSkip: vi.fn(), onApproved: vi.fn() };
  const step = (
    <SubredditsStep
      projectId={PROJECT_ID}
      readOnly={props.readOnly ?? false}
      watchGeneration={props.watchGeneration ?? false}
      {...callbacks}
    />
  );
  renderScreen(props.aiBlocked ? withoutAiSubscription(step) : step);
  return callbacks;
}

/** Answers the status call from a queue; the last answer repeats. */
function statusSequence(answers: TSubredditGenerationStatus[]) {
  const queue = [...answers];
  return mockEndpoint(subredditsEndpoints.status, () => (queue.length > 1 ? queue.shift()! : queue[0]!));
}

const generating = (phase: string, seconds: number) =>
  generationStatus({
    status: 'generating',
    duration_seconds: seconds,
    progress: { phase, items_read: 0, leads_found: 0 },
  });

const rowOf = (name: string) => screen.getByRole('checkbox', { name });

/** Approval answers the server would give, recording what was sent. */
const approveAnswers = () =>
  mockEndpoint(subredditsEndpoints.approve, ({ body }) => ({
    approved_count: body.subreddits.filter((s) => s.approved).length,
    subreddits: [],
  }));

/** The approval body for FREELANCE and DESIGN, in the list's order. */
const approvals = (approved: { freelance: boolean; graphic_design: boolean }) => ({
  subreddits: [
    { id: FREELANCE.id, subreddit_name: 'freelance', approved: approved.freelance },
    { id: DESIGN.id, subreddit_name: 'graphic_design', approved: approved.graphic_design },
  ],
});
const alerts = () => screen.queryAllByRole('alert').map((a) => a.textContent);

describe('Step 3 subreddits: list and approval', { timeout: 15_000 }, () => {
  it('shows each subreddit with description, members and relevance', async () => {
    mockEndpoint(subredditsEndpoints.list, subredditList([FREELANCE, DESIGN]));
    statusSequence([generationStatus()]);
    renderStep();
    const row = (await screen.findByText('r/freelance')).closest(
      '[data-testid="subreddit-row"]',
    ) as HTMLElement;
    expect(within(row).getByText('Freelancers helping freelancers')).toBeTruthy();
    expect(within(row).getByText('512,345 members')).toBeTruthy();
    expect(within(row).getByText('Relevance 91%')).toBeTruthy();
    expect(rowOf('r/freelance')).toHaveProperty('checked', true);
    expect(rowOf('r/graphic_design')).toHaveProperty('checked', false);
    expect(screen.getByText('(1 of 2 approved)')).toBeTruthy();
  });

  it('keeps Generate More from a customer without a subscription; approving still works', async () => {
    mockEndpoint(subredditsEndpoints.list, subredditList([FREELANCE, DESIGN]));
    statusSequence([generationStatus()]);
    renderStep({ aiBlocked: true });
    await screen.findByText('r/freelance');
    expect(screen.getByRole('button', { name: 'Generate More' }).hasAttribute('disabled')).toBe(true);
    expect(screen.getByRole('button', { name: 'Approve & Continue' }).hasAttribute('disabled')).toBe(false);
  });

  it('Approve & Continue sends the approval of every subreddit and moves on', async () => {
    mockEndpoint(subredditsEndpoints.list, subredditList([FREELANCE, DESIGN]));
    statusSequence([generationStatus()]);
    const approve = approveAnswers();
    const { onApproved } = renderStep();
    await user.click(await screen.findByRole('checkbox', { name: 'r/graphic_design' }));
    await user.click(rowOf('r/freelance'));
    await user.click(screen.getByRole('button', { name: 'Approve & Continue' }));
    await waitFor(() => expect(onApproved).toHaveBeenCalledTimes(1));
    expect(approve.calls[0]!.rawBody).toEqual(approvals({ freelance: false, graphic_design: true }));
  });

  it('Select all approves every subreddit and Clear none, and Approve & Continue sends that', async () => {
    mockEndpoint(subredditsEndpoints.list, subredditList([FREELANCE, DESIGN]));
    statusSequence([generationStatus()]);
    const approve = approveAnswers();
    const { onApproved } = renderStep();
    await screen.findByRole('checkbox', { name: 'r/freelance' });
    await user.click(screen.getByRole('button', { name: 'Clear' }));
    expect(rowOf('r/freelance')).toHaveProperty('checked', false);
    expect(screen.getByText('(0 of 2 approved)')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Approve & Continue' }));
    expect(await screen.findByText('Please select at least one subreddit to continue')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Select all' }));
    expect(rowOf('r/freelance')).toHaveProperty('checked', true);
    expect(rowOf('r/graphic_design')).toHaveProperty('checked', true);
    expect(screen.getByText('(2 of 2 approved)')).toBeTruthy();
    expect(screen.queryByText('Please select at least one subreddit to continue')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Approve & Continue' }));
    await waitFor(() => expect(onApproved).toHaveBeenCalledTimes(1));
    expect(approve.calls[0]!.rawBody).toEqual(approvals({ freelance: true, graphic_design: true }));
  });

  it('disables Select all and Clear while read-only', async () => {
    mockEndpoint(subredditsEndpoints.list, subredditList([FREELANCE]));
    statusSequence([generationStatus()]);
    renderStep({ readOnly: true });
    await screen.findByRole('checkbox', { name: 'r/freelance' });
    expect(screen.getByRole('button', { name: 'Select all' }).hasAttribute('disabled')).toBe(true);
    expect(screen.getByRole('button', { name: 'Clear' }).hasAttribute('disabled')).toBe(true);
  });

  it('needs at least one approved subreddit to continue', async () => {
    mockEndpoint(subredditsEndpoints.list, subredditList([FREELANCE]));
    statusSequence([generationStatus()]);
    const { onApproved } = renderStep();
    await user.click(await screen.findByRole('checkbox', { name: 'r/freelance' }));
    await user.click(screen.getByRole('button', { name: 'Approve & Continue' }));
    expect(await screen.findByText('Please select at least one subreddit to continue')).toBeTruthy();
    expect(sentRequests().filter((r) => r.method === 'POST')).toHaveLength(0);
    expect(onApproved).not.toHaveBeenCalled();
  });

  it('shows Error approving subreddits with the server message', async () => {
    mockEndpoint(subredditsEndpoints.list, subredditList([FREELANCE]));
    statusSequence([generationStatus()]);
    mockEndpoint(subredditsEndpoints.approve, errorReply(404, 'Subreddit not found', 'not_found'));
    const { onApproved } = renderStep();
    await screen.findByRole('checkbox', { name: 'r/freelance' });
    await user.click(screen.getByRole('button', { name: 'Approve & Continue' }));
    const alert = (await screen.findByText('Error approving subreddits')).closest('[role="alert"]');
    expect(alert?.textContent).toContain('Subreddit not found');
    expect(onApproved).not.toHaveBeenCalled();
  });

  it('Skip to Posts and Back move without saving', async () => {
    mockEndpoint(subredditsEndpoints.list, subredditList([]));
    statusSequence([generationStatus()]);
    const { onSkip, onBack } = renderStep();
    expect(await screen.findByText(/No subreddits yet/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Select all' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Skip to Posts' }));
    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(onSkip).toHaveBeenCalledTimes(1);
    expect(onBack).toHaveBeenCalledTimes(1);
  });
});

describe('Step 3 subreddits: bulk add', { timeout: 15_000 }, () => {
  it('cannot be submitted empty', async () => {
    mockEndpoint(subredditsEndpoints.list, subredditList([]));
    statusSequence([generationStatus()]);
    renderStep();
    const add = await screen.findByRole('button', { name: 'Add Subreddits' });
    expect(add.hasAttribute('disabled')).toBe(true);
    await user.type(screen.getByLabelText('Add subreddits'), ' ,  {enter} ,');
    expect(add.hasAttribute('disabled')).toBe(true);
  });

  it('reports a prefix with no name after it instead of dropping it', async () => {
    mockEndpoint(subredditsEndpoints.list, subredditList([]));
    statusSequence([generationStatus()]);
    const bulk = mockEndpoint(subredditsEndpoints.addBulk, ({ body }) => ({
      added_count: 0,
      added: [],
      already_listed: [],
      not_found: [],
      invalid: [body.subreddits].flat(),
    }));
    renderStep();
    await user.type(await screen.findByLabelText('Add subreddits'), 'r/');
    expect(screen.getByText('1 name')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Add Subreddits' }));

    const result = (await screen.findByText('Added 0')).closest('[role="status"]') as HTMLElement;
    expect(bulk.calls[0]!.rawBody).toEqual({ subreddits: ['r/'] });
    expect(within(result).getByText('Not a subreddit name: r/')).toBeTruthy();
  });

  it('sends the names without r/ and shows what was added, already listed, not found and invalid', async () => {
    let items: TSubreddit[] = [];
    mockEndpoint(subredditsEndpoints.list, () => subredditList(items));
    statusSequence([generationStatus()]);
    const bulk = mockEndpoint(subredditsEndpoints.addBulk, () => {
      items = [FREELANCE];
      return {
        added_count: 1,
        added: [FREELANCE],
        already_listed: ['smallbusiness'],
        not_found: ['nosuchsub'],
        invalid: ['not a sub'],
      };
    });
    renderStep();
    const box = await screen.findByLabelText('Add subreddits');
    await user.type(box, 'r/freelance, smallbusiness{enter}/r/nosuchsub{enter}not a sub');
    // Names typed, not subreddits to add: some may be listed already (they are approved again).
    expect(screen.getByText('4 names')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Add Subreddits' }));

    const result = (await screen.findByText('Added 1')).closest('[role="status"]') as HTMLElement;
    expect(bulk.calls[0]!.rawBody).toEqual({
      subreddits: ['freelance', 'smallbusiness', 'nosuchsub', 'not a sub'],
    });
    expect(within(result).getByText('r/freelance')).toBeTruthy();
    expect(within(result).getByText('Already listed: r/smallbusiness')).toBeTruthy();
    expect(within(result).getByText('Not found on Reddit: r/nosuchsub')).toBeTruthy();
    expect(within(result).getByText('Not a subreddit name: not a sub')).toBeTruthy();
    expect((box as HTMLTextAreaElement).value).toBe('');
    // The list reloads with the added subreddit.
    expect(await screen.findByRole('checkbox', { name: 'r/freelance' })).toBeTruthy();
  });

  it('shows Error adding subreddits in bulk with the server message', async () => {
    mockEndpoint(subredditsEndpoints.list, subredditList([]));
    statusSequence([generationStatus()]);
    mockEndpoint(subredditsEndpoints.addBulk, errorReply(400, 'At most 50 names', 'validation_error'));
    renderStep();
    await user.type(await screen.findByLabelText('Add subreddits'), 'freelance');
    await user.click(screen.getByRole('button', { name: 'Add Subreddits' }));
    const alert = (await screen.findByText('Error adding subreddits in bulk')).closest('[role="alert"]');
    expect(alert?.textContent).toContain('At most 50 names');
  });
});

describe('Step 3 subreddits: generation', { timeout: 15_000 }, () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  async function clickGenerateMore() {
    act(() => fireEvent.click(screen.getByRole('button', { name: 'Generate More' })));
    await advance();
  }

  it('Generate More shows the progress, polls until completed and reloads the list', async () => {
    let items = [FREELANCE];
    mockEndpoint(subredditsEndpoints.list, () => subredditList(items));
    const status = statusSequence([generationStatus()]);
    const generate = mockEndpoint(subredditsEndpoints.generate, () => {
      statusSequence([
        generating('suggesting', 1),
        generating('checking subreddits', 3),
        generationStatus({ status: 'completed', duration_seconds: 5 }),
      ]);
      return { data: { status: 'started' as const } };
    });
    renderStep();
    await advance();
    expect(status.calls).toHaveLength(1);
    expect(screen.queryByRole('status', { name: 'Generating subreddits...' })).toBeNull();

    await clickGenerateMore();
    expect(generate.calls).toHaveLength(1);
    const progress = screen.getByRole('status', { name: 'Generating subreddits...' });
    expect(progress.textContent).toContain('Phase: suggesting · 1 s');
    expect(screen.getByRole('button', { name: 'Generate More' }).hasAttribute('disabled')).toBe(true);

    await advance(RUN_POLL_INTERVAL_MS);
    expect(screen.getByRole('status', { name: 'Generating subreddits...' }).textContent).toContain(
      'Phase: checking subreddits · 3 s',
    );

    items = [FREELANCE, DESIGN];
    await advance(RUN_POLL_INTERVAL_MS);
    expect(screen.queryByRole('status', { name: 'Generating subreddits...' })).toBeNull();
    expect(screen.getByText('Subreddit generation completed')).toBeTruthy();
    expect(screen.getByRole('checkbox', { name: 'r/graphic_design' })).toBeTruthy();

    // Polling stopped.
    const polls = sentRequests().filter((r) => r.url.pathname.endsWith('/subreddits/status')).length;
    await advance(RUN_POLL_INTERVAL_MS * 3);
    expect(sentRequests().filter((r) => r.url.pathname.endsWith('/subreddits/status'))).toHaveLength(polls);
  });

  it.each([
    ['the server error', 'No subreddit matched', 'Subreddit generation failed: No subreddit matched'],
    ['Unknown error without one', null, 'Subreddit generation failed: Unknown error'],
  ])('a failed generation shows %s', async (_name, error, text) => {
    mockEndpoint(subredditsEndpoints.list, subredditList([]));
    statusSequence([generationStatus()]);
    mockEndpoint(subredditsEndpoints.generate, () => {
      statusSequence([generating('suggesting', 1), generationStatus({ status: 'failed', error })]);
      return { data: { status: 'started' as const } };
    });
    renderStep();
    await advance();
    await clickGenerateMore();
    expect(screen.getByRole('status', { name: 'Generating subreddits...' })).toBeTruthy();
    await advance(RUN_POLL_INTERVAL_MS);
    expect(alerts()).toContain(text);
    expect(screen.queryByRole('status', { name: 'Generating subreddits...' })).toBeNull();
  });

  it('gives up after 5 minutes with the timeout text', async () => {
    mockEndpoint(subredditsEndpoints.list, subredditList([]));
    statusSequence([generationStatus()]);
    mockEndpoint(subredditsEndpoints.generate, () => {
      statusSequence([generating('suggesting', 1)]);
      return { data: { status: 'started' as const } };
    });
    renderStep();
    await advance();
    await clickGenerateMore();
    await advance(RUN_POLL_TIMEOUT_MS - RUN_POLL_INTERVAL_MS);
    expect(alerts()).not.toContain('Generation timeout - please refresh and check status');
    expect(screen.getByRole('status', { name: 'Generating subreddits...' })).toBeTruthy();

    await advance(RUN_POLL_INTERVAL_MS * 2);
    expect(alerts()).toContain('Generation timeout - please refresh and check status');
    expect(screen.queryByRole('status', { name: 'Generating subreddits...' })).toBeNull();
    const polls = sentRequests().length;
    await advance(RUN_POLL_INTERVAL_MS * 3);
    expect(sentRequests()).toHaveLength(polls);
  });

  it('stops with Error checking generation status when a status call fails', async () => {
    mockEndpoint(subredditsEndpoints.list, subredditList([]));
    statusSequence([generationStatus()]);
    mockEndpoint(subredditsEndpoints.generate, () => {
      mockEndpoint(subredditsEndpoints.status, errorReply(500, 'database down', 'internal'));
      return { data: { status: 'started' as const } };
    });
    renderStep();
    await advance();
    await clickGenerateMore();
    expect(alerts()).toContain('Error checking generation status');
  });

  it('on 409 says a generation is already running and follows it', async () => {
    mockEndpoint(subredditsEndpoints.list, subredditList([]));
    statusSequence([generationStatus()]);
    mockEndpoint(subredditsEndpoints.generate, () => {
      statusSequence([generating('checking subreddits', 40)]);
      return errorReply(409, 'Subreddit generation is already in progress for this project', 'conflict');
    });
    renderStep();
    await advance();
    await clickGenerateMore();
    expect(alerts()).toContain('Subreddit generation is already in progress for this project');
    expect(screen.getByRole('status', { name: 'Generating subreddits...' }).textContent).toContain(
      'checking subreddits · 40 s',
    );
  });

  it.each([
    [
      'a server error',
      () => errorReply(500, 'AI engine unavailable', 'internal'),
      'Error starting subreddit generation',
      'AI engine unavailable',
    ],
    [
      'an answer other than started',
      () => HttpResponse.json({ data: { status: 'queued' } }),
      'Unexpected response from server',
      null,
    ],
  ])('starting shows %s', async (_name, answer, title, detail) => {
    mockEndpoint(subredditsEndpoints.list, subredditList([]));
    statusSequence([generationStatus()]);
    mockEndpoint(subredditsEndpoints.generate, answer);
    renderStep();
    await advance();
    await clickGenerateMore();
    const alert = screen.getByText(title).closest('[role="alert"]');
    if (detail) expect(alert?.textContent).toContain(detail);
    expect(screen.queryByRole('status', { name: 'Generating subreddits...' })).toBeNull();
  });

  it('follows a generation already running when the step opens, and says nothing of an old failure', async () => {
    mockEndpoint(subredditsEndpoints.list, subredditList([]));
    statusSequence([generating('suggesting', 12), generationStatus({ status: 'completed' })]);
    const first = renderStep();
    await advance();
    expect(screen.getByRole('status', { name: 'Generating subreddits...' })).toBeTruthy();
    await advance(RUN_POLL_INTERVAL_MS);
    expect(screen.getByText('Subreddit generation completed')).toBeTruthy();
    expect(first.onApproved).not.toHaveBeenCalled();
  });

  it('says the list is empty only once no generation is filling it, and that none was found after one', async () => {
    mockEndpoint(subredditsEndpoints.list, subredditList([]));
    statusSequence([generating('starting', 0), generationStatus({ status: 'completed' })]);
    renderStep();
    await advance();
    expect(screen.getByRole('status', { name: 'Generating subreddits...' })).toBeTruthy();
    expect(screen.queryByText(/No subreddits yet/)).toBeNull();
    await advance(RUN_POLL_INTERVAL_MS);
    expect(screen.queryByRole('status', { name: 'Generating subreddits...' })).toBeNull();
    expect(screen.getByText(SUBREDDIT_MESSAGES.noneFound)).toBeTruthy();
    expect(screen.queryByText(/No subreddits yet/)).toBeNull();
  });

  it('an old failed generation is not shown when the step opens by itself', async () => {
    mockEndpoint(subredditsEndpoints.list, subredditList([]));
    statusSequence([generationStatus({ status: 'failed', error: 'old failure' })]);
    renderStep();
    await advance();
    expect(alerts()).toEqual([]);
  });

  it('after Approve & Continue in step 2, a generation that failed at once is shown', async () => {
    mockEndpoint(subredditsEndpoints.list, subredditList([]));
    statusSequence([generationStatus({ status: 'failed', error: 'No approved keywords' })]);
    renderStep({ watchGeneration: true });
    expect(screen.getByRole('status', { name: 'Generating subreddits...' })).toBeTruthy();
    await advance();
    expect(alerts()).toContain('Subreddit generation failed: No approved keywords');
  });
});
