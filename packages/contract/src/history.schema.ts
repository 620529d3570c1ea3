import { z } from 'zod';
import { ZDmSourceType } from './ai.schema';
import { ZIsoDateTime, ZPage, ZPageQuery } from './common.schema';

/** What came back from a contacted person: nothing yet, an answer, or a request not to be contacted. */
export const ZReplyStatus = z.enum(['no_reply', 'replied', 'refused']);
export type TReplyStatus = z.infer<typeof ZReplyStatus>;

export const ZHistoryReply = z.object({
  body: z.string(),
  received_at: ZIsoDateTime,
  is_refusal: z.boolean(),
});
export type THistoryReply = z.infer<typeof ZHistoryReply>;

/** A person the project contacted: the DM sent to them and what they answered. */
export const ZHistoryItem = z
  .object({
    dm_id: z.string(),
    recipient_username: z.string(),
    sent_at: ZIsoDateTime,
    /** The connected account that sent it; null once that account was removed. */
    account_username: z.string().nullable(),
    subject: z.string(),
    message_content: z.string(),
    source_type: ZDmSourceType,
    subreddit: z.string().nullable(),
    post_title: z.string().nullable(),
    reply_status: ZReplyStatus,
    reply_count: z.number().int(),
    /** Their latest answer. */
    last_reply: ZHistoryReply.nullable(),
  })
  .meta({ id: 'HistoryItem' });
export type THistoryItem = z.infer<typeof ZHistoryItem>;

/** Contacted people, the latest sent first; `reply_status` keeps one kind. */
export const ZHistoryQuery = ZPageQuery.extend({ reply_status: ZReplyStatus.optional() });
export type THistoryQuery = z.input<typeof ZHistoryQuery>;

export const ZHistoryList = ZPage(ZHistoryItem);
export type THistoryList = z.infer<typeof ZHistoryList>;

export const ZCampaignStatisticsQuery = z.object({ project_id: z.uuid({ error: 'Project not found' }) });

/**
 * A project's DMs counted from the rows themselves: every DM ever generated, those sent, failed or
 * expired, those still on their way (draft to sending, or unknown until reconciled), and the sent
 * ones that got an answer.
 */
export const ZCampaignStatistics = z
  .object({
    project_id: z.string(),
    generated: z.number().int(),
    sent: z.number().int(),
    failed: z.number().int(),
    expired: z.number().int(),
    pending: z.number().int(),
    replied: z.number().int(),
    /** Replies asking not to be contacted (counted in `replied` too). */
    refused: z.number().int(),
    /** replied / sent, 0 to 1; 0 while nothing was sent. */
    reply_rate: z.number().min(0).max(1),
  })
  .meta({ id: 'CampaignStatistics' });
export type TCampaignStatistics = z.infer<typeof ZCampaignStatistics>;

/** What "Check for replies" found: each account that sent the project's DMs, read now. */
export const ZCheckRepliesResult = z
  .object({
    project_id: z.string(),
    accounts_checked: z.number().int(),
    /** Replies not seen before. */
    new_replies: z.number().int(),
    /** Of those, asking not to be contacted: the person is on the do-not-contact list now. */
    refusals: z.number().int(),
    /** Accounts that could not be read now, and why (sign in again, Reddit's budget, Reddit down). */
    not_checked: z.array(z.object({ account_username: z.string(), reason: z.string() })),
  })
  .meta({ id: 'CheckRepliesResult' });
export type TCheckRepliesResult = z.infer<typeof ZCheckRepliesResult>;
