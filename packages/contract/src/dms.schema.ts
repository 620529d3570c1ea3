import { z } from 'zod';
import { DM_MAX_LENGTH, ZDmSourceType } from './ai.schema';
import { ZIsoDateTime, ZPage, ZPageQuery, ZText } from './common.schema';
import { ZRunStatus } from './runs.schema';
import { ZSuppressionReason } from './suppressions.schema';

/** Texts of spec section 8 for DMs, shown as they are. */
export const DM_TEXTS = {
  generateFailed: 'Failed to generate DM messages',
  saveEditsFailed: 'Failed to save edited messages. Please try again.',
  saveEditFailed: 'Failed to save your edits',
  commentNotFound: 'Original comment not found',
  profileNotFound: 'Original profile not found',
  unknownSource: 'Cannot determine message source for regeneration',
  noNewContent: 'No new content generated',
  regenerateFailed: 'Error regenerating DM message',
} as const;

export const DM_EMPTY = 'The DM text cannot be empty';
export const DM_TOO_LONG = `A DM is at most ${DM_MAX_LENGTH} characters`;
export const DM_SENT_READ_ONLY = 'This DM has been sent (or is being sent) and can no longer be changed';
export const DM_GENERATION_RUNNING = 'DM generation is already in progress for this project';
export const PRODUCT_INFO_MISSING = 'Product information is missing: save step 1 first';

/** Leads a "generate for selected" call takes at once: each one is an AI call made while the caller waits. */
export const DM_SELECTED_MAX = 20;
/** Messages one save or approval call takes. */
export const DM_BATCH_MAX = 200;
/** "Generate All DMs" writes at most this many DMs per run; running it again continues with the rest. */
export const DM_GENERATE_ALL_MAX = 500;

/**
 * draft -> approved -> queued -> sending -> sent | failed | unknown; unsent drafts of old leads become
 * expired. A generated DM starts approved (spec section 4: "generated (approved)").
 */
export const ZDmState = z.enum([
  'draft',
  'approved',
  'queued',
  'sending',
  'sent',
  'failed',
  'unknown',
  'expired',
]);
export type TDmState = z.infer<typeof ZDmState>;

/** States in which a DM is sent or on its way: it can no longer be edited, regenerated or deleted. */
export const DM_LOCKED_STATES: readonly TDmState[] = ['sending', 'sent', 'unknown'];

/** The text of a DM as the customer saves it: not empty, at most DM_MAX_LENGTH characters. */
export const ZDmText = ZText().trim().min(1, { error: DM_EMPTY }).max(DM_MAX_LENGTH, { error: DM_TOO_LONG });

/** A DM message of step 4 (spec section 3), with its send state and outcome. */
export const ZDmMessage = z
  .object({
    id: z.string(),
    project_id: z.string(),
    message_content: z.string(),
    /** The text as the AI wrote it (or last regenerated it). */
    original_content: z.string(),
    /** The saved text differs from what the AI wrote. */
    edited: z.boolean(),
    edited_at: ZIsoDateTime.nullable(),
    state: ZDmState,
    sent: z.boolean(),
    /** False for drafts and expired DMs. */
    approved: z.boolean(),
    source_type: ZDmSourceType,
    recipient_username: z.string(),
    subject: z.string(),
    /** The lead the DM answers, by kind; null for the other kinds or once the lead is gone. */
    post_id: z.string().nullable(),
    comment_id: z.string().nullable(),
    profile_id: z.string().nullable(),
    /** The post's Reddit id, or comment_<id> / profile_<id> for the other sources. */
    reddit_post_id: z.string(),
    post_title: z.string().nullable(),
    comment_content: z.string().nullable(),
    subreddit: z.string().nullable(),
    matched_keywords: z.array(z.string()),
    /** Regenerations so far: 0 for the first draft. */
    variant: z.number().int(),
    /** When a queued DM is due. */
    scheduled_for: ZIsoDateTime.nullable(),
    sent_at: ZIsoDateTime.nullable(),
    failed_at: ZIsoDateTime.nullable(),
    /** Why it failed, was rescheduled or is unknown: a stable code and a readable reason. */
    outcome_code: z.string().nullable(),
    outcome_reason: z.string().nullable(),
    replied_at: ZIsoDateTime.nullable(),
    /**
     * The recipient is on the workspace's do-not-contact list, so the DM cannot be sent: the list's reason
     * and the words a Send would be refused with. Null when they are not on it.
     */
    do_not_contact: z.object({ reason: ZSuppressionReason, detail: z.string() }).nullable(),
    /**
     * The recipient already answered a DM from this workspace, so this one cannot be sent: the words a Send
     * would be refused with. Null when they did not.
     */
    already_answered: z.object({ detail: z.string() }).nullable(),
    /**
     * The DM's lead is older than DM_EXPIRY_DAYS (or the DM expired), so a Send is refused: the words it would
     * be refused with. A failed DM stays failed. Null for a DM sent or on its way, and while the lead is recent.
     */
    lead_expired: z.object({ detail: z.string() }).nullable(),
    created_at: ZIsoDateTime,
    generated_at: ZIsoDateTime,
    updated_at: ZIsoDateTime,
  })
  .meta({ id: 'DmMessage' });
