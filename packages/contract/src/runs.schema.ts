import { z } from 'zod';
import { ZIsoDateTime } from './common.schema';

/** Polling gives up after this long (spec section 9). */
export const RUN_POLL_TIMEOUT_MS = 300_000;
/** How often the web polls generation and search status. */
export const RUN_POLL_INTERVAL_MS = 2_000;

export const SUBREDDIT_GENERATION_RUNNING = 'Subreddit generation is already in progress for this project';
export const POST_SEARCH_RUNNING = 'Post search is already in progress for this project';
export const SEARCH_RUNNING = 'Search is already in progress for this project';
export const NO_APPROVED_KEYWORDS =
  'No approved keywords found. Please go to Step 2 and approve some keywords first.';
export const NO_APPROVED_SUBREDDITS =
  'No approved subreddits found. Please go to Step 3 and approve some subreddits first.';

/** A long-running action accepted: the client polls its status call (spec: data.status 'started'). */
export const ZRunStarted = z.object({ data: z.object({ status: z.literal('started') }) });
export type TRunStarted = z.infer<typeof ZRunStarted>;

/** What a running generation or search has done so far, for its progress display. */
export const ZRunProgress = z.object({
  /** e.g. 'suggesting', 'checking subreddits', 'reading new posts', 'backfilling r/SaaS', 'scoring'. */
  phase: z.string(),
  items_read: z.number().int(),
  leads_found: z.number().int(),
});
export type TRunProgress = z.infer<typeof ZRunProgress>;

/** A status call's answer: idle, one of the `running` statuses, completed or failed, with its progress. */
export const ZRunStatus = <S extends readonly [string, ...string[]]>(running: S) =>
  z.object({
    status: z.enum(['idle', ...running, 'completed', 'failed']),
    error: z.string().nullable(),
    started_at: ZIsoDateTime.nullable(),
    finished_at: ZIsoDateTime.nullable(),
    duration_seconds: z.number().nullable(),
    progress: ZRunProgress.nullable(),
  });

/** GET subreddits/status. */
export const ZSubredditGenerationStatus = ZRunStatus(['generating'] as const);
export type TSubredditGenerationStatus = z.infer<typeof ZSubredditGenerationStatus>;

export const ZSearchResultCounts = z.object({
  posts_found: z.number().int(),
  comments_found: z.number().int(),
  profiles_found: z.number().int(),
});
export type TSearchResultCounts = z.infer<typeof ZSearchResultCounts>;

/** GET search-enhanced/status and search-posts/status. */
export const ZSearchStatus = ZRunStatus(['searching'] as const).extend({
  result: ZSearchResultCounts.nullable(),
});
export type TSearchStatus = z.infer<typeof ZSearchStatus>;
