import { z } from 'zod';
import { ZKeyword, ZKeywordType } from './ai.schema';
import { ZPage, ZPageQuery, ZText } from './common.schema';
import { normalizeSubredditName } from './subreddits.schema';
import { normalizeRedditUsername } from './suppressions.schema';

/** Bounds of step 2 (keywords are matched against every new post and comment, so they stay short). */
export const KEYWORD_MAX_LENGTH = 80;
export const KEYWORDS_PER_PROJECT_MAX = 200;
export const FILTER_ENTRIES_MAX = 200;

export const NO_KEYWORD_SELECTED = 'Please select at least one keyword to save';

const ZKeywordText = ZText()
  .trim()
  .min(2, { error: 'Keywords are at least 2 characters' })
  .max(KEYWORD_MAX_LENGTH, { error: `Keywords are at most ${KEYWORD_MAX_LENGTH} characters` });

/**
 * What keeps matching from being noise: a post or comment holding a negative keyword is never a lead,
 * and items from excluded subreddits or by excluded authors are skipped.
 */
export const ZDiscoveryFilters = z
  .object({
    negative_keywords: z.array(ZKeywordText).max(FILTER_ENTRIES_MAX),
    excluded_subreddits: z
      .array(
        ZText()
          .trim()
          .transform(normalizeSubredditName)
          .pipe(z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_]{1,20}$/, { error: 'Invalid subreddit name' })),
      )
      .max(FILTER_ENTRIES_MAX),
    excluded_authors: z
      .array(
        ZText()
          .trim()
          .transform(normalizeRedditUsername)
          .pipe(z.string().regex(/^[A-Za-z0-9_-]{3,20}$/, { error: 'Invalid Reddit user name' })),
      )
      .max(FILTER_ENTRIES_MAX),
  })
  .meta({ id: 'DiscoveryFilters' });
export type TDiscoveryFilters = z.infer<typeof ZDiscoveryFilters>;

/**
 * The saved filters as answers carry them: plain text, already clean (the request schema's prefix
 * stripping is a one-way transform, which a response cannot be encoded through).
 */
export const ZSavedDiscoveryFilters = z.object({
  negative_keywords: z.array(z.string()),
  excluded_subreddits: z.array(z.string()),
  excluded_authors: z.array(z.string()),
});

/** GET keywords: the project's keywords (product first, then ICP) and its filters. */
export const ZKeywordList = ZPage(ZKeyword).extend({ filters: ZSavedDiscoveryFilters });
export type TKeywordList = z.infer<typeof ZKeywordList>;
export const ZKeywordListQuery = ZPageQuery;

export const ZGenerateKeywordsResponse = z.object({
  generated: z.boolean(),
  product_keywords: z.array(ZKeyword),
  icp_keywords: z.array(ZKeyword),
  /** Subreddits already listed for the project. */
  subreddits_count: z.number().int(),
});
export type TGenerateKeywordsResponse = z.infer<typeof ZGenerateKeywordsResponse>;

/** One row of step 2 as saved: an existing keyword by id, or one the customer typed (no id). */
export const ZKeywordApproval = z.object({
  id: z.uuid({ error: 'Keyword not found' }).optional(),
  keyword: ZKeywordText,
  type: ZKeywordType,
  approved: z.boolean(),
});
export type TKeywordApproval = z.infer<typeof ZKeywordApproval>;

/**
 * "Save Keywords & Patterns" (generate_subreddits false) and "Approve & Continue" (true): the whole list
 * as shown, approval per row; keywords of the project left out of the list are removed.
 */
export const ZApproveKeywordsRequest = z.object({
  keywords: z.array(ZKeywordApproval).max(KEYWORDS_PER_PROJECT_MAX),
  generate_subreddits: z.boolean().default(false),
  filters: ZDiscoveryFilters.partial().optional(),
});
export type TApproveKeywordsRequest = z.input<typeof ZApproveKeywordsRequest>;

export const ZApproveKeywordsResponse = z.object({
  keywords: z.array(ZKeyword),
  approved_count: z.number().int(),
  filters: ZSavedDiscoveryFilters,
  /** 'started' when subreddit generation was asked for and began, 'running' when one already was. */
  subreddit_generation: z.enum(['started', 'running', 'not_requested']),
});
export type TApproveKeywordsResponse = z.infer<typeof ZApproveKeywordsResponse>;
