import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { TReplyStatus } from '@threadreach/contract';
import { getCampaignStatistics, listHistory, type THistoryPage } from '../api/history.api';

/** Rows per page of the History tab. */
export const HISTORY_PAGE_SIZE = 20;
/** Replies arrive through the inbox polls in the background: the tab and the counts reload this often. */
export const HISTORY_REFRESH_MS = 60_000;

export const historyKeys = {
  all: (projectId: string) => ['history', projectId] as const,
  list: (projectId: string, page: THistoryPage) => ['history', projectId, 'list', page] as const,
  statistics: (projectId: string) => ['history', projectId, 'statistics'] as const,
};

export function useHistory(projectId: string, page: number, replyStatus: TReplyStatus | null) {
  const p: THistoryPage = { limit: HISTORY_PAGE_SIZE, offset: (page - 1) * HISTORY_PAGE_SIZE, replyStatus };
  return useQuery({
    queryKey: historyKeys.list(projectId, p),
    queryFn: () => listHistory(projectId, p),
    placeholderData: keepPreviousData,
    refetchInterval: HISTORY_REFRESH_MS,
  });
}

export function useCampaignStatistics(projectId: string) {
  return useQuery({
    queryKey: historyKeys.statistics(projectId),
    queryFn: () => getCampaignStatistics(projectId),
    refetchInterval: HISTORY_REFRESH_MS,
  });
}
