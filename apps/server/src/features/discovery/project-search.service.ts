import { z } from 'zod';
import {
  ENHANCED_SEARCH_LIMIT,
  NO_APPROVED_KEYWORDS,
  NO_APPROVED_SUBREDDITS,
  POST_SEARCH_RUNNING,
  SEARCH_RUNNING,
  ZSearchResultCounts,
  type TRunProgress,
  type TSearchResultCounts,
  type TSearchStatus,
} from '@threadreach/contract';
import type { AppContext } from '../../context';
import type { DbOrTx } from '../../db/client';
import { AppError, badRequest } from '../../http/errors';
import {
  RedditApiError,
  RedditBudgetExhaustedError,
  RedditResponseShapeError,
  RedditUnavailableError,
  WAITING_FOR_REDDIT_BUDGET,
  WAITING_FOR_REDDIT_PAUSE,
} from '../../integrations/reddit';
import {
  failRunningRun,
  findRun,
  finishRun,
  presentRun,
  startRun,
  updateRunProgress,
  type ProjectRunRow,
  type RunRef,
} from '../projects';
import { readBackfill } from './backfill';
import {
  authorsToEnrich,
  closeSearch,
  countApprovals,
  failOpenSearch,
  GROUP_SIZE,
  loadProjectRules,
  openSearch,
  pendingBackfills,
  writePage,
  type StreamKind,
} from './discovery.repository';
import { enrichAuthors } from './enrich-authors';
import { matchItems } from './match-items';
import { scoreWithAi } from './score-with-ai';
import { compileMatcher } from './matcher';
import { NoSearchCredentialError, RedditReader, type ListedItem } from './reddit-reader';

/** What a search was asked to do, kept with its run so a resumed job does the same. */
export const ZProjectSearchOptions = z.object({
  trigger: z.enum(['enhanced', 'posts', 'agent']),
  include_posts: z.boolean(),
  include_comments: z.boolean(),
  include_profiles: z.boolean(),
  persist_posts: z.boolean(),
  limit: z.number().int().min(1).max(ENHANCED_SEARCH_LIMIT),
});
export type TProjectSearchOptions = z.infer<typeof ZProjectSearchOptions>;

/** First backfills one search may run; the cycle does the rest. */
const SEARCH_BACKFILLS_MAX = 25;
/**
 * Authors a search reads of each kind of lead it found, those of the newest first: the Posts and Comments
 * lists open on their newest leads, each showing its author's account age and karma. The cycle reads the
 * rest (20 a minute); an author read once is not read again, so this mostly moves requests earlier. Kept
 * to the first screenful, as they share the credential's 100 requests a minute with every search.
 */
const SEARCH_AUTHORS_PER_KIND = 10;

/**
 * Checks that the project can be searched and marks its search as running: 400 without approved keywords
 * (unless it takes every post) or subreddits, 409 while one runs. The caller queues the work.
 */
export async function startProjectSearch(
  ctx: AppContext,
  project: { id: string; withoutKeywords: boolean },
  options: TProjectSearchOptions,
): Promise<RunRef> {
  const approvals = await countApprovals(ctx.db, project.id);
  if (!project.withoutKeywords && approvals.keywords === 0) {
    throw badRequest(NO_APPROVED_KEYWORDS, 'no_approved_keywords');
  }
  if (approvals.subreddits === 0) throw badRequest(NO_APPROVED_SUBREDDITS, 'no_approved_subreddits');
  if (!ctx.queue) {
    throw new AppError(
      503,
      'jobs_unavailable',
      'Searches cannot run: background jobs are off on this server.',
    );
  }
  const now = new Date(ctx.clock.now());
  const run = await ctx.db.transaction(async (tx) => {
    // Locked, so the run read is the one a takeover below replaces: a start at the same instant waits.
    const previous = await findRun(tx, project.id, 'search', { lock: true });
    const started = await startRun(tx, project.id, 'search', now, options);
    // A running search is replaced only once its worker went silent: it died, and its entry among the
    // project's searches would otherwise stay running for good.
    if (started && previous?.status === 'running') await closeSearchOf(tx, previous, previous.heartbeatAt);
    return started;
  });
  if (!run) {
    throw options.trigger === 'posts'
      ? new AppError(409, 'post_search_running', POST_SEARCH_RUNNING)
      : new AppError(409, 'search_running', SEARCH_RUNNING);
  }
  return run;
}

/** The status calls: the project's running or last search, with its counts once completed. */
export async function getSearchStatus(ctx: AppContext, projectId: string): Promise<TSearchStatus> {
  const row = await findRun(ctx.db, projectId, 'search');
  const status = presentRun(row, 'searching', new Date(ctx.clock.now()));
  const counts = ZSearchResultCounts.safeParse(row?.result);
  return { ...status, result: status.status === 'completed' && counts.success ? counts.data : null };
}

/**
 * Whether the project's search is the agent's, still running: left for its next attempt after Reddit did
 * not answer (or by a run that died). The agent runs one at a time, so no other run is reading it.
 */