export type TDmMessage = z.infer<typeof ZDmMessage>;

const ZProjectId = z.uuid({ error: 'Project not found' });
const ZDmId = z.uuid({ error: 'DM not found' });

/** The longest search of the DM list: longer than any Reddit user name. */
export const DM_SEARCH_MAX = 40;

/**
 * Step 4's DM list, newest first; `search` keeps DMs whose recipient's name contains it (any case), `state`
 * those in that state.
 */
export const ZDmListQuery = ZPageQuery.extend({
  project_id: ZProjectId,
  search: ZText()
    .trim()
    .max(DM_SEARCH_MAX, { error: `search must be at most ${DM_SEARCH_MAX} characters` })
    .optional(),
  state: z
    .enum(ZDmState.options, { error: `state must be one of ${ZDmState.options.join(', ')}` })
    .optional(),
});
export type TDmListQuery = z.input<typeof ZDmListQuery>;
export const ZDmList = ZPage(ZDmMessage).extend({
  /**
   * What Send All DMs would queue of the whole project: approved DMs, one per person, leaving out people on
   * the do-not-contact list, who already answered, or whom another DM of the workspace reached or is queued to,
   * and DMs whose lead is already older than DM_EXPIRY_DAYS. DMs for which the accounts find no room before
   * they expire are still counted: only planning over the accounts' days tells those.
   */
  ready_to_send: z.number().int(),
});
export type TDmList = z.infer<typeof ZDmList>;

export const ZDmParams = z.object({ dmId: ZDmId });

/** Each DM once per call. */
function distinctIds<T extends { id: string }>(items: T[]): boolean {
  return new Set(items.map((i) => i.id)).size === items.length;
}
const ONCE = { error: 'Each DM may appear once' };

export const ZUpdateDmMessagesRequest = z.object({
  messages: z
    .array(z.object({ id: ZDmId, message_content: ZDmText }))
    .min(1, { error: 'Name at least one DM' })
    .max(DM_BATCH_MAX)
    .refine(distinctIds, ONCE),
});
export type TUpdateDmMessagesRequest = z.input<typeof ZUpdateDmMessagesRequest>;

export const ZApproveDmMessagesRequest = z.object({
  items: z
    .array(z.object({ id: ZDmId, message_content: ZDmText, approved: z.boolean() }))
    .min(1, { error: 'Name at least one DM' })
    .max(DM_BATCH_MAX)
    .refine(distinctIds, ONCE),
});
export type TApproveDmMessagesRequest = z.input<typeof ZApproveDmMessagesRequest>;

