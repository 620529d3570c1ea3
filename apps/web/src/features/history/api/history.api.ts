import {
  historyEndpoints,
  type TCampaignStatistics,
  type TCheckRepliesResult,
  type THistoryList,
  type TReplyStatus,
} from '@threadreach/contract';
import { call } from '../../../lib/api-client';

export interface THistoryPage {
  limit: number;
  offset: number;
  replyStatus: TReplyStatus | null;
}

export function listHistory(projectId: string, page: THistoryPage): Promise<THistoryList> {
  return call(historyEndpoints.list, {
    params: { projectId },
    query: {
      limit: page.limit,
      offset: page.offset,
      ...(page.replyStatus ? { reply_status: page.replyStatus } : {}),
    },
  });
}

export function getCampaignStatistics(projectId: string): Promise<TCampaignStatistics> {
  return call(historyEndpoints.campaignStatistics, { query: { project_id: projectId } });
}

export function checkReplies(projectId: string): Promise<TCheckRepliesResult> {
  return call(historyEndpoints.checkReplies, { params: { projectId } });
}
