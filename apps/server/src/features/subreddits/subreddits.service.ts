import {
  BULK_SUBREDDITS_MAX,
  EMPTY_BULK_SUBREDDITS,
  NO_APPROVED_KEYWORDS,
  NO_SUBREDDIT_SELECTED,
  SUBREDDITS_PER_PROJECT_MAX,
  ZSubredditName,
  splitSubredditNames,
  type TAddSubredditsBulkRequest,
  type TAddSubredditsBulkResponse,
  type TApproveSubredditsRequest,
  type TApproveSubredditsResponse,
  type TPageQuery,
  type TSubredditGenerationStatus,
  type TSubredditList,
} from '@threadreach/contract';
import type { AppContext } from '../../context';
import { AppError, badRequest, notFound } from '../../http/errors';
import {
  RedditApiError,
  RedditAuthError,
  RedditUnavailableError,
  type RedditApi,
  type TRedditSubreddit,
} from '../../integrations/reddit';
import type { JobQueue } from '../../jobs/queue';
import { searchRedditClient } from '../credentials';
import { requestDiscoveryCycle } from '../discovery';
import { findRun, finishRun, presentRun, startRun } from '../projects';
import { generateSubredditsJob } from './generate-subreddits.job';
import { TOO_MANY_SUBREDDITS } from './subreddit-generation';
import { presentSubreddit } from './subreddits.presenter';
import {
  approveSubredditRows,
  countSubreddits,
  hasApprovedKeywords,
  insertSubreddits,
  listAllSubreddits,
  listSubredditPage,
  lockProjectSubreddits,
  unapproveSubredditRows,
} from './subreddits.repository';

/** Reddit lookups of one bulk add run this many at a time. */
const LOOKUP_CONCURRENCY = 5;

/** Step 3's list: approved subreddits first, then the most relevant suggestions. */
export async function listSubreddits(
  ctx: AppContext,
  projectId: string,
  page: TPageQuery,
): Promise<TSubredditList> {
  const { rows, total } = await listSubredditPage(ctx.db, projectId, page);
  return { items: rows.map(presentSubreddit), total, limit: page.limit, offset: page.offset };
}

export async function getGenerationStatus(
  ctx: AppContext,
  projectId: string,
): Promise<TSubredditGenerationStatus> {
  return presentRun(await findRun(ctx.db, projectId, 'subreddits'), 'generating', new Date(ctx.clock.now()));
}

/** The job queue, or 503 on a server that runs none (JOBS_ENABLED=false): generation could never start. */
function requireJobQueue(ctx: AppContext): JobQueue {
  if (!ctx.queue) {
    throw new AppError(
      503,
      'jobs_unavailable',
      'Background jobs are not running on this server; subreddit generation cannot start.',
    );
  }
  return ctx.queue;
}

/**
 * Refuses, before anything is written, a generation that could not start whatever the keywords: a server
 * without a job queue (503), or a project whose subreddit list is full (400).
 */
export async function checkGenerationCanStart(ctx: AppContext, projectId: string): Promise<JobQueue> {
  const queue = requireJobQueue(ctx);
  if ((await countSubreddits(ctx.db, projectId)) >= SUBREDDITS_PER_PROJECT_MAX) {
    throw badRequest(TOO_MANY_SUBREDDITS, 'too_many_subreddits');
  }
  return queue;
}

/**
 * Starts suggesting subreddits for the project's approved keywords: 'started', or 'running' when a
 * generation is already under way (the route answers that with 409). The work runs in the
 * generate-subreddits job; the status call follows it.
 */
export async function startSubredditGeneration(
  ctx: AppContext,
  projectId: string,
): Promise<'started' | 'running'> {
  const queue = await checkGenerationCanStart(ctx, projectId);
  if (!(await hasApprovedKeywords(ctx.db, projectId))) {
    throw badRequest(NO_APPROVED_KEYWORDS, 'no_approved_keywords');
  }
  const now = new Date(ctx.clock.now());
  const run = await startRun(ctx.db, projectId, 'subreddits', now);
  if (!run) return 'running';
  try {
    // Null means an equal job is already waiting: it will take this run.
    await queue.enqueue(generateSubredditsJob, { projectId }, { singletonKey: projectId });
  } catch (error) {
    await finishRun(
      ctx.db,
      run,
      { status: 'failed', error: 'Subreddit generation could not be queued' },
      now,
    );
    throw error;
  }
  return 'started';
}

/** The names of the bulk box (see splitSubredditNames), those that cannot be subreddit names apart. */
export function parseSubredditNames(input: string | string[]): { names: string[]; invalid: string[] } {
  const names: string[] = [];
  const invalid: string[] = [];
  for (const name of splitSubredditNames(input)) {
    (ZSubredditName.safeParse(name).success ? names : invalid).push(name);
  }
  return { names, invalid };
}

/** Reddit's page of a subreddit, or null when it does not exist, is private or banned. */
async function lookUp(api: RedditApi, name: string): Promise<TRedditSubreddit | null> {
  try {
    const about = await api.aboutSubreddit(name);
    if (!about || about.subreddit_type === 'private' || about.subreddit_type === 'user') return null;
    return about;
  } catch (error) {
    // Private, quarantined and banned subreddits answer 403 (or 404, which is null already).
    if (error instanceof RedditApiError && (error.status === 403 || error.status === 404)) return null;
    if (error instanceof RedditUnavailableError || error instanceof RedditAuthError) {
      throw new AppError(502, 'reddit_unavailable', 'Reddit could not be reached; please try again.');
    }
    throw error;
  }
}

