import type { THistoryItem } from '@threadreach/contract';
import type { DmReplyRow } from '../replies/replies.table';
import type { HistoryRow } from './history.repository';

/** A contacted person: the DM, and their replies (the latest first). */
export function presentHistoryItem(row: HistoryRow, replies: DmReplyRow[]): THistoryItem {
  const { dm } = row;
  const [last] = replies;
  return {
    dm_id: dm.id,
    recipient_username: dm.recipientUsername,
    sent_at: (dm.sentAt ?? dm.updatedAt).toISOString(),
    account_username: row.accountUsername,
    subject: dm.subject,
    message_content: dm.messageContent,
    source_type: dm.sourceType,
    subreddit: dm.subreddit,
    post_title: dm.postTitle,
    reply_status: row.refused ? 'refused' : dm.repliedAt ? 'replied' : 'no_reply',
    reply_count: replies.length,
    last_reply: last
      ? { body: last.body, received_at: last.receivedAt.toISOString(), is_refusal: last.isRefusal }
      : null,
  };
}
