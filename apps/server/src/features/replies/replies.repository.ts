import { and, eq, gte, inArray, isNotNull, ne, or, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { claimedBySameRedditAccount, redditAccounts, type RedditAccountRow } from '../accounts';
import { dmMessages } from '../dms/dms.table';
import { dmReplies } from './replies.table';

/** DMs that reached (or may have reached) their recipient: replies can only answer these. */
const DELIVERED_STATES = ['sent', 'unknown'] as const;
/** DMs not sent yet: an answer from their recipient to an earlier DM stops them. */
const UNSENT_STATES = ['draft', 'approved', 'queued'] as const;

/**
 * DMs the connection's Reddit account claimed: through this connection, or through an earlier one of the
 * same Reddit account in the workspace (removed and connected again, a DM keeps no account id but its
 * sender key). Their answers arrive in the same Reddit inbox.
 */
function sentFromInbox(account: Pick<RedditAccountRow, 'id' | 'ownerUserId' | 'redditUsername'>): SQL {
  return or(eq(dmMessages.accountId, account.id), claimedBySameRedditAccount(account))!;
}

/**
 * Connected accounts whose grant is usable and whose Reddit account sent a DM since `since` through it
 * or an earlier connection (every send is claimed first, so the claim index finds them).
 */
export async function accountsToPoll(db: DbOrTx, since: Date): Promise<string[]> {
  const rows = await db
    .select({ id: redditAccounts.id })
    .from(redditAccounts)
    .where(
      and(
        eq(redditAccounts.authStatus, 'valid'),
        eq(redditAccounts.isActive, true),
        isNotNull(redditAccounts.credentialId),
        isNotNull(redditAccounts.refreshTokenCiphertext),
        sql`exists (select 1 from ${dmMessages} where (${dmMessages.accountId} = ${redditAccounts.id}
            or (${dmMessages.ownerUserId} = ${redditAccounts.ownerUserId}
              and ${dmMessages.senderKey} = lower(${redditAccounts.redditUsername})))
          and ${dmMessages.claimedAt} >= ${since}
          and ${inArray(dmMessages.state, [...DELIVERED_STATES])})`,
      ),
    );
  return rows.map((r) => r.id);
}

export async function findAccount(db: DbOrTx, id: string): Promise<RedditAccountRow | null> {
  const [row] = await db.select().from(redditAccounts).where(eq(redditAccounts.id, id));
  return row ?? null;
}

/** When the oldest DM this account's inbox answers, sent since `since`, went out; null when it sent none. */
export async function oldestWatchedSend(
  db: DbOrTx,
  account: Pick<RedditAccountRow, 'id' | 'ownerUserId' | 'redditUsername'>,
  since: Date,
): Promise<Date | null> {
  const [row] = await db
    .select({ at: sql<string | null>`min(coalesce(${dmMessages.sentAt}, ${dmMessages.claimedAt}))` })
    .from(dmMessages)
    .where(
      and(
        sentFromInbox(account),
        gte(dmMessages.claimedAt, since),
        inArray(dmMessages.state, [...DELIVERED_STATES]),
      ),
    );
  return row?.at ? new Date(row.at) : null;
}

export interface DeliveredDm {
  id: string;
  projectId: string;
  recipientUsername: string;
  recipientKey: string;
  subject: string;
  sentAt: Date;
}

/** The account's delivered DMs to any of these people (lower-case names), earlier connections' too. */
export async function deliveredDmsTo(
  db: DbOrTx,
  account: Pick<RedditAccountRow, 'id' | 'ownerUserId' | 'redditUsername'>,
  recipientKeys: string[],
): Promise<DeliveredDm[]> {
  if (recipientKeys.length === 0) return [];
  const rows = await db
    .select({
      id: dmMessages.id,
      projectId: dmMessages.projectId,
      recipientUsername: dmMessages.recipientUsername,
      recipientKey: dmMessages.recipientKey,
      subject: dmMessages.subject,
      sentAt:
        sql<Date>`coalesce(${dmMessages.sentAt}, ${dmMessages.claimedAt}, ${dmMessages.createdAt})`.mapWith(
          (v: string | Date) => new Date(v),
        ),
    })
    .from(dmMessages)
    .where(
      and(
        eq(dmMessages.ownerUserId, account.ownerUserId),
        inArray(dmMessages.recipientKey, recipientKeys),
        sentFromInbox(account),
        inArray(dmMessages.state, [...DELIVERED_STATES]),
      ),
    );
  return rows;
}

export interface NewReply {
  projectId: string;
  dmId: string;
  accountId: string;
  redditName: string;
  author: string;
  body: string;
  isRefusal: boolean;
  receivedAt: Date;
  createdAt: Date;
}

/** Stores a reply once: false when this inbox item was stored for the DM already. */
export async function insertReply(db: DbOrTx, reply: NewReply): Promise<boolean> {
  const rows = await db
    .insert(dmReplies)
    .values(reply)
    .onConflictDoNothing({ target: [dmReplies.dmId, dmReplies.redditName] })
    .returning({ id: dmReplies.id });
  return rows.length > 0;
}

/** The DM's replied_at is its first answer's time. */
export async function markReplied(db: DbOrTx, dmId: string, receivedAt: Date, at: Date): Promise<void> {
  await db
    .update(dmMessages)
    .set({
      repliedAt: sql`least(coalesce(${dmMessages.repliedAt}, ${receivedAt}), ${receivedAt})`,
      updatedAt: at,
    })
    .where(eq(dmMessages.id, dmId));
}

/**
 * The workspace's DMs to the same person that were not sent yet fail with outcome `replied`: nobody
 * who answered gets a second message. Returns how many.
 */
export async function stopUnsentDms(
  db: DbOrTx,
  dm: { id: string; ownerUserId: string; recipientKey: string },
  reason: string,
  at: Date,
): Promise<number> {
  const rows = await db
    .update(dmMessages)
    .set({ state: 'failed', outcomeCode: 'replied', outcomeReason: reason, failedAt: at, updatedAt: at })
    .where(
      and(
        eq(dmMessages.ownerUserId, dm.ownerUserId),
        eq(dmMessages.recipientKey, dm.recipientKey),
        ne(dmMessages.id, dm.id),
        inArray(dmMessages.state, [...UNSENT_STATES]),
      ),
    )
    .returning({ id: dmMessages.id });
  return rows.length;
}

export async function saveInboxPosition(
  db: DbOrTx,
  accountId: string,
  cursor: string | null,
  at: Date,
): Promise<void> {
  await db
    .update(redditAccounts)
    .set({ inboxCursor: cursor, inboxCheckedAt: at })
    .where(eq(redditAccounts.id, accountId));
}

/**
 * The project's accounts that sent (or may have sent) a DM of this project since `since`, by name: the
 * DM's own connection, or the project's present connection of the Reddit account that claimed it.
 */
export async function accountsThatSentFor(
  db: DbOrTx,
  projectId: string,
  since: Date,
): Promise<Array<{ id: string; redditUsername: string }>> {
  return db
    .selectDistinct({ id: redditAccounts.id, redditUsername: redditAccounts.redditUsername })
    .from(dmMessages)
    .innerJoin(
      redditAccounts,
      or(
        eq(redditAccounts.id, dmMessages.accountId),
        and(
          eq(redditAccounts.projectId, dmMessages.projectId),
          eq(sql`lower(${redditAccounts.redditUsername})`, dmMessages.senderKey),
        ),
      ),
    )
    .where(
      and(
        eq(dmMessages.projectId, projectId),
        gte(dmMessages.claimedAt, since),
        inArray(dmMessages.state, [...DELIVERED_STATES]),
      ),
    )
    .orderBy(redditAccounts.redditUsername);
}
