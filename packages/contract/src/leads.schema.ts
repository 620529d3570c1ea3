import { z } from 'zod';
import { ZIsoDateTime, ZPage, ZPageQuery, ZQueryInt, ZText } from './common.schema';

/** The tabs show at most this many matched keywords per lead (spec section 9). */
export const MATCHED_KEYWORDS_SHOWN = 5;
/** Preview lengths of the results tabs (spec section 9): posts and profiles 150, comments 200. */
export const POST_PREVIEW_LENGTH = 150;
export const COMMENT_PREVIEW_LENGTH = 200;
/** search-enhanced reads at most this many items per call (spec section 9). */
export const ENHANCED_SEARCH_LIMIT = 100;
export const NO_SEARCH_TYPE = 'Please select at least one search type';

export const ZMatchField = z.enum(['title', 'body']);
export type TMatchField = z.infer<typeof ZMatchField>;

/** Why an item matched: one keyword occurrence, by field and character offsets (end exclusive). */
export const ZMatchReason = z.object({
  keyword: z.string(),
  field: ZMatchField,
  start: z.number().int().min(0),
  end: z.number().int().min(0),
});
export type TMatchReason = z.infer<typeof ZMatchReason>;

/** How likely the author is to want what the project sells, 0-100, and the signals behind it. */
export const ZIntent = z.object({
  intent_score: z.number().int().min(0).max(100),
  intent_reasons: z.array(z.string()),
});

const leadFields = {
  id: z.string(),
  /** Reddit's fullname, t3_... or t1_... */
  reddit_id: z.string(),
  author: z.string(),
  subreddit: z.string(),
  score: z.number().int(),
  permalink: z.string(),
  created_utc: ZIsoDateTime,
  found_at: ZIsoDateTime,
  /** Null until the author's profile was read. */
  account_age_days: z.number().int().nullable(),
  comment_karma: z.number().int().nullable(),
  /** Reddit said the author's account is deleted or suspended when it was read: no DM can reach them. */
  account_unavailable: z.boolean(),
  /** The item is older than DM_EXPIRY_DAYS: a DM about it would expire unsent, so none is written. */
  too_old_to_message: z.boolean(),
  matched_keywords: z.array(z.string()),
  matches: z.array(ZMatchReason),
  ...ZIntent.shape,
  /** The project already has a DM to the author (a second one is refused); sent ones leave the lists. */
  has_dm: z.boolean(),
};

export const ZPost = z.object({ ...leadFields, title: z.string(), content: z.string() }).meta({ id: 'Post' });
export type TPost = z.infer<typeof ZPost>;

export const ZComment = z
  .object({ ...leadFields, content: z.string(), post_title: z.string() })
  .meta({ id: 'Comment' });
export type TComment = z.infer<typeof ZComment>;

/** A person behind one or more matches, with what their Reddit profile says. */
export const ZProfile = z
  .object({
    id: z.string(),
    reddit_username: z.string(),
    bio_content: z.string(),
    account_age_days: z.number().int().nullable(),
    comment_karma: z.number().int().nullable(),
    /** Reddit said the account is deleted or suspended when it was read: no DM can reach them. */
    account_unavailable: z.boolean(),
    matched_keywords: z.array(z.string()),
    ...ZIntent.shape,
    /** Posts and comments of theirs that matched. */
    lead_count: z.number().int(),
    /** The project already has a DM to them (a second one is refused). */
    has_dm: z.boolean(),
    found_at: ZIsoDateTime,
  })
  .meta({ id: 'Profile' });
export type TProfile = z.infer<typeof ZProfile>;

/**
 * Orders of the results lists: `newest` by when the item was written on Reddit (a profile: its latest
 * match); `intent` by intent score, highest first (a profile's is its best lead's), then newest. Ties end
 * on the id, so pages neither repeat nor skip a lead.
 */
export const LEAD_SORTS = ['newest', 'intent'] as const;
export const ZLeadSort = z.enum(LEAD_SORTS, { error: `sort must be ${LEAD_SORTS.join(' or ')}` });
export type TLeadSort = z.infer<typeof ZLeadSort>;

