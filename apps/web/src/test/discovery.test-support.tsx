import type { ReactElement } from 'react';
import { act, render } from '@testing-library/react';
import { vi } from 'vitest';
import {
  isWithheldOutcome,
  type TComment,
  type TDmGenerationStatus,
  type TDmMessage,
  type TKeyword,
  type TKeywordList,
  type TPost,
  type TProfile,
  type TProject,
  type TSearchStatus,
  type TSendingItem,
  type TSendingStatus,
  type TSubreddit,
  type TSubredditGenerationStatus,
  type TSubredditList,
} from '@threadreach/contract';
import { AppProviders } from '../app/app-providers';
import { requestsInFlight } from './api-mock.test-support';
import { AI_SUBSCRIPTION_REQUIRED, AiBlockReasonProvider } from '../features/auth';
import { setToken } from '../lib/token-storage';
import { testQueryClient } from './render-app';
import { makeToken, type TTestClaims } from './tokens';

/** Test data of steps 2-4; each builder makes a complete, valid object. */
export const PROJECT_ID = '0d9a3c52-6f4e-4b1a-9c3d-5e6f7a8b9c0d';

let seq = 0;
/** A new valid UUID for each call. */
export function uuid(): string {
  seq += 1;
  return `00000000-0000-4000-8000-${seq.toString(16).padStart(12, '0')}`;
}

export function buildProject(overrides: Partial<TProject> = {}): TProject {
  return {
    id: PROJECT_ID,
    user_id: 'user-1',
    name: 'Designer bookkeeping',
    description: null,
    without_keywords: false,
    created_at: '2030-01-01T00:00:00Z',
    updated_at: '2030-01-01T00:00:00Z',
    ...overrides,
  };
}

export function buildKeyword(overrides: Partial<TKeyword> = {}): TKeyword {
  return { id: uuid(), keyword: 'bookkeeping app', type: 'product', approved: false, ...overrides };
}

export function keywordList(items: TKeyword[], filters: Partial<TKeywordList['filters']> = {}): TKeywordList {
  return {
    items,
    total: items.length,
    limit: 200,
    offset: 0,
    filters: { negative_keywords: [], excluded_subreddits: [], excluded_authors: [], ...filters },
  };
}

export function buildSubreddit(overrides: Partial<TSubreddit> = {}): TSubreddit {
  return {
    id: uuid(),
    subreddit_name: 'freelance',
    description: 'A place for freelancers',
    estimated_members: 12345,
    relevance_score: 0.82,
    approved: false,
    ...overrides,
  };
}

export function subredditList(items: TSubreddit[]): TSubredditList {
  return { items, total: items.length, limit: 200, offset: 0 };
}

const RUN_DEFAULTS = {
  error: null,
  started_at: null,
  finished_at: null,
  duration_seconds: null,
  progress: null,
};

export function generationStatus(
  overrides: Partial<TSubredditGenerationStatus> = {},
): TSubredditGenerationStatus {
  return { status: 'idle', ...RUN_DEFAULTS, ...overrides };
}

export function searchStatus(overrides: Partial<TSearchStatus> = {}): TSearchStatus {
  return { status: 'idle', ...RUN_DEFAULTS, result: null, ...overrides };
}

const LEAD_DEFAULTS = {
  author: 'designer_dan',
  subreddit: 'freelance',
  score: 12,
  created_utc: '2030-01-01T00:00:00Z',
  found_at: '2030-01-01T00:01:00Z',
  account_age_days: 800,
  comment_karma: 1520,
  account_unavailable: false,
  too_old_to_message: false,
  matched_keywords: [] as string[],
  matches: [] as TPost['matches'],
  intent_score: 72,
  intent_reasons: ['Asks for a tool recommendation'],
  has_dm: false,
};

export function buildPost(overrides: Partial<TPost> = {}): TPost {
  const id = uuid();
  return {
    id,
    reddit_id: `t3_${id.slice(-6)}`,
    permalink: `/r/freelance/comments/${id.slice(-6)}/post/`,
    title: 'Any bookkeeping app for freelancers?',
    content: 'I do my own taxes every quarter.',
    ...LEAD_DEFAULTS,
    ...overrides,
  };
}

export function buildComment(overrides: Partial<TComment> = {}): TComment {
  const id = uuid();
  return {
    id,
    reddit_id: `t1_${id.slice(-6)}`,
    permalink: `/r/freelance/comments/abc/post/${id.slice(-6)}/`,
    content: 'Looking for an invoice tool too.',
    post_title: 'Tools thread',
    ...LEAD_DEFAULTS,
    ...overrides,
  };
}

export function buildProfile(overrides: Partial<TProfile> = {}): TProfile {
  return {
    id: uuid(),
    reddit_username: 'designer_dan',
    bio_content: 'Freelance designer in Austin.',
    has_dm: false,
    account_age_days: 800,
    comment_karma: 1520,
    account_unavailable: false,
    matched_keywords: ['invoice'],
    intent_score: 55,
    intent_reasons: ['Complains about a problem'],
    lead_count: 2,
    found_at: '2030-01-01T00:01:00Z',
    ...overrides,
  };
}