async function lookUpAll(api: RedditApi, names: string[]): Promise<(TRedditSubreddit | null)[]> {
  const found: (TRedditSubreddit | null)[] = new Array(names.length).fill(null);
  let next = 0;
  const worker = async () => {
    while (next < names.length) {
      const i = next++;
      found[i] = await lookUp(api, names[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(LOOKUP_CONCURRENCY, names.length) }, worker));
  return found;
}

/**
 * Adds subreddits the customer named, approved: each is looked up on Reddit first and stored as Reddit
 * spells it, with its description and members. Names Reddit does not know (or that are private or
 * banned) are reported in `not_found` and never stored; names already listed are approved and reported.
 */
export async function addSubredditsBulk(
  ctx: AppContext,
  projectId: string,
  input: TAddSubredditsBulkRequest,
): Promise<TAddSubredditsBulkResponse> {
  const { names, invalid } = parseSubredditNames(input.subreddits);
  if (names.length === 0 && invalid.length === 0) throw badRequest(EMPTY_BULK_SUBREDDITS, 'empty_input');
  if (names.length + invalid.length > BULK_SUBREDDITS_MAX) {
    throw badRequest(`At most ${BULK_SUBREDDITS_MAX} names at a time`, 'too_many_names');
  }

  const listed = new Map((await listAllSubreddits(ctx.db, projectId)).map((s) => [s.name.toLowerCase(), s]));
  const toLookUp = names.filter((n) => !listed.has(n.toLowerCase()));
  // Checked before asking Reddit, so a refused request spends none of the budget.
  if (listed.size + toLookUp.length > SUBREDDITS_PER_PROJECT_MAX) {
    throw badRequest(TOO_MANY_SUBREDDITS, 'too_many_subreddits');
  }
  const found = toLookUp.length ? await lookUpAll((await searchRedditClient(ctx)).app, toLookUp) : [];
  const missing = toLookUp.filter((_, i) => !found[i]);
  const now = new Date(ctx.clock.now());

  const answer = await ctx.db.transaction(async (tx) => {
    await lockProjectSubreddits(tx, projectId);
    const alreadyListed = names.map((n) => listed.get(n.toLowerCase())).filter((s) => s !== undefined);
    await approveSubredditRows(
      tx,
      projectId,
      alreadyListed.map((s) => s.id),
      now,
    );
    const subreddits = found.filter((s) => s !== null);
    const added = await insertSubreddits(
      tx,
      projectId,
      subreddits.map((s) => ({
        name: s.display_name,
        description: s.public_description || s.title,
        estimatedMembers: Math.max(0, Math.round(s.subscribers ?? 0)),
        // The customer's own choice.
        relevanceScore: 1,
        source: 'manual' as const,
        approved: true,
        approvedAt: now,
      })),
    );
    const addedNames = new Set(added.map((s) => s.name.toLowerCase()));
    // Added by a request that ran at the same moment.
    const raced = subreddits.filter((s) => !addedNames.has(s.display_name.toLowerCase()));
    return {
      added_count: added.length,
      added: added.map(presentSubreddit),
      already_listed: [...alreadyListed.map((s) => s.name), ...raced.map((s) => s.display_name)],
      not_found: missing,
      invalid,
    };
  });
  // Newly approved subreddits get their first backfill in the next cycle; ask for it now.
  if (answer.added_count > 0 || answer.already_listed.length > 0) await requestDiscoveryCycle(ctx);
  return answer;
}

/**
 * "Approve & Continue" in step 3: approval per listed subreddit, in one transaction. Every id must be one
 * of the project's subreddits (otherwise 404 and nothing changes), and the project must be left with at
 * least one approved (those not named keep theirs).
 * Newly approved subreddits get `approved_at`; the discovery engine backfills those it has not yet.
 */
export async function approveSubreddits(
  ctx: AppContext,
  projectId: string,
  input: TApproveSubredditsRequest,
): Promise<TApproveSubredditsResponse> {
  const wanted = new Map(input.subreddits.map((s) => [s.id, s.approved]));
  const now = new Date(ctx.clock.now());
  const answer = await ctx.db.transaction(async (tx) => {
    await lockProjectSubreddits(tx, projectId);
    const own = new Set((await listAllSubreddits(tx, projectId)).map((s) => s.id));
    if ([...wanted.keys()].some((id) => !own.has(id))) throw notFound('Subreddit not found');
    const ids = (approved: boolean) => [...wanted].filter(([, a]) => a === approved).map(([id]) => id);
    await approveSubredditRows(tx, projectId, ids(true), now);
    await unapproveSubredditRows(tx, projectId, ids(false));
    const rows = await listAllSubreddits(tx, projectId);
    const approvedCount = rows.filter((s) => s.approved).length;
    // The project must keep one approved subreddit; those not named keep their approval.
    if (approvedCount === 0) throw badRequest(NO_SUBREDDIT_SELECTED, 'no_subreddit_selected');
    return { approved_count: approvedCount, subreddits: rows.map(presentSubreddit) };
  });
  // Newly approved subreddits get their first backfill in the next cycle; ask for it now.
  await requestDiscoveryCycle(ctx);
  return answer;
}