/** Lists of leads, in `sort` order, optionally only those scoring at least `min_score`. */
export const ZLeadListQuery = ZPageQuery.extend({
  min_score: ZQueryInt(0, 100, 'min_score must be a whole number from 0 to 100').default(0),
  sort: ZLeadSort.default('newest'),
});
export const ZPostListQuery = ZLeadListQuery.extend({ project_id: z.uuid({ error: 'Project not found' }) });

/** Deleting all of a results list: what it shows at this minimum score, on every page. */
export const ZLeadDeleteAllQuery = ZLeadListQuery.pick({ min_score: true });
export const ZPostDeleteAllQuery = ZPostListQuery.pick({ project_id: true, min_score: true });
export const ZLeadsDeleted = z.object({ deleted_count: z.number().int() });
export type TLeadsDeleted = z.infer<typeof ZLeadsDeleted>;

export const ZPostList = ZPage(ZPost);
export type TPostList = z.infer<typeof ZPostList>;
export const ZCommentList = ZPage(ZComment);
export type TCommentList = z.infer<typeof ZCommentList>;
export const ZProfileList = ZPage(ZProfile);
export type TProfileList = z.infer<typeof ZProfileList>;

export const ZPostParams = z.object({ postId: z.uuid({ error: 'Post not found' }) });
export const ZCommentParams = z.object({
  projectId: z.uuid({ error: 'Project not found' }),
  commentId: z.uuid({ error: 'Comment not found' }),
});
export const ZProfileParams = z.object({
  projectId: z.uuid({ error: 'Project not found' }),
  profileId: z.uuid({ error: 'Profile not found' }),
});

/** Step 4's search settings: which kinds of leads a search looks for (Users stays off, as the spec shows). */
export const ZSearchEnhancedRequest = z
  .object({
    include_posts: z.boolean().default(true),
    include_comments: z.boolean().default(true),
    include_profiles: z.boolean().default(false),
    persist_posts: z.boolean().default(true),
    limit: z.number().int().min(1).max(ENHANCED_SEARCH_LIMIT).default(ENHANCED_SEARCH_LIMIT),
  })
  .refine((v) => v.include_posts || v.include_comments || v.include_profiles, {
    error: NO_SEARCH_TYPE,
    path: ['include_posts'],
  });
export type TSearchEnhancedRequest = z.input<typeof ZSearchEnhancedRequest>;

export const ZSearchPostsRequest = z.object({ project_id: z.uuid({ error: 'Project not found' }) });
export const ZSearchPostsStatusQuery = ZSearchPostsRequest;

/** A project's lead webhook: new leads are POSTed as JSON, signed with HMAC-SHA256. */
export const ZWebhook = z
  .object({
    url: z.string().nullable(),
    enabled: z.boolean(),
    /** The signing secret, shown only when it is created or rotated. */
    secret: z.string().optional(),
    secret_last4: z.string().nullable(),
    last_delivery_at: ZIsoDateTime.nullable(),
    last_status: z.string().nullable(),
  })
  .meta({ id: 'Webhook' });
export type TWebhook = z.infer<typeof ZWebhook>;

export const ZUpdateWebhookRequest = z.object({
  /** https (http only to loopback in development); null removes the webhook. */
  url: ZText().trim().max(2000).nullable(),
  enabled: z.boolean().default(true),
  rotate_secret: z.boolean().default(false),
});
export type TUpdateWebhookRequest = z.input<typeof ZUpdateWebhookRequest>;

/** The body POSTed to a webhook for each batch of new leads. */
export const ZWebhookPayload = z.object({
  event: z.literal('leads.created'),
  project_id: z.string(),
  sent_at: ZIsoDateTime,
  leads: z.array(
    z.object({
      kind: z.enum(['post', 'comment']),
      id: z.string(),
      reddit_id: z.string(),
      url: z.string(),
      author: z.string(),
      subreddit: z.string(),
      title: z.string(),
      content: z.string(),
      matched_keywords: z.array(z.string()),
      ...ZIntent.shape,
      created_utc: ZIsoDateTime,
    }),
  ),
});
export type TWebhookPayload = z.infer<typeof ZWebhookPayload>;
export const WEBHOOK_SIGNATURE_HEADER = 'x-threadreach-signature';
export const WEBHOOK_TIMESTAMP_HEADER = 'x-threadreach-timestamp';
