import {
  statisticsEndpoints,
  type TDailyStatisticsQuery,
  type TDailyStatisticsResponse,
  type TDateRangeQuery,
  type TDateRangeStatisticsResponse,
  type TMonthlyStatisticsQuery,
  type TMonthlyStatisticsResponse,
  type TRefreshAllTokensResponse,
  type TResetDailyLimitsResponse,
} from '@threadreach/contract';
import { call } from '../../../lib/api-client';

export function getAllProjectsStatistics(query: TDailyStatisticsQuery): Promise<TDailyStatisticsResponse> {
  return call(statisticsEndpoints.allProjects, { query });
}

export function getMonthlyStatistics(
  projectId: string,
  query: TMonthlyStatisticsQuery,
): Promise<TMonthlyStatisticsResponse> {
  return call(statisticsEndpoints.monthly, { params: { projectId }, query });
}

export function getDateRangeStatistics(
  projectId: string,
  query: TDateRangeQuery,
): Promise<TDateRangeStatisticsResponse> {
  return call(statisticsEndpoints.dateRange, { params: { projectId }, query });
}

export function resetDailyLimits(projectId: string): Promise<TResetDailyLimitsResponse> {
  return call(statisticsEndpoints.resetDailyLimits, { params: { projectId } });
}

export function refreshAllTokens(projectId: string): Promise<TRefreshAllTokensResponse> {
  return call(statisticsEndpoints.refreshAllTokens, { params: { projectId } });
}
