import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import type {
  TDailyStatisticsResponse,
  TDateRangeStatisticsResponse,
  TDayProjectStatistics,
  TMonthlyStatisticsResponse,
  TProjectStatistics,
  TStatisticsPoint,
} from '@threadreach/contract';
import { AppProviders } from '../../app/app-providers';
import { setToken } from '../../lib/token-storage';
import { testQueryClient } from '../../test/render-app';
import { makeToken } from '../../test/tokens';

export const PROJECT_ID = '0d9a3c52-6f4e-4b1a-9c3d-5e6f7a8b9c0d';

/** One component on its own, signed in with `roles`. */
export function renderAs(roles: string[], ui: ReactElement) {
  setToken(makeToken({ roles }));
  return render(<AppProviders queryClient={testQueryClient()}>{ui}</AppProviders>);
}

export function point(date: string, values: Partial<TStatisticsPoint> = {}): TStatisticsPoint {
  return { date, dms_sent: 0, replies: 0, leads: 0, ...values };
}

export function projectStats(overrides: Partial<TProjectStatistics> = {}): TProjectStatistics {
  return {
    project_id: 'p-1',
    project_name: 'Alpha',
    accounts_connected: 0,
    approved_keywords: 0,
    approved_subreddits: 0,
    total_posts_searched: 0,
    total_messages_generated: 0,
    sent: 0,
    failed: 0,
    expired: 0,
    top_subreddits: [],
    accounts: [],
    ...overrides,
  };
}

export function dayStats(overrides: Partial<TDayProjectStatistics> = {}): TDayProjectStatistics {
  return {
    date: '2030-01-07',
    project_id: 'p-1',
    project_name: 'Alpha',
    posts_searched: 0,
    messages_generated: 0,
    sent: 0,
    failed: 0,
    expired: 0,
    ...overrides,
  };
}

const SUMMARY = {
  total_projects: 0,
  total_accounts: 0,
  total_posts_found: 0,
  total_dms_generated: 0,
  sent: 0,
  failed: 0,
  expired: 0,
  total_replies: 0,
};

export function byProject(
  data: TProjectStatistics[],
  summary: Partial<TDailyStatisticsResponse['summary']> = {},
): TDailyStatisticsResponse {
  return {
    group_by: 'project',
    start_date: '2030-01-07',
    end_date: '2030-01-09',
    summary: { ...SUMMARY, ...summary },
    series: [point('2030-01-07', { dms_sent: 2, leads: 5 }), point('2030-01-08'), point('2030-01-09')],
    data,
  };
}

export function byDay(data: TDayProjectStatistics[]): TDailyStatisticsResponse {
  return { ...byProject([]), group_by: 'day', data };
}

export function monthlyAnswer(
  summary: Partial<TMonthlyStatisticsResponse['summary']> = {},
  overrides: Partial<TMonthlyStatisticsResponse> = {},
): TMonthlyStatisticsResponse {
  return {
    year: 2030,
    month: 1,
    start_date: '2030-01-01',
    end_date: '2030-01-31',
    summary: {
      total_messages_sent: 0,
      total_messages_generated: 0,
      total_posts_found: 0,
      total_comments_found: 0,
      total_searches_performed: 0,
      total_messages_failed: 0,
      total_replies: 0,
      reply_rate: null,
      ...summary,
    },
    granularity: 'day',
    series: [point('2030-01-01')],
    ...overrides,
  };
}

export function rangeAnswer(
  statistics: Partial<TDateRangeStatisticsResponse['statistics']> = {},
): TDateRangeStatisticsResponse {
  return {
    start_date: '2030-01-05',
    end_date: '2030-01-11',
    date_range_days: 7,
    statistics: {
      messages_sent: 0,
      messages_generated: 0,
      posts_found: 0,
      comments_found: 0,
      searches_performed: 0,
      average_messages_per_day: 0,
      success_rate: null,
      messages_failed: 0,
      replies: 0,
      reply_rate: null,
      ...statistics,
    },
    series: [point('2030-01-05')],
  };
}
