import { z } from 'zod';
import { ZIsoDateTime, ZPage, ZPageQuery, ZText } from './common.schema';

/** Texts of spec sections 5 and 8 for sending, shown as they are. */
export const SENDING_TEXTS = {
  /** Send All on a project without a connected account. */
  noAccountsBulk: 'No Reddit accounts connected for this project. Please connect a Reddit account first.',
  /** A single Send on a project without a connected account. */
  noAccounts: 'Please connect your Reddit account first',
  noUnsentMessages: 'No unsent messages found for this project.',
  accountTooYoung: 'Your Reddit account must be at least 7 days old to send DMs',
  sendFailed: 'Error sending DM message',
  bulkFailed: (reason: string) => `Error sending bulk DMs: ${reason}`,
  sentTo: (recipient: string) => `Sent to u/${recipient}`,
} as const;

/** Message delay bounds of spec section 9, in seconds. */
export const SEND_DELAY_MIN_SECONDS = 10;
export const SEND_DELAY_MAX_SECONDS = 3600;

/**
 * Why a send was refused, failed or rescheduled: the `code` of a 4xx answer and the `outcome_code` a
 * DM keeps. Each comes with a readable reason.
 */
export const SEND_OUTCOME_CODES = [
  'sent',
  // The recipient: never sent to (again) from this workspace.
  'already_contacted',
  'suppressed',
  'replied',
  'user_doesnt_exist',
  'not_whitelisted',
  'compose_refused',
  // The project's owner has no subscription: nothing is sent for them in the background.
  'subscription_required',
  // The sending account or its capacity: the DM waits or moves to another account.
  'no_accounts',
  'account_too_young',
  'account_auth_required',
  'account_disabled',
  'sender_suspended',
  'daily_limit_reached',
  'rate_limited',
  'outside_working_hours',
  'pacing_delay',
  'budget_wait',
  'reddit_unavailable',
  // Not known whether Reddit took it: reconciled from the account's sent messages, never resent blindly.
  'unknown_outcome',
  'not_delivered',
  // Its account was removed while it was unknown: it can no longer be checked; the person stays contacted.
  'account_removed',
] as const;
export type TSendOutcomeCode = (typeof SEND_OUTCOME_CODES)[number];

/**
 * A DM failed with one of these was held back because of its person (already contacted from the
 * workspace, on the do-not-contact list, already answered): nothing went wrong in sending it, so the
 * statistics do not count it as failed.
 */
export const WITHHELD_OUTCOME_CODES = [
  'already_contacted',
  'suppressed',
  'replied',
] as const satisfies readonly TSendOutcomeCode[];

/** A failed DM with this outcome was held back because of its person, not a failed send. */
export function isWithheldOutcome(code: string | null): boolean {
  return (WITHHELD_OUTCOME_CODES as readonly (string | null)[]).includes(code);
}

/**
 * POST send-dm-message: the DM of the project's lead `post_id` (the DM's reddit_post_id: the post id,
 * or comment_<id> / profile_<id>; or the post_id the DM list shows), or the DM `dm_id` from the DM list.
 * It goes now.
 */
export const ZSendDmRequest = z
  .object({
    project_id: z.uuid({ error: 'Project not found' }),
    post_id: ZText().trim().min(1).max(120).optional(),
    dm_id: z.uuid({ error: 'DM not found' }).optional(),
  })
  .refine((r) => r.post_id !== undefined || r.dm_id !== undefined, {
    error: 'post_id or dm_id is required',
    path: ['post_id'],
  });
export type TSendDmRequest = z.input<typeof ZSendDmRequest>;

/**
 * What became of a single Send: `sent`; `unknown` when Reddit's answer was lost (the DM is checked
 * against the account's sent messages and never sent twice); `queued` when the account was told to
 * wait and the DM goes later by itself.
 */
export const ZSendDmResponse = z.object({
  recipient: z.string(),
  dm_id: z.string(),
  state: z.enum(['sent', 'unknown', 'queued']),
  /** The Reddit account it went (or goes) from. */
  account: z.string().nullable(),
  scheduled_for: ZIsoDateTime.nullable(),
  message: z.string(),
});
export type TSendDmResponse = z.infer<typeof ZSendDmResponse>;

