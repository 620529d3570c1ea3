import { describe, expect, it } from 'vitest';
import { ACCOUNT_TOO_YOUNG } from '@threadreach/contract';
import {
  AUTH_REQUIRED_REASON,
  DAILY_LIMIT_REASON,
  NO_WORKING_TIME_REASON,
  OUTSIDE_WORKING_HOURS_REASON,
  PACING_REASON,
  PAUSED_REASON,
  capacityAt,
  type CapacityAccount,
} from './account-capacity';
import { dailyCapacity } from './account-quota';
import { isWithinWorkingHours, nextWorkingInstant } from './working-hours';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
// Monday 23 November 2026, 10:00 UTC.
const MONDAY_10 = Date.UTC(2026, 10, 23, 10);

function account(overrides: Partial<CapacityAccount> & { ageDays?: number } = {}): CapacityAccount {
  const { ageDays = 400, ...rest } = overrides;
  return {
    credentialId: 'cred',
    refreshTokenCiphertext: 'sealed',
    authStatus: 'valid',
    isActive: true,
    disabledReason: null,
    accountCreatedAt: new Date(MONDAY_10 - ageDays * DAY),
    dailyMessageLimit: 10,
    nextSendAt: null,
    workingDays: [1, 2, 3, 4, 5],
    workingHoursStart: 9,
    workingHoursEnd: 17,
    timezone: 'UTC',
    ...rest,
  };
}

describe('working hours', () => {
  const window = { workingDays: [1, 2, 3, 4, 5], workingHoursStart: 9, workingHoursEnd: 17, timezone: 'UTC' };

  it('counts the start hour in and the end hour out, on working days only', () => {
    expect(isWithinWorkingHours(window, Date.UTC(2026, 10, 23, 9))).toBe(true);
    expect(isWithinWorkingHours(window, Date.UTC(2026, 10, 23, 16, 59))).toBe(true);
    expect(isWithinWorkingHours(window, Date.UTC(2026, 10, 23, 17))).toBe(false);
    expect(isWithinWorkingHours(window, Date.UTC(2026, 10, 28, 10))).toBe(false); // Saturday
  });

  it('finds the next working start: later today, tomorrow, or after the weekend', () => {
    expect(nextWorkingInstant(window, Date.UTC(2026, 10, 23, 7, 30))).toBe(Date.UTC(2026, 10, 23, 9));
    expect(nextWorkingInstant(window, Date.UTC(2026, 10, 23, 17, 0, 5))).toBe(Date.UTC(2026, 10, 24, 9));
    expect(nextWorkingInstant(window, Date.UTC(2026, 10, 27, 18))).toBe(Date.UTC(2026, 10, 30, 9));
    expect(nextWorkingInstant(window, MONDAY_10)).toBe(MONDAY_10);
  });

  it('spans midnight when the start is after the end, and takes equal hours as the whole day', () => {
    const night = {
      ...window,
      workingDays: [1, 2, 3, 4, 5, 6, 7],
      workingHoursStart: 22,
      workingHoursEnd: 6,
    };
    expect(isWithinWorkingHours(night, Date.UTC(2026, 10, 23, 23))).toBe(true);
    expect(isWithinWorkingHours(night, Date.UTC(2026, 10, 23, 5))).toBe(true);
    expect(nextWorkingInstant(night, MONDAY_10)).toBe(Date.UTC(2026, 10, 23, 22));
    const allDay = { ...window, workingHoursStart: 0, workingHoursEnd: 0 };
    expect(isWithinWorkingHours(allDay, Date.UTC(2026, 10, 23, 3))).toBe(true);
    expect(nextWorkingInstant({ ...window, workingDays: [] }, MONDAY_10)).toBeNull();
  });

  it("reads the hours in the account's zone, across a change of the clocks", () => {
    const tokyo = { ...window, timezone: 'Asia/Tokyo' };
    // 10:00 UTC is 19:00 in Tokyo: next is Tuesday 09:00 JST, Tuesday 00:00 UTC.
    expect(nextWorkingInstant(tokyo, MONDAY_10)).toBe(Date.UTC(2026, 10, 24, 0));
    const newYork = { ...window, timezone: 'America/New_York' };
    // Sunday 8 March 2026 the clocks spring forward: Monday 09:00 is EDT (UTC-4).
    expect(nextWorkingInstant(newYork, Date.UTC(2026, 2, 7, 12))).toBe(Date.UTC(2026, 2, 9, 13));
  });
});