export function dmGenerationStatus(overrides: Partial<TDmGenerationStatus> = {}): TDmGenerationStatus {
  return { status: 'idle', ...RUN_DEFAULTS, total: null, result: null, ...overrides };
}

export function buildDm(overrides: Partial<TDmMessage> = {}): TDmMessage {
  const id = uuid();
  const text = overrides.message_content ?? 'Hi! Saw your post about bookkeeping apps. Want to try ours?';
  return {
    id,
    project_id: PROJECT_ID,
    message_content: text,
    original_content: text,
    edited: false,
    edited_at: null,
    state: 'approved',
    sent: false,
    approved: true,
    source_type: 'post',
    recipient_username: 'designer_dan',
    subject: 'Re: Any bookkeeping app for freelancers?',
    post_id: uuid(),
    comment_id: null,
    profile_id: null,
    reddit_post_id: `t3_${id.slice(-6)}`,
    post_title: 'Any bookkeeping app for freelancers?',
    comment_content: null,
    subreddit: 'freelance',
    matched_keywords: ['bookkeeping app'],
    variant: 0,
    scheduled_for: null,
    sent_at: null,
    failed_at: null,
    outcome_code: null,
    outcome_reason: null,
    replied_at: null,
    do_not_contact: null,
    already_answered: null,
    lead_expired: null,
    created_at: '2030-01-01T00:02:00Z',
    generated_at: '2030-01-01T00:02:00Z',
    updated_at: '2030-01-01T00:02:00Z',
    ...overrides,
  };
}

export function buildSendingItem(overrides: Partial<TSendingItem> = {}): TSendingItem {
  return {
    id: uuid(),
    project_id: PROJECT_ID,
    recipient_username: 'designer_dan',
    state: 'queued',
    account_id: uuid(),
    account_username: 'demo_founder',
    scheduled_for: '2030-01-02T09:00:00Z',
    claimed_at: null,
    sent_at: null,
    failed_at: null,
    outcome_code: null,
    outcome_reason: null,
    attempts: 0,
    updated_at: '2030-01-01T00:02:00Z',
    ...overrides,
  };
}

/**
 * The sending status of these DMs: counts from their states (and outcomes: failed ones held back because of
 * their person apart), the earliest queued one next;
 * `queuedByAgent` of the queued ones are the agent's.
 */
export function sendingStatus(
  items: TSendingItem[] = [],
  total = items.length,
  queuedByAgent = 0,
): TSendingStatus {
  const counts = {
    queued: 0,
    sending: 0,
    sent: 0,
    failed: 0,
    withheld: 0,
    unknown: 0,
    delivery_unknown: 0,
    queued_by_agent: queuedByAgent,
  };
  for (const item of items) {
    if (item.state === 'failed' && isWithheldOutcome(item.outcome_code)) counts.withheld++;
    else counts[item.state]++;
    if (item.state === 'unknown' && item.outcome_code === 'account_removed') counts.delivery_unknown++;
  }
  const queued = items.filter((i) => i.state === 'queued' && i.scheduled_for).map((i) => i.scheduled_for!);
  const next_scheduled_for = queued.sort()[0] ?? null;
  return { items, total, limit: 20, offset: 0, counts, next_scheduled_for, next_wait: null };
}

export function page<T>(items: T[], total = items.length, limit = 20, offset = 0) {
  return { items, total, limit, offset };
}

/**
 * A page of the DM list: those of its DMs still approved are the project's ready to send, but for those the
 * list says cannot be sent (their person on the do-not-contact list or answered before, their lead too old).
 */
export function dmPage(dms: TDmMessage[]) {
  const ready = dms.filter(
    (dm) => dm.state === 'approved' && !dm.do_not_contact && !dm.already_answered && !dm.lead_expired,
  );
  return { ...page(dms), ready_to_send: ready.length };
}

/** Renders one screen with the app's providers, signed in as a subscriber unless `claims` say otherwise. */
/** A screen as the workspace shows it to a customer whose plan lapsed: AI generation is disabled. */
export function withoutAiSubscription(ui: ReactElement): ReactElement {
  return <AiBlockReasonProvider value={AI_SUBSCRIPTION_REQUIRED}>{ui}</AiBlockReasonProvider>;
}

export function renderScreen(ui: ReactElement, claims: TTestClaims = {}) {
  setToken(makeToken(claims));
  return render(<AppProviders queryClient={testQueryClient()}>{ui}</AppProviders>);
}

/**
 * Moves the fake clock by `ms` and lets everything it released settle: timers, promises, and the
 * mocked network (which answers on real macrotasks and a few timers of its own), 1 ms of fake time
 * per round. A loaded machine may answer later than that: then its answers, and the requests they set
 * off, are waited for with the clock standing.
 */
export async function advance(ms = 0): Promise<void> {
  const round = (step: number) =>
    act(async () => {
      await new Promise((resolve) => setImmediate(resolve));
      await vi.advanceTimersByTimeAsync(step);
    });
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
  for (let i = 0; i < 40; i++) await round(1);
  // Until 40 rounds in a row pass with no request unanswered: an answer may set off the next request.
  let quiet = requestsInFlight() > 0 ? 0 : 40;
  for (let n = 0; quiet < 40 && n < 2000; n++) {
    await round(0);
    quiet = requestsInFlight() > 0 ? 0 : quiet + 1;
  }
}