export async function agentSearchRunning(ctx: AppContext, projectId: string): Promise<boolean> {
  const run = await findRun(ctx.db, projectId, 'search');
  if (run?.status !== 'running') return false;
  const options = ZProjectSearchOptions.safeParse(run.options);
  return options.success && options.data.trigger === 'agent';
}

/**
 * Ends the agent's own search, left running for a scheduled run to take up, once the agent is stopped: it
 * fails with `error`, so the customer's own search may start at once instead of waiting for it to go
 * stale. A search the customer started is never touched. `db` may be the transaction that stops the
 * agent. Whether a search was ended.
 */
export async function endAgentSearch(
  db: DbOrTx,
  projectId: string,
  error: string,
  now: Date,
): Promise<boolean> {
  const trigger = 'agent' satisfies TProjectSearchOptions['trigger'];
  const startedAt = await failRunningRun(db, projectId, 'search', { trigger }, error, now);
  if (!startedAt) return false;
  // Its record among the project's searches, opened by its first attempt, ends with it.
  await failOpenSearch(db, projectId, trigger, startedAt, now);
  return true;
}

/**
 * Marks a search that could not even be queued (or whose next attempt could not be) as failed, so its
 * status does not stay 'searching', nor its entry among the project's searches 'running'. A search
 * replaced meanwhile is left alone.
 */
export async function failProjectSearch(ctx: AppContext, run: RunRef, error: string): Promise<void> {
  const now = new Date(ctx.clock.now());
  await ctx.db.transaction(async (tx) => {
    const ended = await finishRun(tx, run, { status: 'failed', error }, now);
    if (ended) await closeSearchOf(tx, ended, now);
  });
}

/**
 * Fails the entry among the project's searches of a search's run, `at` its end, if the search's first
 * attempt opened one and nothing closed it. A run whose settings cannot be read never opened one.
 */
async function closeSearchOf(db: DbOrTx, run: ProjectRunRow, at: Date): Promise<void> {
  const options = ZProjectSearchOptions.pick({ trigger: true }).safeParse(run.options);
  if (options.success) await failOpenSearch(db, run.projectId, options.data.trigger, run.startedAt, at);
}

class SearchFailure extends Error {
  override name = 'SearchFailure';
}

/** How a search's run ended: done (completed or failed), or left running for another attempt then. */
export type SearchRunOutcome = { kind: 'done' } | { kind: 'again'; run: RunRef; retryAtMs: number };

/**
 * The work of one project's search, run by its job: first backfills of the project's subreddits that
 * never had one, then the newest posts (and comments) of its approved subreddits, matched for this
 * project only. Leads are written as they are found (none in a dry run) and progress follows each read.
 * A spent budget (or a pause Reddit asked for) leaves the run running and rethrows, so the job is
 * rescheduled for when it frees; without `job` the run fails, saying when to search again, and rethrows.
 * `job.attempt` is the job's how-manyth run: when Reddit does not answer (a 5xx or a broken connection)
 * before the last attempt, the run stays running and the outcome names when to try again, for the job
 * to queue its next attempt (the agent's scheduled run passes its own). Without `job` (a run that cannot
 * come back: the agent's Execute) it fails.
 */
