import { describe, expect, it } from 'vitest';
import { hasColumnFilters } from './column-filters';
import { QUICK_RANGES, currentMonth, currentWeek, formatDay, isoDay, yearChoices } from './stats-dates';

/** Runs `check` with this process's clock in `zone`, as a browser there would have it. */
function inTimeZone(zone: string, check: () => void) {
  const before = process.env.TZ;
  process.env.TZ = zone;
  try {
    check();
  } finally {
    if (before === undefined) delete process.env.TZ;
    else process.env.TZ = before;
  }
}

describe('statistics dates', () => {
  // Wednesday 15 January 2031, 18:30 UTC.
  const wednesday = new Date(Date.UTC(2031, 0, 15, 18, 30));

  it('defaults to Monday of the current week through today', () => {
    expect(currentWeek(wednesday)).toEqual({ start: '2031-01-13', end: '2031-01-15' });
    const monday = new Date(Date.UTC(2031, 0, 13, 9));
    expect(currentWeek(monday)).toEqual({ start: '2031-01-13', end: '2031-01-13' });
    const sunday = new Date(Date.UTC(2031, 0, 19, 9));
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
    expect(currentMonth(wednesday)).toEqual({ year: 2031, month: 1 });
  });

  it('counts today as the UTC day the server counts, wherever the browser is', () => {
    // 23:45 on Sunday 30 November 2031 in Los Angeles is already Monday 1 December in UTC.
    const lateEvening = new Date(Date.UTC(2031, 11, 1, 7, 45));
    // New Year's Eve there is already the new year in UTC.
    const newYearsEve = new Date(Date.UTC(2032, 0, 1, 7, 45));
    inTimeZone('America/Los_Angeles', () => {
      expect(lateEvening.getDate()).toBe(30); // the browser's own calendar still says the 30th
      expect(isoDay(lateEvening)).toBe('2031-12-01');
      expect(currentWeek(lateEvening)).toEqual({ start: '2031-12-01', end: '2031-12-01' });
      expect(QUICK_RANGES.map((q) => q.range(lateEvening))).toEqual([
        { start: '2031-11-25', end: '2031-12-01' },
        { start: '2031-11-02', end: '2031-12-01' },
        { start: '2031-12-01', end: '2031-12-01' },
      ]);
      expect(currentMonth(lateEvening)).toEqual({ year: 2031, month: 12 });
      expect(yearChoices(newYearsEve)[0]).toBe(2032);
      expect(currentMonth(newYearsEve)).toEqual({ year: 2032, month: 1 });
    });
    // East of UTC, early morning is still yesterday in UTC.
    inTimeZone('Asia/Tokyo', () => {
      const earlyMorning = new Date(Date.UTC(2031, 0, 12, 20)); // 05:00 Monday 13 January in Tokyo, still Sunday in UTC
      expect(currentWeek(earlyMorning)).toEqual({ start: '2031-01-06', end: '2031-01-12' });
    });
  });

  it('writes days as the API reads them and as people read them', () => {
    expect(isoDay(new Date(Date.UTC(2031, 1, 3)))).toBe('2031-02-03');
    expect(formatDay('2031-01-05')).toBe('Sun, Jan 5, 2031');
    inTimeZone('America/Los_Angeles', () => expect(formatDay('2031-01-05')).toBe('Sun, Jan 5, 2031'));
  });
});

describe('column filters', () => {
  it('counts a column as filtered when a value is chosen in it', () => {
    expect(hasColumnFilters({})).toBe(false);
    expect(hasColumnFilters({ accounts: [] })).toBe(false);
    expect(hasColumnFilters({ accounts: ['2'] })).toBe(true);
  });
});
