import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TDailyStatisticsQuery, TDateRangeQuery, TMonthlyStatisticsQuery } from '@threadreach/contract';
import {
  getAllProjectsStatistics,
  getDateRangeStatistics,
  getMonthlyStatistics,
  refreshAllTokens,
  resetDailyLimits,
} from '../api/statistics.api';
import { accountKeys } from '../../accounts';

export const statisticsKeys = {
  all: ['statistics'] as const,
  allProjects: (query: TDailyStatisticsQuery) => ['statistics', 'all-projects', query] as const,
  monthly: (projectId: string, query: TMonthlyStatisticsQuery) =>
    ['statistics', projectId, 'monthly', query] as const,
  range: (projectId: string, query: TDateRangeQuery) => ['statistics', projectId, 'range', query] as const,
};

/** Figures move as DMs go out: each view is asked for anew when it is shown. */
const FRESH = { staleTime: 0, refetchOnWindowFocus: false } as const;

export function useAllProjectsStatistics(query: TDailyStatisticsQuery) {
  return useQuery({
    queryKey: statisticsKeys.allProjects(query),
    queryFn: () => getAllProjectsStatistics(query),
    placeholderData: keepPreviousData,
    ...FRESH,
  });
}

/** A month or a year of the project; nothing is asked while no year is chosen. */
export function useMonthlyStatistics(projectId: string, query: TMonthlyStatisticsQuery | null) {
  return useQuery({
    queryKey: statisticsKeys.monthly(projectId, query ?? { year: 0 }),
    queryFn: () => getMonthlyStatistics(projectId, query!),
    enabled: query !== null,
    ...FRESH,
  });
}

/** A custom range of the project; nothing is asked until one is loaded. */
export function useDateRangeStatistics(projectId: string, query: TDateRangeQuery | null) {
  return useQuery({
    queryKey: statisticsKeys.range(projectId, query ?? { start_date: '', end_date: '' }),
    queryFn: () => getDateRangeStatistics(projectId, query!),
    enabled: query !== null,
    ...FRESH,
  });
}

/** The accounts panel shows what each account has left and whether it is signed in: both change here. */
function useAccountsReload(projectId: string) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: accountKeys.list(projectId) });
}

export function useResetDailyLimits(projectId: string) {
  const reloadAccounts = useAccountsReload(projectId);
  return useMutation({ mutationFn: () => resetDailyLimits(projectId), onSuccess: reloadAccounts });
}

export function useRefreshAllTokens(projectId: string) {
  const reloadAccounts = useAccountsReload(projectId);
  return useMutation({ mutationFn: () => refreshAllTokens(projectId), onSuccess: reloadAccounts });
}
