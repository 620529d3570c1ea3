import { describe, expect, it } from 'vitest';
import { dailyCapacity, isWithinWorkingHours, zonedParts } from '../accounts';
import {
  dayKey,
  drawDelayMs,
  isWorkingTime,
  nextWorkingWindow,
  planSends,
  seededRandom,
  splitProportionally,
  type PacingAccount,
} from './pacing';

const DAY = 86_400_000;
/** Friday 9 January 2026, 10:00 UTC (05:00 in New York). */
const FRIDAY = Date.UTC(2026, 0, 9, 10);

function account(
  overrides: Partial<PacingAccount> & { id: string; limit?: number; ageDays?: number },
): PacingAccount {
  const { limit = 10, ageDays = 400, ...rest } = overrides;
  const created = new Date(FRIDAY - ageDays * DAY);
  return {
    timezone: 'America/New_York',
    workingDays: [1, 2, 3, 4, 5],
    workingHoursStart: 9,
    workingHoursEnd: 17,
    delayRangeMin: 600,
    delayRangeMax: 1800,
    capacityAt: (at) => dailyCapacity({ accountCreatedAt: created, dailyMessageLimit: limit }, at),
    booked: new Map(),
    lastAt: null,
    queuedAt: [],
    notBefore: null,
    ...rest,
  };
}

describe('working windows', () => {
  const ny = account({ id: 'a' });

  it('open at the local working hour and skip the weekend', () => {
    const friday = nextWorkingWindow(ny, FRIDAY)!;
    expect(friday.start).toBe(Date.UTC(2026, 0, 9, 14)); // 09:00 EST
    expect(friday.end).toBe(Date.UTC(2026, 0, 9, 22)); // 17:00 EST
    const afterHours = nextWorkingWindow(ny, Date.UTC(2026, 0, 9, 23))!;
    expect(afterHours.start).toBe(Date.UTC(2026, 0, 12, 14)); // Monday
    expect(zonedParts(afterHours.start, 'America/New_York')).toMatchObject({ weekday: 1, hour: 9 });
    expect(isWorkingTime(ny, Date.UTC(2026, 0, 9, 15))).toBe(true);
    expect(isWorkingTime(ny, Date.UTC(2026, 0, 10, 15))).toBe(false);
  });

  it('follow the zone across a clock change and take equal hours as the whole day', () => {
    // 9 March 2026 is the first Monday on daylight time in New York: 09:00 is 13:00 UTC.
    expect(nextWorkingWindow(ny, Date.UTC(2026, 2, 9, 0))!.start).toBe(Date.UTC(2026, 2, 9, 13));
    const allDay = account({
      id: 'b',
      workingHoursStart: 0,
      workingHoursEnd: 0,
      workingDays: [1, 2, 3, 4, 5, 6, 7],
    });
    const w = nextWorkingWindow(allDay, FRIDAY)!;
    expect(w.start).toBe(FRIDAY);
    expect(w.end).toBe(Date.UTC(2026, 0, 10, 5));
    expect(nextWorkingWindow(account({ id: 'c', workingDays: [] }), FRIDAY)).toBeNull();
  });

  it('span midnight when the start is after the end, each part on its own day, and take equal hours as the whole day', () => {
    // Friday 22:00 to 02:00 UTC, Monday to Friday.
    const night = account({ id: 'n', timezone: 'UTC', workingHoursStart: 22, workingHoursEnd: 2 });
    const friday = nextWorkingWindow(night, FRIDAY)!;
    expect([friday.start, friday.end]).toEqual([Date.UTC(2026, 0, 9, 22), Date.UTC(2026, 0, 10, 0)]);
    // Saturday is not a working day: after Friday's 22:00 comes Monday's 00:00 to 02:00.
    const monday = nextWorkingWindow(night, Date.UTC(2026, 0, 10, 0, 30))!;
    expect([monday.start, monday.end]).toEqual([
      Date.UTC(2026, 0, 12, 0, 30) - 30 * 60_000,
      Date.UTC(2026, 0, 12, 2),
    ]);
    expect(monday.dayStart).toBe(Date.UTC(2026, 0, 12));
    expect(isWorkingTime(night, Date.UTC(2026, 0, 13, 1))).toBe(true);
    const equal = account({ id: 'e', timezone: 'UTC', workingHoursStart: 9, workingHoursEnd: 9 });
    expect(isWorkingTime(equal, Date.UTC(2026, 0, 9, 3))).toBe(true);
  });

  it('agree with the account capacity on every hour of a fortnight, whatever the hours', () => {
    const from = Date.UTC(2026, 2, 2); // over New York's clock change on 8 March
    for (const [start, end] of [
      [9, 17],
      [0, 0],
      [9, 9],
      [22, 2],
      [23, 0],
      [0, 23],
      [17, 9],
    ] as const) {
      for (const workingDays of [[1, 2, 3, 4, 5], [6], [1, 2, 3, 4, 5, 6, 7]]) {
        const a = account({ id: 'x', workingHoursStart: start, workingHoursEnd: end, workingDays });
        for (let at = from; at < from + 14 * DAY; at += 30 * 60_000) {
          expect(
            isWorkingTime(a, at),
            `${start}-${end} ${workingDays.join()} ${new Date(at).toISOString()}`,
          ).toBe(isWithinWorkingHours({ ...a, workingDays }, at));
        }
      }
    }
  });
});