/** POST send-dm-messages-bulk: queue every approved, unsent DM of the project, paced. */
export const ZSendDmsBulkRequest = z.object({ project_id: z.uuid({ error: 'Project not found' }) });
export type TSendDmsBulkRequest = z.input<typeof ZSendDmsBulkRequest>;

export const ZSendDmsBulkResponse = z.object({
  message: z.string(),
  queued: z.number().int(),
  /** DMs that were not queued because their recipient may not be contacted, by reason. */
  skipped: z.number().int(),
  first_at: ZIsoDateTime.nullable(),
  last_at: ZIsoDateTime.nullable(),
  accounts: z.array(
    z.object({
      account_id: z.string(),
      reddit_username: z.string(),
      queued: z.number().int(),
    }),
  ),
});
export type TSendDmsBulkResponse = z.infer<typeof ZSendDmsBulkResponse>;

export const ZCancelQueuedRequest = z.object({ project_id: z.uuid({ error: 'Project not found' }) });
export type TCancelQueuedRequest = z.input<typeof ZCancelQueuedRequest>;

/** Stop sending: how many queued DMs went back to the unsent ones. */
export const ZCancelQueuedResponse = z.object({ message: z.string(), cancelled: z.number().int() });
export type TCancelQueuedResponse = z.infer<typeof ZCancelQueuedResponse>;

/** States a DM shows in the sending status. */
export const ZSendingState = z.enum(['queued', 'sending', 'sent', 'failed', 'unknown']);
export type TSendingState = z.infer<typeof ZSendingState>;

export const ZSendingStatusQuery = ZPageQuery.extend({
  /** One project; without it, the DMs of all the caller's own projects. */
  project_id: z.uuid({ error: 'Project not found' }).optional(),
  state: ZSendingState.optional(),
});
export type TSendingStatusQuery = z.input<typeof ZSendingStatusQuery>;

export const ZSendingItem = z
  .object({
    id: z.string(),
    project_id: z.string(),
    recipient_username: z.string(),
    state: ZSendingState,
    account_id: z.string().nullable(),
    account_username: z.string().nullable(),
    scheduled_for: ZIsoDateTime.nullable(),
    claimed_at: ZIsoDateTime.nullable(),
    sent_at: ZIsoDateTime.nullable(),
    failed_at: ZIsoDateTime.nullable(),
    outcome_code: z.string().nullable(),
    outcome_reason: z.string().nullable(),
    attempts: z.number().int(),
    updated_at: ZIsoDateTime,
  })
  .meta({ id: 'SendingItem' });
export type TSendingItem = z.infer<typeof ZSendingItem>;

export const ZSendingCounts = z.object({
  queued: z.number().int(),
  sending: z.number().int(),
  sent: z.number().int(),
  /** Failed sends, as the campaign's counts have them: not those held back (`withheld`). */
  failed: z.number().int(),
  /** Failed DMs held back because of their person (WITHHELD_OUTCOME_CODES): never tried, so not in `failed`. */
  withheld: z.number().int(),
  unknown: z.number().int(),
  /** Of `unknown`, those checked no more: their account was removed before Reddit confirmed them. */
  delivery_unknown: z.number().int(),
  /** Of `queued`, those the agent queued: Stop Agent takes them back, Stop sending the others. */
  queued_by_agent: z.number().int(),
});
export type TSendingCounts = z.infer<typeof ZSendingCounts>;

/** GET dm-sending-status: counts by state, when the next queued DM goes and why not sooner, and one page of DMs. */
export const ZSendingStatus = ZPage(ZSendingItem).extend({
  counts: ZSendingCounts,
  next_scheduled_for: ZIsoDateTime.nullable(),
  /**
   * Why the next queued DM is not going yet: its account and the account's reason (outside working hours,
   * daily limit reached, waiting between messages…). Null when none is queued or it is due.
   */
  next_wait: z.object({ account_username: z.string(), reason: z.string() }).nullable(),
});
export type TSendingStatus = z.infer<typeof ZSendingStatus>;
