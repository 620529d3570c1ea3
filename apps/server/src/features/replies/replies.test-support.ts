import { randomUUID } from 'node:crypto';
import type { DbOrTx } from '../../db/client';
import { dmMessages, type DmMessageRow, type DmState } from '../dms/dms.table';

export interface DmSpec {
  projectId: string;
  /** The workspace: the project's owner. */
  ownerUserId: string;
  recipient: string;
  state?: DmState;
  subject?: string;
  text?: string;
  accountId?: string | null;
  /** When it was sent (sent DMs; also their claim time). */
  sentAt?: Date | null;
  createdAt?: Date;
  repliedAt?: Date | null;
  subreddit?: string | null;
  postTitle?: string | null;
}

/** A DM row written straight to the table, in any state. */
export async function insertDm(db: DbOrTx, spec: DmSpec): Promise<DmMessageRow> {
  const state = spec.state ?? 'sent';
  const createdAt = spec.createdAt ?? new Date(Date.UTC(2026, 0, 1));
  const sentAt = spec.sentAt === undefined ? (state === 'sent' ? createdAt : null) : spec.sentAt;
  const text = spec.text ?? `Hi u/${spec.recipient}, saw your post and thought our tool could help.`;
  const [row] = await db
    .insert(dmMessages)
    .values({
      projectId: spec.projectId,
      ownerUserId: spec.ownerUserId,
      sourceType: 'post',
      redditPostId: `t3_${randomUUID().slice(0, 8)}`,
      postTitle: spec.postTitle === undefined ? 'Looking for a CRM' : spec.postTitle,
      subreddit: spec.subreddit === undefined ? 'SaaS' : spec.subreddit,
      matchedKeywords: ['crm'],
      recipientUsername: spec.recipient,
      recipientKey: spec.recipient.toLowerCase(),
      subject: spec.subject ?? 'About your post',
      messageContent: text,
      originalContent: text,
      state,
      accountId: spec.accountId ?? null,
      claimedAt: sentAt,
      sentAt,
      repliedAt: spec.repliedAt ?? null,
      createdAt,
      updatedAt: createdAt,
    })
    .returning();
  return row!;
}
