import { describe, expect, it } from 'vitest';
import {
  ZDailyStatisticsQuery,
  ZDateRangeQuery,
  ZMonthlyStatisticsQuery,
  dayNumber,
  dayString,
  rangeDays,
} from './statistics.schema';

const issues = (schema: typeof ZDateRangeQuery | typeof ZDailyStatisticsQuery, query: object) => {
  const result = schema.safeParse(query);
  return result.success ? [] : result.error.issues.map((i) => i.message);
};

describe('statistics dates', () => {
  it('reads real UTC calendar days only', () => {
    expect(dayNumber('1970-01-02')).toBe(1);
    expect(dayString(dayNumber('2028-02-29')!)).toBe('2028-02-29');
    expect(dayNumber('2027-02-29')).toBeNull();
    expect(dayNumber('2030-13-01')).toBeNull();
    expect(dayNumber('30-01-2030')).toBeNull();
    expect(rangeDays('2030-01-01', '2030-01-01')).toBe(1);
    expect(rangeDays('2028-01-01', '2028-12-31')).toBe(366);
  });

  it('takes a range in order, both ends included, at most 366 days', () => {
    expect(issues(ZDateRangeQuery, { start_date: '2028-01-01', end_date: '2028-12-31' })).toEqual([]);
    expect(issues(ZDateRangeQuery, { start_date: '2030-01-02', end_date: '2030-01-01' })).toEqual([
      'The range starts after it ends',
    ]);
    expect(issues(ZDateRangeQuery, { start_date: '2029-01-01', end_date: '2030-01-02' })).toEqual([
      'The range is longer than 366 days',
    ]);
    expect(issues(ZDateRangeQuery, { start_date: '2030-01-01' })).toEqual([
      'end_date is required, as a date YYYY-MM-DD',
    ]);
    expect(issues(ZDateRangeQuery, { start_date: '01/02/2030', end_date: '2030-02-30' })).toEqual([
      'start_date must be a date as YYYY-MM-DD, e.g. 2030-01-31',
      'end_date is not a real calendar date',
    ]);
  });

  it('groups by project unless asked for days, and names an unknown grouping', () => {
    const range = { start_date: '2030-01-01', end_date: '2030-01-07' };
    expect(ZDailyStatisticsQuery.parse(range).group_by).toBe('project');
    expect(ZDailyStatisticsQuery.parse({ ...range, group_by: 'day' }).group_by).toBe('day');
    expect(issues(ZDailyStatisticsQuery, { ...range, group_by: 'week' })).toEqual([
      "Unknown group_by 'week': use project or day",
    ]);
  });

  it('needs a year; the month is optional and 1-12', () => {
    expect(ZMonthlyStatisticsQuery.parse({ year: '2030' })).toEqual({ year: 2030 });
    expect(ZMonthlyStatisticsQuery.parse({ year: '2030', month: '2' })).toEqual({ year: 2030, month: 2 });
    expect(ZMonthlyStatisticsQuery.safeParse({}).success).toBe(false);
    expect(ZMonthlyStatisticsQuery.safeParse({ year: '1999' }).success).toBe(false);
    expect(ZMonthlyStatisticsQuery.safeParse({ year: '2030', month: '13' }).success).toBe(false);
    expect(ZMonthlyStatisticsQuery.safeParse({ year: 'soon' }).success).toBe(false);
  });
});
