import type { TCampaignStatistics, THistoryList, TPageQuery, TReplyStatus } from '@threadreach/contract';
import type { AppContext } from '../../context';
import type { DmReplyRow } from '../replies/replies.table';
import { countDms, listContacted, repliesTo } from './history.repository';
import { presentHistoryItem } from './history.presenter';

/** Reply rates are shown as percentages with one decimal: four decimals of the fraction. */
const RATE_DECIMALS = 10_000;

export async function listHistory(
  ctx: AppContext,
  projectId: string,
  query: TPageQuery & { reply_status?: TReplyStatus | undefined },
): Promise<THistoryList> {
  const { rows, total } = await listContacted(ctx.db, projectId, {
    ...query,
    replyStatus: query.reply_status,
  });
  const replies = await repliesTo(
    ctx.db,
    projectId,
    rows.map((r) => r.dm.id),
  );
  const byDm = new Map<string, DmReplyRow[]>();
  for (const reply of replies) byDm.set(reply.dmId, [...(byDm.get(reply.dmId) ?? []), reply]);
  return {
    items: rows.map((row) => presentHistoryItem(row, byDm.get(row.dm.id) ?? [])),
    total,
    limit: query.limit,
    offset: query.offset,
  };
}

export async function campaignStatistics(ctx: AppContext, projectId: string): Promise<TCampaignStatistics> {
  const counts = await countDms(ctx.db, projectId);
  const rate = counts.sent > 0 ? Math.min(1, counts.replied / counts.sent) : 0;
  return {
    project_id: projectId,
    ...counts,
    reply_rate: Math.round(rate * RATE_DECIMALS) / RATE_DECIMALS,
  };
}