describe('pacing', () => {
  it('draws delays in whole seconds within the range, repeatably from a seed', () => {
    const a = seededRandom(1);
    const b = seededRandom(1);
    const draws = Array.from({ length: 500 }, () => drawDelayMs({ delayRangeMin: 10, delayRangeMax: 12 }, a));
    expect(new Set(draws)).toEqual(new Set([10_000, 11_000, 12_000]));
    expect(
      Array.from({ length: 500 }, () => drawDelayMs({ delayRangeMin: 10, delayRangeMax: 12 }, b)),
    ).toEqual(draws);
  });

  it('splits in proportion to what each account has free, never beyond it', () => {
    expect(splitProportionally(19, [6, 10, 3])).toEqual([6, 10, 3]);
    expect(splitProportionally(10, [6, 10, 3])).toEqual([3, 5, 2]);
    expect(splitProportionally(2, [10, 10, 4])).toEqual([1, 1, 0]);
    expect(splitProportionally(50, [1, 0, 2])).toEqual([1, 0, 2]);
    expect(splitProportionally(3, [0, 0])).toEqual([0, 0]);
  });

  it('keeps delays, hours, caps and the warm-up, spreads by room left, and rolls the rest over', () => {
    const accounts = [
      // 4 already sent today: 6 left.
      account({ id: 'A', booked: new Map([[dayKey(FRIDAY, 'America/New_York'), 4]]) }),
      account({ id: 'B' }),
      // Ten days old: the warm-up allows 3 today.
      account({ id: 'C', ageDays: 10, delayRangeMin: 1800, delayRangeMax: 3600 }),
    ];
    const plan = planSends(accounts, 45, FRIDAY, seededRandom(42));
    expect(plan).toHaveLength(45);
    const byDay = new Map<string, Record<string, number>>();
    for (const p of plan) {
      const local = zonedParts(p.at, 'America/New_York');
      expect(local.weekday).toBeLessThanOrEqual(5);
      expect(local.hour).toBeGreaterThanOrEqual(9);
      expect(local.hour).toBeLessThan(17);
      const day = `${local.month}-${local.day}`;
      const counts = byDay.get(day) ?? {};
      counts[p.accountId] = (counts[p.accountId] ?? 0) + 1;
      byDay.set(day, counts);
    }
    // Friday: everything each has left; Monday: full caps (C at 13 days: 4); Tuesday: the last two.
    expect(Object.fromEntries(byDay)).toEqual({
      '1-9': { A: 6, B: 10, C: 3 },
      '1-12': { A: 10, B: 10, C: 4 },
      '1-13': { A: 1, B: 1 },
    });
    for (const a of accounts) {
      const times = plan.filter((p) => p.accountId === a.id).map((p) => p.at);
      for (let i = 1; i < times.length; i++) {
        const gap = (times[i]! - times[i - 1]!) / 1000;
        if (dayKey(times[i]!, a.timezone) !== dayKey(times[i - 1]!, a.timezone)) continue;
        expect(gap).toBeGreaterThanOrEqual(a.delayRangeMin);
        expect(gap).toBeLessThanOrEqual(a.delayRangeMax);
      }
    }
    // The input is not changed: planning twice gives the same answer.
    expect(planSends(accounts, 45, FRIDAY, seededRandom(42))).toEqual(plan);
  });

  it('starts after the last send and after a wait Reddit asked for', () => {
    const lastAt = Date.UTC(2026, 0, 9, 15);
    const [first] = planSends(
      [account({ id: 'A', lastAt })],
      1,
      Date.UTC(2026, 0, 9, 15, 1),
      seededRandom(3),
    );
    expect(first!.at - lastAt).toBeGreaterThanOrEqual(600_000);
    expect(first!.at - lastAt).toBeLessThanOrEqual(1_800_000);
    const notBefore = Date.UTC(2026, 0, 9, 18);
    const [waited] = planSends([account({ id: 'A', notBefore })], 1, FRIDAY, seededRandom(3));
    expect(waited!.at).toBe(notBefore);
  });

  it('uses the room of a day before sends queued later, keeping the least delay from each of them', () => {
    // Queued on Monday and Tuesday afternoon only; Friday (today) and the mornings have room.
    const monday = Date.UTC(2026, 0, 12, 19);
    const queuedAt = [monday, monday + 900_000, Date.UTC(2026, 0, 13, 19)];
    const booked = new Map([
      [dayKey(monday, 'America/New_York'), 2],
      [dayKey(queuedAt[2]!, 'America/New_York'), 1],
    ]);
    const plan = planSends([account({ id: 'A', queuedAt, booked })], 30, FRIDAY, seededRandom(5));
    expect(plan).toHaveLength(30);
    // Today first (opening at 09:00 in New York), not after Tuesday's send.
    expect(plan[0]!.at).toBe(Date.UTC(2026, 0, 9, 14));
    for (const send of plan) {
      for (const q of queuedAt) expect(Math.abs(send.at - q)).toBeGreaterThanOrEqual(600_000);
    }
    // Each day holds at most its limit of 10, the queued ones counted.
    const perDay = new Map<number, number>(booked);
    for (const send of plan) {
      const key = dayKey(send.at, 'America/New_York');
      perDay.set(key, (perDay.get(key) ?? 0) + 1);
    }
    expect(Math.max(...perDay.values())).toBe(10);
    expect(plan.filter((p) => p.at < Date.UTC(2026, 0, 10))).toHaveLength(10);
    // Monday's morning too, before its queued afternoon.
    expect(plan.filter((p) => p.at > Date.UTC(2026, 0, 12) && p.at < monday).length).toBeGreaterThan(0);
  });

  it('leaves out what finds no room, and plans nothing without accounts', () => {
    const tiny = account({ id: 'A', limit: 0 });
    expect(planSends([tiny], 3, FRIDAY, seededRandom(1))).toEqual([]);
    expect(planSends([], 3, FRIDAY, seededRandom(1))).toEqual([]);
  });
});