describe('capacity', () => {
  it('is ready now with the full day left', () => {
    expect(capacityAt(account(), 0, MONDAY_10)).toMatchObject({
      hasAuthentication: true,
      tokensExpired: false,
      remaining: 10,
      canSendNow: true,
      waitSeconds: 0,
      nextAvailableAt: null,
      reason: null,
    });
    expect(capacityAt(account(), 4, MONDAY_10).remaining).toBe(6);
  });

  it('needs authentication first', () => {
    const none = capacityAt(account({ refreshTokenCiphertext: null }), 0, MONDAY_10);
    expect(none).toMatchObject({ hasAuthentication: false, canSendNow: false, reason: AUTH_REQUIRED_REASON });
    const expired = capacityAt(account({ authStatus: 'expired' }), 0, MONDAY_10);
    expect(expired).toMatchObject({ hasAuthentication: true, tokensExpired: true, canSendNow: false });
    expect(expired.nextAvailableAt).toBeNull();
  });

  it('does not send from a paused or suspended account', () => {
    expect(capacityAt(account({ isActive: false }), 0, MONDAY_10)).toMatchObject({
      remaining: 0,
      canSendNow: false,
      reason: PAUSED_REASON,
    });
    const suspended = capacityAt(
      account({ disabledReason: 'Reddit has suspended this account.' }),
      0,
      MONDAY_10,
    );
    expect(suspended).toMatchObject({
      remaining: 0,
      canSendNow: false,
      reason: 'Reddit has suspended this account.',
    });
  });

  it('blocks accounts under 7 days until their seventh day, in working hours', () => {
    const young = capacityAt(account({ ageDays: 3 }), 0, MONDAY_10);
    expect(young).toMatchObject({ remaining: 0, canSendNow: false, reason: ACCOUNT_TOO_YOUNG });
    // Seven days from its creation is Friday 10:00 UTC, a working hour.
    expect(young.nextAvailableAt).toEqual(new Date(MONDAY_10 + 4 * DAY));
    expect(young.waitSeconds).toBe(4 * 86_400);
    // Five days old on a Friday: its seventh day is a Sunday, so it starts on Monday.
    const weekend = capacityAt(
      account({ accountCreatedAt: new Date(MONDAY_10 - DAY) }),
      0,
      MONDAY_10 + 4 * DAY,
    );
    expect(weekend.nextAvailableAt).toEqual(new Date(Date.UTC(2026, 10, 30, 9)));
    expect(weekend.reason).toBe(ACCOUNT_TOO_YOUNG);
    expect(capacityAt(account({ accountCreatedAt: null }), 0, MONDAY_10).reason).toBe(ACCOUNT_TOO_YOUNG);
  });

  it('warms a new account up to its daily limit', () => {
    const warming = account({ ageDays: 10 });
    expect(capacityAt(warming, 0, MONDAY_10).remaining).toBe(dailyCapacity(warming, MONDAY_10));
    expect(capacityAt(warming, 0, MONDAY_10).remaining).toBeLessThan(10);
    expect(capacityAt(warming, 0, MONDAY_10).canSendNow).toBe(true);
  });

  it('waits for the next working morning once the quota is spent', () => {
    const spent = capacityAt(account(), 10, MONDAY_10);
    expect(spent).toMatchObject({ remaining: 0, canSendNow: false, reason: DAILY_LIMIT_REASON });
    expect(spent.nextAvailableAt).toEqual(new Date(Date.UTC(2026, 10, 24, 9)));
    // With every hour working, that is local midnight.
    const always = account({ workingDays: [1, 2, 3, 4, 5, 6, 7], workingHoursStart: 0, workingHoursEnd: 0 });
    expect(capacityAt(always, 10, MONDAY_10).nextAvailableAt).toEqual(new Date(Date.UTC(2026, 10, 24)));
    const berlin = { ...always, timezone: 'Europe/Berlin' };
    expect(capacityAt(berlin, 10, MONDAY_10).nextAvailableAt).toEqual(new Date(Date.UTC(2026, 10, 23, 23)));
  });

  it('counts down the pacing delay, and outside working hours to their start', () => {
    const paced = capacityAt(account({ nextSendAt: new Date(MONDAY_10 + 90_000) }), 1, MONDAY_10);
    expect(paced).toMatchObject({ canSendNow: false, waitSeconds: 90, reason: PACING_REASON });
    const late = capacityAt(
      account({ nextSendAt: new Date(Date.UTC(2026, 10, 23, 17, 0, 30)) }),
      1,
      MONDAY_10,
    );
    expect(late).toMatchObject({ reason: OUTSIDE_WORKING_HOURS_REASON });
    expect(late.nextAvailableAt).toEqual(new Date(Date.UTC(2026, 10, 24, 9)));
    const evening = capacityAt(account({ timezone: 'Asia/Tokyo' }), 0, MONDAY_10);
    expect(evening).toMatchObject({
      canSendNow: false,
      waitSeconds: 14 * 3600,
      reason: OUTSIDE_WORKING_HOURS_REASON,
    });
    const past = capacityAt(account({ nextSendAt: new Date(MONDAY_10 - 1000) }), 0, MONDAY_10);
    expect(past.canSendNow).toBe(true);
  });

  it('never says when there is no working day', () => {
    expect(capacityAt(account({ workingDays: [] }), 0, MONDAY_10)).toMatchObject({
      canSendNow: false,
      nextAvailableAt: null,
      reason: NO_WORKING_TIME_REASON,
    });
  });
});
