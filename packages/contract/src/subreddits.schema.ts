import { z } from 'zod';
import { ZSubreddit } from './ai.schema';
import { ZPage, ZPageQuery, ZText } from './common.schema';

export const SUBREDDITS_PER_PROJECT_MAX = 200;
export const BULK_SUBREDDITS_MAX = 50;
/** 2000 characters hold 50 names with separators and r/ prefixes. */
export const BULK_SUBREDDITS_TEXT_MAX = 2000;

export const EMPTY_BULK_SUBREDDITS = 'Enter at least one subreddit name, separated by commas or new lines';
export const NO_SUBREDDIT_SELECTED = 'Please select at least one subreddit to continue';

export const ZSubredditList = ZPage(ZSubreddit);
export type TSubredditList = z.infer<typeof ZSubredditList>;
export const ZSubredditListQuery = ZPageQuery;

/** Names typed by the customer: one text with commas or new lines, or a list; r/ prefixes are stripped. */
export const ZAddSubredditsBulkRequest = z.object({
  subreddits: z.union([
    ZText().max(BULK_SUBREDDITS_TEXT_MAX, { error: `At most ${BULK_SUBREDDITS_TEXT_MAX} characters` }),
    z.array(ZText().max(100)).max(BULK_SUBREDDITS_MAX, { error: `At most ${BULK_SUBREDDITS_MAX} names` }),
  ]),
});
export type TAddSubredditsBulkRequest = z.infer<typeof ZAddSubredditsBulkRequest>;

export const ZAddSubredditsBulkResponse = z.object({
  added_count: z.number().int(),
  added: z.array(ZSubreddit),
  /** Already listed for the project (approved again if they were not). */
  already_listed: z.array(z.string()),
  /** Not on Reddit (or private or banned): reported, never stored. */
  not_found: z.array(z.string()),
  /** Not a subreddit name at all. */
  invalid: z.array(z.string()),
});
export type TAddSubredditsBulkResponse = z.infer<typeof ZAddSubredditsBulkResponse>;

export const ZSubredditApproval = z.object({
  id: z.uuid({ error: 'Subreddit not found' }),
  subreddit_name: ZText().max(100).optional(),
  approved: z.boolean(),
});

/** "Approve & Continue" in step 3: approval per listed subreddit; at least one must be approved. */
export const ZApproveSubredditsRequest = z.object({
  subreddits: z.array(ZSubredditApproval).min(1).max(SUBREDDITS_PER_PROJECT_MAX),
});
export type TApproveSubredditsRequest = z.infer<typeof ZApproveSubredditsRequest>;

export const ZApproveSubredditsResponse = z.object({
  approved_count: z.number().int(),
  subreddits: z.array(ZSubreddit),
});
export type TApproveSubredditsResponse = z.infer<typeof ZApproveSubredditsResponse>;

// A pasted address of a subreddit or of a page in it: the name is what follows /r/.
const REDDIT_ADDRESS = /^(?:https?:\/\/)?(?:[a-z]+\.)?reddit\.com\/r\/([^/?#\s]+)/i;

/** A subreddit as people paste it: `r/name`, `/r/name/` or an address on reddit.com become `name`. */
export function normalizeSubredditName(raw: string): string {
  const trimmed = raw.trim();
  return (
    REDDIT_ADDRESS.exec(trimmed)?.[1] ??
    trimmed
      .replace(/^\/?r\//i, '')
      .replace(/\/+$/, '')
      .trim()
  );
}

/**
 * Names as the customer typed or pasted them in the bulk box: commas or new lines between them, `r/` and
 * `/r/` prefixes, Reddit addresses (`https://www.reddit.com/r/name/…`) and blanks dropped, each name once
 * whatever its case (the first spelling wins). Whether each is a subreddit name at all is not checked here:
 * a prefix with no name after it (`r/`) stays as typed, for the caller to report rather than drop unseen.
 */
export function splitSubredditNames(input: string | readonly string[]): string[] {
  const seen = new Set<string>();
  const names: string[] = [];
  for (const raw of (typeof input === 'string' ? [input] : input).flatMap((s) => s.split(/[,\r\n]+/))) {
    const name = normalizeSubredditName(raw) || raw.trim();
    if (name === '' || seen.has(name.toLowerCase())) continue;
    seen.add(name.toLowerCase());
    names.push(name);
  }
  return names;
}
