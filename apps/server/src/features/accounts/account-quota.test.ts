import { describe, expect, it } from 'vitest';
import { dailyCapacity, quotaWindowStart, zoneChangeFloor } from './account-quota';
import { startOfZonedDay, zonedInstant, zonedParts } from './zoned-time';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 23, 15, 30);

describe('zoned time', () => {
  it('reads the wall clock and weekday of an instant in a zone', () => {
    expect(zonedParts(NOW, 'UTC')).toMatchObject({ hour: 15, minute: 30, weekday: 1 });
    expect(zonedParts(NOW, 'Asia/Tokyo')).toMatchObject({ day: 24, hour: 0, weekday: 2 });
    expect(zonedParts(NOW, 'America/Los_Angeles')).toMatchObject({ day: 23, hour: 7 });
  });

  it('finds local midnight, also on the days clocks change', () => {
    expect(startOfZonedDay(NOW, 'UTC')).toBe(Date.UTC(2026, 10, 23));
    expect(startOfZonedDay(NOW, 'America/New_York')).toBe(Date.UTC(2026, 10, 23, 5));
    // 2026-03-08: New York springs forward at 02:00; midnight is still EST (UTC-5).
    expect(startOfZonedDay(Date.UTC(2026, 2, 8, 20), 'America/New_York')).toBe(Date.UTC(2026, 2, 8, 5));
    // 2026-10-25: Berlin falls back; the day after starts at UTC+1.
    expect(startOfZonedDay(Date.UTC(2026, 9, 26, 12), 'Europe/Berlin')).toBe(Date.UTC(2026, 9, 25, 23));
    expect(zonedInstant({ year: 2026, month: 7, day: 1, hour: 9 }, 'Europe/London')).toBe(
      Date.UTC(2026, 6, 1, 8),
    );
  });

  it('takes a time the clocks skip an hour on, east and west of Greenwich', () => {
    // 2026-03-08: New York goes from 02:00 EST to 03:00 EDT; 02:30 is read as 03:30 EDT.
    expect(zonedInstant({ year: 2026, month: 3, day: 8, hour: 2, minute: 30 }, 'America/New_York')).toBe(
      Date.UTC(2026, 2, 8, 7, 30),
    );
    expect(zonedInstant({ year: 2026, month: 3, day: 8, hour: 3 }, 'America/New_York')).toBe(
      Date.UTC(2026, 2, 8, 7),
    );
    // 2026-03-29: Berlin goes from 02:00 CET to 03:00 CEST.
    expect(zonedInstant({ year: 2026, month: 3, day: 29, hour: 2, minute: 30 }, 'Europe/Berlin')).toBe(
      Date.UTC(2026, 2, 29, 1, 30),
    );
    // A repeated time is the earlier one.
    expect(zonedInstant({ year: 2026, month: 11, day: 1, hour: 1, minute: 30 }, 'America/New_York')).toBe(
      Date.UTC(2026, 10, 1, 5, 30),
    );
  });
});

describe('daily capacity', () => {
  const account = (ageDays: number | null, dailyMessageLimit = 10) => ({
    accountCreatedAt: ageDays === null ? null : new Date(NOW - ageDays * DAY),
    dailyMessageLimit,
  });

  it('is zero below 7 days and when the age is unknown', () => {
    expect(dailyCapacity(account(0), NOW)).toBe(0);
    expect(dailyCapacity(account(6), NOW)).toBe(0);
    expect(dailyCapacity(account(null), NOW)).toBe(0);
  });

  it('warms up from a fifth of the limit at 7 days to the full limit at 30', () => {
    const caps = [7, 10, 15, 20, 25, 29, 30, 400].map((d) => dailyCapacity(account(d), NOW));
    expect(caps[0]).toBe(2);
    expect(caps.at(-2)).toBe(10);
    expect(caps.at(-1)).toBe(10);
    for (let i = 1; i < caps.length; i++) expect(caps[i]).toBeGreaterThanOrEqual(caps[i - 1]!);
    expect(dailyCapacity(account(29), NOW)).toBeLessThan(10);
    expect(dailyCapacity(account(7, 1), NOW)).toBe(1);
  });

  const zoned = (timezone: string, quotaResetAt: Date | null = null) => ({
    timezone,
    quotaResetAt,
    quotaFloorAt: null,
    quotaFloorUntil: null,
  });

  it('counts today from local midnight, or from a later reset', () => {
    expect(quotaWindowStart(zoned('UTC'), NOW).getTime()).toBe(Date.UTC(2026, 10, 23));
    const reset = new Date(NOW - 3_600_000);
    expect(quotaWindowStart(zoned('UTC', reset), NOW)).toEqual(reset);
    const yesterdayReset = new Date(NOW - DAY);
    expect(quotaWindowStart(zoned('UTC', yesterdayReset), NOW).getTime()).toBe(Date.UTC(2026, 10, 23));
  });

  it('keeps the day of a zone it left until that day ends: moving west gives no fresh day', () => {
    // 08:01 UTC: Tokyo's day began at 15:00 UTC the day before, Los Angeles's at 08:00 UTC.
    const at = Date.UTC(2026, 10, 23, 8, 1);
    const tokyo = zoned('Asia/Tokyo');
    const tokyoDay = Date.UTC(2026, 10, 22, 15);
    const moved = { ...zoned('America/Los_Angeles'), ...zoneChangeFloor(tokyo, at) };
    expect(moved.quotaFloorAt!.getTime()).toBe(tokyoDay);
    expect(moved.quotaFloorUntil!.getTime()).toBe(Date.UTC(2026, 10, 23, 15));
    expect(quotaWindowStart(moved, at).getTime()).toBe(tokyoDay);
    expect(quotaWindowStart(moved, Date.UTC(2026, 10, 23, 14, 59)).getTime()).toBe(tokyoDay);
    // Tokyo's day is over: Los Angeles's own day counts.
    expect(quotaWindowStart(moved, Date.UTC(2026, 10, 23, 15)).getTime()).toBe(Date.UTC(2026, 10, 23, 8));
    // Moving again keeps the earliest start; an admin reset still wins.
    const again = { ...zoned('Europe/London'), ...zoneChangeFloor(moved, at + 60_000) };
    expect(quotaWindowStart(again, at + 120_000).getTime()).toBe(tokyoDay);
    const reset = new Date(at + 180_000);
    expect(quotaWindowStart({ ...again, quotaResetAt: reset }, at + 240_000)).toEqual(reset);
    // Moving east starts the count earlier anyway.
    const east = { ...zoned('Asia/Tokyo'), ...zoneChangeFloor(zoned('America/Los_Angeles'), at) };
    expect(quotaWindowStart(east, at).getTime()).toBe(tokyoDay);
  });
});