/** The DMs as saved. */
export const ZDmMessagesResponse = z.object({ messages: z.array(ZDmMessage) });
export type TDmMessagesResponse = z.infer<typeof ZDmMessagesResponse>;

export const ZDmSkipReason = z.enum([
  /** The author already has a DM in this project. */
  'already_has_dm',
  /** On the workspace's do-not-contact list. */
  'suppressed',
  /** Already sent a DM from this workspace. */
  'already_contacted',
  /** One of the workspace's own connected accounts. */
  'own_account',
  /** The author deleted their Reddit account. */
  'author_deleted',
  /** The post or comment is older than DM_EXPIRY_DAYS: a DM about it would expire unsent. */
  'lead_too_old',
]);
export type TDmSkipReason = z.infer<typeof ZDmSkipReason>;

/** A lead no DM was written for, and why. */
export const ZDmSkipped = z.object({
  /** The lead's (or profile's) id as sent. */
  id: z.string(),
  recipient_username: z.string(),
  reason: ZDmSkipReason,
  detail: z.string(),
});
export type TDmSkipped = z.infer<typeof ZDmSkipped>;

export const ZGenerateDmsResponse = z.object({
  generated_messages: z.array(ZDmMessage),
  skipped: z.array(ZDmSkipped),
  /** Leads the AI engine could not write for, with why. */
  failed: z.array(z.object({ id: z.string(), detail: z.string() })),
});
export type TGenerateDmsResponse = z.infer<typeof ZGenerateDmsResponse>;

export const ZGenerateDmsForSelectedRequest = z.object({
  project_id: ZProjectId,
  /** Ids of the project's posts (as GET /posts lists them). */
  post_ids: z
    .array(z.uuid({ error: 'Post not found' }))
    .min(1, { error: 'Select at least one post' })
    .max(DM_SELECTED_MAX, { error: `At most ${DM_SELECTED_MAX} posts at a time` }),
});
export type TGenerateDmsForSelectedRequest = z.input<typeof ZGenerateDmsForSelectedRequest>;

/**
 * The comment as the Comments tab lists it, plus project_id. Only its id is read: the DM is written from
 * the stored comment.
 */
export const ZGenerateDmFromCommentRequest = z.looseObject({
  project_id: ZProjectId,
  id: z.uuid({ error: 'Comment not found' }),
});
export type TGenerateDmFromCommentRequest = z.input<typeof ZGenerateDmFromCommentRequest>;

/** The profile as the Users tab lists it, plus project_id; only its id is read. */
export const ZGenerateDmFromProfileRequest = z.looseObject({
  project_id: ZProjectId,
  id: z.uuid({ error: 'Profile not found' }),
});
export type TGenerateDmFromProfileRequest = z.input<typeof ZGenerateDmFromProfileRequest>;

/** "Generate All DMs": a DM for every live post and comment of the project whose author has none yet. */
export const ZGenerateAllDmsRequest = z.object({
  project_id: ZProjectId,
  /** Only leads scoring at least this. */
  min_score: z.number().int().min(0).max(100).default(0),
});
export type TGenerateAllDmsRequest = z.input<typeof ZGenerateAllDmsRequest>;

export const ZGenerateAllDmsStatusQuery = z.object({ project_id: ZProjectId });

/** What a "Generate All DMs" run did, by outcome. */
export const ZDmGenerationResult = z.object({
  generated: z.number().int(),
  failed: z.number().int(),
  skipped: z.record(ZDmSkipReason, z.number().int()),
});
export type TDmGenerationResult = z.infer<typeof ZDmGenerationResult>;

/**
 * GET generate-all-dm-messages/status. While generating, progress.items_read counts the leads done and
 * progress.leads_found the DMs written, out of `total`.
 */
export const ZDmGenerationStatus = ZRunStatus(['generating'] as const).extend({
  total: z.number().int().nullable(),
  result: ZDmGenerationResult.nullable(),
});
export type TDmGenerationStatus = z.infer<typeof ZDmGenerationStatus>;
