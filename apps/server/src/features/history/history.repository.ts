import { and, count, desc, eq, inArray, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import type { TPageQuery, TReplyStatus } from '@threadreach/contract';
import type { DbOrTx } from '../../db/client';
import { dmSenderName } from '../accounts';
import { countWhere, dmOutcomeCounts } from '../dms';
import { dmMessages, type DmMessageRow } from '../dms/dms.table';
import { dmReplies, type DmReplyRow } from '../replies/replies.table';

export interface HistoryRow {
  dm: DmMessageRow;
  accountUsername: string | null;
  refused: boolean;
}

// Written out: a query over one table leaves its columns unqualified, and `id` would be the reply's.
const refused = sql<boolean>`exists (select 1 from dm_replies r
  where r.dm_id = "dm_messages"."id" and r.is_refusal)`;

function statusCondition(status: TReplyStatus | undefined): SQL | undefined {
  if (status === 'no_reply') return isNull(dmMessages.repliedAt);
  if (status === 'replied') return and(isNotNull(dmMessages.repliedAt), sql`not ${refused}`);
  if (status === 'refused') return refused;
  return undefined;
}

/** One page of the project's sent DMs, the latest sent first. */
export async function listContacted(
  db: DbOrTx,
  projectId: string,
  page: TPageQuery & { replyStatus?: TReplyStatus | undefined },
): Promise<{ rows: HistoryRow[]; total: number }> {
  const where = and(
    eq(dmMessages.projectId, projectId),
    eq(dmMessages.state, 'sent'),
    statusCondition(page.replyStatus),
  );
  const [rows, totals] = await Promise.all([
    db
      .select({ dm: dmMessages, accountUsername: dmSenderName, refused })
      .from(dmMessages)
      .where(where)
      .orderBy(desc(dmMessages.sentAt), desc(dmMessages.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: count() }).from(dmMessages).where(where),
  ]);
  return { rows, total: totals[0]?.n ?? 0 };
}

/** The replies to these DMs, the latest first. */
export async function repliesTo(db: DbOrTx, projectId: string, dmIds: string[]): Promise<DmReplyRow[]> {
  if (dmIds.length === 0) return [];
  return db
    .select()
    .from(dmReplies)
    .where(and(eq(dmReplies.projectId, projectId), inArray(dmReplies.dmId, dmIds)))
    .orderBy(desc(dmReplies.receivedAt), desc(dmReplies.id));
}

export interface DmCounts {
  generated: number;
  sent: number;
  failed: number;
  expired: number;
  pending: number;
  replied: number;
  refused: number;
}

/** The project's DMs by state and reply, counted from the rows in two indexed scans of the project. */
export async function countDms(db: DbOrTx, projectId: string): Promise<DmCounts> {
  const [dms, replies] = await Promise.all([
    db
      .select({
        generated: count(),
        ...dmOutcomeCounts(),
        pending: countWhere(
          sql`${dmMessages.state} in ('draft', 'approved', 'queued', 'sending', 'unknown')`,
        ),
        replied: countWhere(sql`${dmMessages.repliedAt} is not null`),
      })
      .from(dmMessages)
      .where(eq(dmMessages.projectId, projectId)),
    db
      .select({ refused: sql<number>`count(distinct ${dmReplies.dmId})`.mapWith(Number) })
      .from(dmReplies)
      .where(and(eq(dmReplies.projectId, projectId), eq(dmReplies.isRefusal, true))),
  ]);
  // Held back DMs are generated only: the summary has no count of them (the sending status shows them).
  const { withheld: _apart, ...row } = dms[0]!;
  return { ...row, refused: replies[0]?.refused ?? 0 };
}