export async function runProjectSearch(
  ctx: AppContext,
  projectId: string,
  job?: { attempt: number },
): Promise<SearchRunOutcome> {
  const done = { kind: 'done' } as const;
  const run = await findRun(ctx.db, projectId, 'search');
  if (!run || run.status !== 'running') return done;
  const parsed = ZProjectSearchOptions.safeParse(run.options);
  if (!parsed.success) {
    await failProjectSearch(ctx, run, 'The search settings could not be read; please start it again');
    return done;
  }
  const options = parsed.data;
  const now = () => new Date(ctx.clock.now());
  const searchId = await openSearch(ctx.db, projectId, options.trigger, run.startedAt);
  const progress: TRunProgress = { phase: 'starting', items_read: 0, leads_found: 0 };
  const found = { posts: new Set<string>(), comments: new Set<string>(), authors: new Set<string>() };
  /** Each author with the time of their newest matched post, and comment: the order authors are read in. */
  const newestBy = { t3: new Map<string, number>(), t1: new Map<string, number>() };
  let reader: RedditReader | null = null;
  const report = (phase = progress.phase) => {
    progress.phase = phase;
    progress.leads_found = found.posts.size + found.comments.size;
    return updateRunProgress(ctx.db, run, { ...progress }, now());
  };
  const counts = (): TSearchResultCounts => ({
    posts_found: options.include_posts ? found.posts.size : 0,
    comments_found: options.include_comments ? found.comments.size : 0,
    profiles_found: options.include_profiles ? found.authors.size : 0,
  });
  const close = (status: 'completed' | 'failed') =>
    closeSearch(
      ctx.db,
      searchId,
      {
        status,
        postsFound: counts().posts_found,
        commentsFound: counts().comments_found,
        profilesFound: counts().profiles_found,
        requests: reader?.requests ?? 0,
      },
      now(),
    );

  try {
    const [rules] = await loadProjectRules(ctx.db, projectId);
    if (!rules) throw new SearchFailure('The project has no approved keywords or subreddits any more');
    reader = await RedditReader.forSearch(ctx, { attempt: job?.attempt ?? 1 });
    if (!reader.usable) throw new NoSearchCredentialError();
    const matcher = compileMatcher([rules]);
    const take = async (listed: ListedItem[], backfilledSubredditIds: string[] = []) => {
      const matched = await scoreWithAi(ctx, matchItems(matcher, listed, now()));
      if (options.persist_posts) {
        await writePage(
          ctx.db,
          { items: matched.items, leads: matched.leads, backfilledSubredditIds },
          now(),
        );
      }
      for (const item of matched.items) {
        (item.kind === 't3' ? found.posts : found.comments).add(item.name);
        found.authors.add(item.author);
        const newest = item.kind === 't3' ? newestBy.t3 : newestBy.t1;
        newest.set(item.author, Math.max(newest.get(item.author) ?? 0, item.createdAt.getTime()));
      }
      progress.items_read += listed.length;
      await report();
    };
    const readNewest = async (kind: StreamKind) => {
      for (let i = 0; i < rules.subreddits.length; i += GROUP_SIZE) {
        const subs = rules.subreddits.slice(i, i + GROUP_SIZE);
        await take(await readSkippingRefusals(() => reader!.list(kind, subs, { limit: options.limit })));
      }
    };

    const wantsPosts = options.include_posts || options.include_profiles;
    if (wantsPosts) {
      for (const p of await pendingBackfills(ctx.db, SEARCH_BACKFILLS_MAX, [projectId])) {
        await report(`backfilling r/${p.name}`);
        await take(await readBackfill(reader, rules, p.name), [p.subredditId]);
      }
      await report('reading new posts');
      await readNewest('t3');
    }
    if (options.include_comments) {
      await report('reading new comments');
      await readNewest('t1');
    }
    if (options.persist_posts && found.authors.size > 0) {
      await report('reading profiles');
      const names = new Set(
        Object.values(newestBy).flatMap((newest) =>
          [...newest]
            .sort((a, b) => b[1] - a[1])
            .slice(0, SEARCH_AUTHORS_PER_KIND)
            .map(([name]) => name),
        ),
      );
      const authors = await authorsToEnrich(ctx.db, {
        limit: names.size,
        since: run.startedAt,
        projectId,
        names: [...names],
      });
      await enrichAuthors(ctx, reader, authors);
    }
    await report('done');
    await close('completed');
    await finishRun(ctx.db, run, { status: 'completed', result: counts() }, now());
    return done;
  } catch (error) {
    if (error instanceof RedditBudgetExhaustedError) {
      if (!job) {
        // Nothing would take the search up again: it ends, with the leads it stored so far.
        await close('failed');
        await failProjectSearch(
          ctx,
          run,
          `${error.reason}; search again after ${clockTime(error.retryAtMs)}`,
        );
        throw error;
      }
      await report(error.source === 'reddit' ? WAITING_FOR_REDDIT_PAUSE : WAITING_FOR_REDDIT_BUDGET);
      throw error;
    }
    if (job && error instanceof RedditUnavailableError && error.retryAtMs !== undefined) {
      ctx.log.warn(
        { job: 'project-search', projectId, attempt: job.attempt, err: error },
        'Reddit did not answer: the search tries again',
      );
      await report(`Reddit did not answer; trying again at ${clockTime(error.retryAtMs)}`);
      return { kind: 'again', run, retryAtMs: error.retryAtMs };
    }
    const message = failureMessage(error);
    if (message === null) {
      await close('failed');
      await failProjectSearch(ctx, run, 'Unexpected error');
      throw error;
    }
    ctx.log.warn({ job: 'project-search', projectId, err: error }, 'search failed');
    await close('failed');
    await failProjectSearch(ctx, run, message);
    return done;
  }
}

/** A retry's instant to the second (it is seconds away), rounded up so the time shown is never past. */
export function clockTime(ms: number): string {
  return `${new Date(Math.ceil(ms / 1000) * 1000).toISOString().slice(11, 19)} UTC`;
}

/** A listing Reddit refuses (a banned or private subreddit in the group) is skipped, not fatal. */
async function readSkippingRefusals(read: () => Promise<{ items: ListedItem[] }>): Promise<ListedItem[]> {
  try {
    return (await read()).items;
  } catch (error) {
    if (error instanceof RedditApiError || error instanceof RedditResponseShapeError) return [];
    throw error;
  }
}

function failureMessage(error: unknown): string | null {
  if (error instanceof SearchFailure || error instanceof NoSearchCredentialError) return error.message;
  if (error instanceof RedditUnavailableError)
    return 'Reddit is unavailable right now; please try again later';
  if (error instanceof AppError) return error.detail;
  return null;
}
