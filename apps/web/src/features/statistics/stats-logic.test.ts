import { describe, expect, it } from 'vitest';
import { hasColumnFilters } from './column-filters';
import { QUICK_RANGES, currentWeek, formatDay, isoDay, yearChoices } from './stats-dates';

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
  it('counts a column as filtered when a value is chosen in it', () => {
    expect(hasColumnFilters({})).toBe(false);
    expect(hasColumnFilters({ accounts: [] })).toBe(false);
    expect(hasColumnFilters({ accounts: ['2'] })).toBe(true);
  });
});
