import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import { onTestFinished, vi } from 'vitest';
import type { z } from 'zod';
import {
  DAY_COLUMN_VALUES,
  PROJECT_COLUMN_VALUES,
  applyStatsFilters,
  columnValues,
  groupByDay,
  parseStatsFilter,
  type TDailyStatisticsResponse,
  type TDateRangeStatisticsResponse,
  type TDayProjectStatistics,
  type TMonthlyStatisticsResponse,
  type TProjectStatistics,
  type TStatisticsPoint,
  type ZDailyStatisticsQuery,
} from '@threadreach/contract';
import { AppProviders } from '../../app/app-providers';
import { setToken } from '../../lib/token-storage';
import { testQueryClient } from '../../test/render-app';
import { makeToken } from '../../test/tokens';

export const PROJECT_ID = '0d9a3c52-6f4e-4b1a-9c3d-5e6f7a8b9c0d';

/**
 * For the rest of the test, the browser's clock reads `iso` (and runs on from there) in time zone `zone`:
 * only `Date` is faked, timers stay real.
 */
export function browserClockAt(zone: string, iso: string) {
  const before = process.env.TZ;
  process.env.TZ = zone;
  vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
  vi.setSystemTime(new Date(iso));
  onTestFinished(() => {
    vi.useRealTimers();
    if (before === undefined) delete process.env.TZ;
    else process.env.TZ = before;
  });
}

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

type TQuery = z.output<typeof ZDailyStatisticsQuery>;

/** The server's page of rows for a query: its column filters, then its page (contract's own rules). */
function page<R>(rows: R[], columns: Parameters<typeof applyStatsFilters<R>>[1], query?: TQuery) {
  const filters = parseStatsFilter(query?.filter);
  const shown = applyStatsFilters(rows, columns, filters);
  const limit = query?.limit ?? 100;
  const offset = query?.offset ?? 0;
  return {
    rows: shown.slice(offset, offset + limit),
    total: shown.length,
    limit,
    offset,
    filter_values: columnValues(rows, columns),
  };
}

/** The answer for projects as the server gives it for `query` (all of them on one page without). */
export function byProject(
  data: TProjectStatistics[],
  summary: Partial<TDailyStatisticsResponse['summary']> = {},
  query?: TQuery,
): TDailyStatisticsResponse {
  const { rows, ...paging } = page(data, PROJECT_COLUMN_VALUES, query);
  return {
    group_by: 'project',
    start_date: '2030-01-07',
    end_date: '2030-01-09',
    summary: { ...SUMMARY, ...summary },
    series: [point('2030-01-07', { dms_sent: 2, leads: 5 }), point('2030-01-08'), point('2030-01-09')],
    ...paging,
    data: rows,
  };
}

/** The answer for rows per day and project as the server gives it for `query`: whole days a page. */
export function byDay(data: TDayProjectStatistics[], query?: TQuery): TDailyStatisticsResponse {
  const { rows, ...paging } = page(groupByDay(data), DAY_COLUMN_VALUES, query);
  return {
    ...byProject([]),
    group_by: 'day',
    ...paging,
    data: rows.flatMap((day) => day.projects),
  };
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
