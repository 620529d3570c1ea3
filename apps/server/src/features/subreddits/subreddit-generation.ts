import { NO_APPROVED_KEYWORDS, SUBREDDITS_PER_PROJECT_MAX, type TKeywordType } from '@threadreach/contract';
import { AiError } from '../../ai/ai.provider';
import { DEFAULT_SUBREDDIT_SUGGESTIONS } from '../../ai/ai.service';
import type { AppContext } from '../../context';
import { AppError } from '../../http/errors';
import {
  RedditApiError,
  RedditAuthError,
  RedditBudgetExhaustedError,
  RedditResponseShapeError,
  RedditUnavailableError,
  WAITING_FOR_REDDIT_BUDGET,
  WAITING_FOR_REDDIT_PAUSE,
} from '../../integrations/reddit';
import { retryAtOf } from '../../jobs/job';
import { findRun, finishRun, updateRunProgress } from '../projects';
import {
  approvedKeywordsOf,
  countGenerationReschedule,
  findProductInfoRow,
  insertSubreddits,
  listAllSubreddits,
} from './subreddits.repository';

/**
 * A generation Reddit keeps refusing is given up after this many reschedules. A spent budget frees within
 * its 10-minute window, so this is far more waiting than a healthy credential ever needs.
 */
export const MAX_GENERATION_RESCHEDULES = 8;

/**
 * A rescheduled generation wakes at least this often, writing its heartbeat, so a long wait for Reddit's
 * budget (its window is 10 minutes) never looks like a run that died with its worker.
 */
export const MAX_RESCHEDULE_DELAY_MS = 5 * 60_000;

export const TOO_MANY_SUBREDDITS = `A project lists at most ${SUBREDDITS_PER_PROJECT_MAX} subreddits`;

/** A failure the customer can read; anything else is logged and reported in general terms. */
function describeFailure(error: unknown): string | null {
  if (error instanceof AppError) return error.detail;
  if (
    error instanceof AiError ||
    error instanceof RedditApiError ||
    error instanceof RedditAuthError ||
    error instanceof RedditUnavailableError ||
    error instanceof RedditResponseShapeError ||
    error instanceof RedditBudgetExhaustedError
  ) {
    return error.message;
  }
  return null;
}

class GenerationRefused extends Error {}

/** Reschedules the job (see `retryAtOf`) for an instant no later than MAX_RESCHEDULE_DELAY_MS away. */
class RescheduleGeneration extends Error {
  override name = 'RescheduleGeneration';
  constructor(
    message: string,
    readonly retryAtMs: number,
  ) {
    super(message);
  }
}

/**
 * The generate-subreddits job: suggests subreddits that exist on Reddit for the project's approved
 * keywords, leaving out those already listed ("Generate More"), and stores them unapproved with their
 * description, members and relevance. Progress and the outcome go to the project's run, which the status
 * call reads. When Reddit's budget is spent the error (with `retryAtMs`) is thrown on, so the job is
 * rescheduled and the run stays 'generating'.
 */
export async function generateSuggestedSubreddits(ctx: AppContext, projectId: string): Promise<void> {
  const run = await findRun(ctx.db, projectId, 'subreddits');
  // Finished, or the project is gone: a late or repeated job has nothing to do.
  if (!run || run.status !== 'running') return;
  const now = () => new Date(ctx.clock.now());
  const progress = (phase: string, itemsRead = 0) =>
    updateRunProgress(ctx.db, run, { phase, items_read: itemsRead, leads_found: 0 }, now());

  try {
    await progress('reading approved keywords');
    const [info, keywords, listed] = await Promise.all([
      findProductInfoRow(ctx.db, projectId),
      approvedKeywordsOf(ctx.db, projectId),
      listAllSubreddits(ctx.db, projectId),
    ]);
    if (keywords.length === 0) throw new GenerationRefused(NO_APPROVED_KEYWORDS);
    const room = SUBREDDITS_PER_PROJECT_MAX - listed.length;
    if (room <= 0) throw new GenerationRefused(TOO_MANY_SUBREDDITS);

    await progress('searching Reddit for subreddits');
    const suggestions = await ctx.ai.suggestSubreddits({
      product: {
        product_description: info?.productDescription ?? '',
        ideal_client_profile: info?.idealClientProfile ?? '',
        call_to_action: info?.callToAction ?? '',
        writing_style: info?.writingStyle ?? '',
      },
      keywords: keywords.map((k) => ({ keyword: k.keyword, type: k.type as TKeywordType })),
      exclude: listed.map((s) => s.name),
      limit: Math.min(DEFAULT_SUBREDDIT_SUGGESTIONS, room),
    });

    await progress('saving suggestions', suggestions.length);
    const added = await insertSubreddits(
      ctx.db,
      projectId,
      suggestions.map((s) => ({
        name: s.subreddit_name,
        description: s.description,
        estimatedMembers: s.estimated_members,
        relevanceScore: s.relevance_score,
        source: 'generated' as const,
        approved: false,
        approvedAt: null,
      })),
    );
    await finishRun(
      ctx.db,
      run,
      { status: 'completed', result: { suggested: suggestions.length, added: added.length } },
      now(),
    );
    ctx.log.info({ job: 'generate-subreddits', projectId, added: added.length }, 'subreddits suggested');
  } catch (error) {
    const retryAtMs = retryAtOf(error);
    if (retryAtMs !== null) {
      const reschedules = await countGenerationReschedule(ctx.db, projectId);
      if (reschedules <= MAX_GENERATION_RESCHEDULES) {
        await progress(
          !(error instanceof RedditBudgetExhaustedError)
            ? 'waiting for Reddit to answer'
            : error.source === 'reddit'
              ? WAITING_FOR_REDDIT_PAUSE
              : WAITING_FOR_REDDIT_BUDGET,
        );
        const latest = ctx.clock.now() + MAX_RESCHEDULE_DELAY_MS;
        if (retryAtMs <= latest) throw error;
        throw new RescheduleGeneration((error as Error).message, latest);
      }
    }
    const described = error instanceof GenerationRefused ? error.message : describeFailure(error);
    if (described === null) ctx.log.error({ err: error, projectId }, 'subreddit generation failed');
    else ctx.log.warn({ projectId, error: described }, 'subreddit generation failed');
    await finishRun(
      ctx.db,
      run,
      { status: 'failed', error: described ?? 'Unexpected error while suggesting subreddits' },
      now(),
    );
  }
}
