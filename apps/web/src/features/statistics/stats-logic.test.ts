import { describe, expect, it } from 'vitest';
import { applyColumnFilters, distinctValues, hasColumnFilters, nonZeroValues } from './column-filters';
import { groupByDay } from './day-rows';
import { ACCOUNTS_COLUMN, PROJECT_COLUMNS } from './stats-columns';
import { QUICK_RANGES, currentWeek, formatDay, isoDay, yearChoices } from './stats-dates';
import { dayStats, projectStats } from './statistics.test-support';

describe('statistics dates', () => {
  // Wednesday 15 January 2031, local time.
  const wednesday = new Date(2031, 0, 15, 18, 30);

  it('defaults to Monday of the current week through today', () => {
    expect(currentWeek(wednesday)).toEqual({ start: '2031-01-13', end: '2031-01-15' });
    const monday = new Date(2031, 0, 13, 9);
    expect(currentWeek(monday)).toEqual({ start: '2031-01-13', end: '2031-01-13' });
    const sunday = new Date(2031, 0, 19, 9);
    expect(currentWeek(sunday)).toEqual({ start: '2031-01-13', end: '2031-01-19' });
  });

  it('offers Last 7 Days, Last 30 Days and This Month, each ending today', () => {
    expect(QUICK_RANGES.map((q) => [q.label, q.range(wednesday)])).toEqual([
      ['Last 7 Days', { start: '2031-01-09', end: '2031-01-15' }],
      ['Last 30 Days', { start: '2030-12-17', end: '2031-01-15' }],
      ['This Month', { start: '2031-01-01', end: '2031-01-15' }],
    ]);
  });

  it('offers the current year and the four before', () => {
    expect(yearChoices(wednesday)).toEqual([2031, 2030, 2029, 2028, 2027]);
  });

  it('writes days as the API reads them and as people read them', () => {
    expect(isoDay(new Date(2031, 1, 3))).toBe('2031-02-03');
    expect(formatDay('2031-01-05')).toBe('Sun, Jan 5, 2031');
  });
});

describe('column filters', () => {
  const rows = [
    projectStats({ project_name: 'Beta', accounts_connected: 2, sent: 10 }),
    projectStats({ project_name: 'Alpha', accounts_connected: 0, sent: 9 }),
    projectStats({ project_name: 'Gamma', accounts_connected: 10, sent: 10 }),
  ];

  it('offers the distinct values of a column in order', () => {
    expect(distinctValues(rows, ACCOUNTS_COLUMN)).toEqual(['0', '2', '10']);
    expect(distinctValues(rows, PROJECT_COLUMNS[0]!)).toEqual(['Alpha', 'Beta', 'Gamma']);
  });

  it('keeps the rows whose value every filtered column chose', () => {
    const names = (filters: Record<string, string[]>) =>
      applyColumnFilters(rows, PROJECT_COLUMNS, filters).map((r) => r.project_name);
    expect(names({})).toEqual(['Beta', 'Alpha', 'Gamma']);
    expect(names({ accounts: ['2', '10'] })).toEqual(['Beta', 'Gamma']);
    expect(names({ accounts: ['2', '10'], sent: ['9'] })).toEqual([]);
    expect(names({ accounts: [], sent: ['10'] })).toEqual(['Beta', 'Gamma']);
    expect(hasColumnFilters({ accounts: [] })).toBe(false);
    expect(hasColumnFilters({ accounts: ['2'] })).toBe(true);
  });

  it('pre-filters to the non-zero values seen', () => {
    expect(nonZeroValues(rows, ACCOUNTS_COLUMN)).toEqual(['2', '10']);
    expect(nonZeroValues([projectStats()], ACCOUNTS_COLUMN)).toEqual([]);
  });
});

describe('by-day rows', () => {
  it('folds the projects of each day together, newest day first', () => {
    const days = groupByDay([
      dayStats({ date: '2030-01-07', project_name: 'Alpha', posts_searched: 2, sent: 1 }),
      dayStats({ date: '2030-01-09', project_name: 'Alpha', failed: 1 }),
      dayStats({
        date: '2030-01-07',
        project_id: 'p-2',
        project_name: 'Beta',
        posts_searched: 3,
        expired: 1,
      }),
    ]);
    expect(days.map((d) => [d.date, d.posts, d.sent, d.failed, d.expired, d.project_count])).toEqual([
      ['2030-01-09', 0, 0, 1, 0, 1],
      ['2030-01-07', 5, 1, 0, 1, 2],
    ]);
    expect(days[1]!.projects.map((p) => p.project_name)).toEqual(['Alpha', 'Beta']);
  });
});
