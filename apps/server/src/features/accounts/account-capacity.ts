import { ACCOUNT_TOO_YOUNG, OUTSIDE_WORKING_HOURS_REASON } from '@threadreach/contract';
import type { Db } from '../../db/client';
import type { RedditAccountRow } from './accounts.table';
import { MIN_SENDING_AGE_DAYS, accountAgeDays, dailyCapacity, usedToday } from './account-quota';
import { nextWorkingInstant } from './working-hours';
import { startOfNextZonedDay } from './zoned-time';

const DAY_MS = 86_400_000;

export const AUTH_REQUIRED_REASON = 'Auth Required: sign this account in to Reddit again.';
export const NO_WORKING_TIME_REASON = 'No working day is set for this account.';
export const DAILY_LIMIT_REASON = 'Daily limit reached: it sends again tomorrow.';
export const PACING_REASON = 'Waiting between messages.';
/** The account could send now, but the DM was planned for a later day when that day's room was full. */
export const LATER_DAY_REASON = "Planned for a later day: the account's day was full when it was queued.";
export { OUTSIDE_WORKING_HOURS_REASON };
export const PAUSED_REASON = 'This account is paused.';

/** Whether and when an account can send its next message, at one instant. */
export interface AccountCapacity {
  /** A refresh token through a send credential is stored. */
  hasAuthentication: boolean;
  /** Reddit refused the grant (or it was given up): Auth Required. */
  tokensExpired: boolean;
  /** Today's cap: 0 under 7 days, then the warm-up, then the daily limit. */
  dailyCap: number;
  usedToday: number;
  /** What it can still send today: 0 while paused or suspended. */
  remaining: number;
  canSendNow: boolean;
  /** When it can send next; null when no time is known (it needs a person first). */
  nextAvailableAt: Date | null;
  waitSeconds: number;
  reason: string | null;
}

export type CapacityAccount = Pick<
  RedditAccountRow,
  | 'credentialId'
  | 'refreshTokenCiphertext'
  | 'authStatus'
  | 'isActive'
  | 'disabledReason'
  | 'accountCreatedAt'
  | 'dailyMessageLimit'
  | 'nextSendAt'
  | 'workingDays'
  | 'workingHoursStart'
  | 'workingHoursEnd'
  | 'timezone'
>;

/**
 * The capacity of an account given what it has already sent today. The next send waits for every
 * constraint at once: the pacing delay (next_send_at), the minimum age, a quota left (tomorrow from
 * local midnight when spent), and the working hours and days in the account's zone.
 */
export function capacityAt(account: CapacityAccount, used: number, nowMs: number): AccountCapacity {
  const hasAuthentication = Boolean(account.credentialId && account.refreshTokenCiphertext);
  const tokensExpired = account.authStatus !== 'valid';
  const dailyCap = dailyCapacity(account, nowMs);
  const remaining = Math.max(0, dailyCap - used);
  const base = { hasAuthentication, tokensExpired, dailyCap, usedToday: used, remaining };
  const blocked = (reason: string): AccountCapacity => ({
    ...base,
    canSendNow: false,
    nextAvailableAt: null,
    waitSeconds: 0,
    reason,
  });

  if (!hasAuthentication || tokensExpired) return blocked(AUTH_REQUIRED_REASON);
  // Paused or suspended, it has nothing left today whatever its cap: the panel shows 0, not the limit.
  if (!account.isActive || account.disabledReason) {
    return { ...blocked(account.disabledReason ?? PAUSED_REASON), remaining: 0 };
  }

  const age = accountAgeDays(account, nowMs);
  if (age === null) return blocked(ACCOUNT_TOO_YOUNG);
  const waits: Array<[at: number, why: string]> = [];
  if (age < MIN_SENDING_AGE_DAYS) {
    waits.push([account.accountCreatedAt!.getTime() + MIN_SENDING_AGE_DAYS * DAY_MS, ACCOUNT_TOO_YOUNG]);
  } else if (remaining === 0) {
    waits.push([startOfNextZonedDay(nowMs, account.timezone), DAILY_LIMIT_REASON]);
  }
  if (account.nextSendAt) waits.push([account.nextSendAt.getTime(), PACING_REASON]);
  let earliest = nowMs;
  let reason: string | null = null;
  for (const [at, why] of waits) {
    if (at > earliest) {
      earliest = at;
      reason = why;
    }
  }
  const next = nextWorkingInstant(account, earliest);
  if (next === null) return blocked(NO_WORKING_TIME_REASON);
  // Age and quota say more than the hours they end in; a pacing delay that runs past them says less.
  if (next > earliest && (reason === null || reason === PACING_REASON)) reason = OUTSIDE_WORKING_HOURS_REASON;
  const canSendNow = next <= nowMs;
  return {
    ...base,
    canSendNow,
    nextAvailableAt: canSendNow ? null : new Date(next),
    waitSeconds: canSendNow ? 0 : Math.ceil((next - nowMs) / 1000),
    reason: canSendNow ? null : reason,
  };
}

/** The account's capacity now, counting today's claimed sends from its DMs. */
export async function accountCapacity(
  db: Db,
  account: CapacityAccount &
    Pick<
      RedditAccountRow,
      'id' | 'ownerUserId' | 'redditUsername' | 'quotaResetAt' | 'quotaFloorAt' | 'quotaFloorUntil'
    >,
  nowMs: number,
): Promise<AccountCapacity> {
  return capacityAt(account, await usedToday(db, account, nowMs), nowMs);
}
