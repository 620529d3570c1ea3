import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { TSystemLogsQuery } from '@threadreach/contract';
import { listSystemLogs } from '../api/system-logs.api';

/** The auto-refresh period: its checkbox says 5s, the page refreshes every 15 s (spec section 9). */
export const LOGS_AUTO_REFRESH_MS = 15_000;

export const systemLogKeys = {
  all: ['system-logs'] as const,
  list: (query: TSystemLogsQuery) => ['system-logs', query] as const,
};

export function useSystemLogs(query: TSystemLogsQuery, autoRefresh: boolean) {
  return useQuery({
    queryKey: systemLogKeys.list(query),
    queryFn: () => listSystemLogs(query),
    placeholderData: keepPreviousData,
    // Logs age by the second: every page shown is asked for anew.
    staleTime: 0,
    refetchOnWindowFocus: false,
    refetchInterval: autoRefresh ? LOGS_AUTO_REFRESH_MS : false,
  });
}
