import type { TDmMessage } from '@threadreach/contract';
import { alreadyAnswered, onTheList, type SuppressionReason } from '../suppressions';
import { DM_EXPIRED } from './dm-expiry';
import type { DmMessageRow } from './dms.table';

const iso = (d: Date | null) => d?.toISOString() ?? null;

/**
 * What stops a Send of the DM: its recipient's entry on the do-not-contact list, an answer before, a lead
 * older than DM_EXPIRY_DAYS.
 */
export interface SendStanding {
  suppression: SuppressionReason | null;
  answered: boolean;
  leadExpired: boolean;
}

/**
 * A DM as step 4 lists it, with why its recipient is on the workspace's do-not-contact list (null when not),
 * whether they already answered the workspace and whether its lead is too old, in the words a Send would be
 * refused with.
 */
export function presentDm(
  row: DmMessageRow,
  { suppression, answered, leadExpired }: SendStanding,
): TDmMessage {
  return {
    id: row.id,
    project_id: row.projectId,
    message_content: row.messageContent,
    original_content: row.originalContent,
    edited: row.messageContent !== row.originalContent,
    edited_at: iso(row.editedAt),
    state: row.state,
    sent: row.state === 'sent',
    approved: row.state !== 'draft' && row.state !== 'expired',
    source_type: row.sourceType,
    recipient_username: row.recipientUsername,
    subject: row.subject,
    post_id: row.sourceType === 'post' ? row.leadId : null,
    comment_id: row.sourceType === 'comment' ? row.leadId : null,
    profile_id: row.sourceType === 'profile' ? row.profileId : null,
    reddit_post_id: row.redditPostId,
    post_title: row.postTitle,
    comment_content: row.commentContent,
    subreddit: row.subreddit,
    matched_keywords: row.matchedKeywords,
    variant: row.variant,
    scheduled_for: iso(row.scheduledFor),
    sent_at: iso(row.sentAt),
    failed_at: iso(row.failedAt),
    outcome_code: row.outcomeCode,
    outcome_reason: row.outcomeReason,
    replied_at: iso(row.repliedAt),
    do_not_contact: suppression
      ? { reason: suppression, detail: `u/${row.recipientUsername} ${onTheList(suppression)}` }
      : null,
    already_answered: answered ? { detail: alreadyAnswered(row.recipientUsername) } : null,
    lead_expired: leadExpired ? { detail: DM_EXPIRED } : null,
    created_at: row.createdAt.toISOString(),
    generated_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
