import { SENDING_TEXTS, type TSendOutcomeCode } from '@threadreach/contract';
import {
  accountAgeDays,
  dailyCapacity,
  MIN_SENDING_AGE_DAYS,
  zonedParts,
  type RedditAccountRow,
} from '../accounts';

/** Why an account cannot send now, and from when it may again (null: not by waiting). */
export interface NotReady {
  code: TSendOutcomeCode;
  reason: string;
  retryAtMs: number | null;
}

export type Readiness =
  { ready: true; capacity: number; used: number; remaining: number } | ({ ready: false } & NotReady);

/** Problems that waiting does not solve: a DM planned on such an account moves to another. */
export const LASTING_PROBLEMS: readonly TSendOutcomeCode[] = [
  'account_disabled',
  'account_auth_required',
  'account_too_young',
  'sender_suspended',
  'no_accounts',
];

/** The order in which one reason is chosen to explain why no account can send (first wins). */
const REASON_ORDER: readonly TSendOutcomeCode[] = [
  'rate_limited',
  'daily_limit_reached',
  'account_auth_required',
  'account_disabled',
  'sender_suspended',
  'account_too_young',
  'no_accounts',
];

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * An instant to the minute, in the zone whose working hours it follows, named: "2026-03-09 09:00
 * Europe/Berlin". The customer chose that zone for the account or the agent, so a queued DM reads in the
 * hours they set, not in UTC.
 */
function formatInstant(ms: number, timeZone = 'UTC'): string {
  if (timeZone === 'UTC') return `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  const p = zonedParts(ms, timeZone);
  return `${p.year}-${pad(p.month)}-${pad(p.day)} ${pad(p.hour)}:${pad(p.minute)} ${timeZone}`;
}

/**
 * Whether the account may take a send now, given how many it has claimed today: switched on, not
 * disabled, signed in, at least 7 days old, under today's (warm-up) cap, and not told by Reddit to wait.
 */
export function accountReadiness(
  account: RedditAccountRow,
  used: number,
  nowMs: number,
  options: { ignoreToday?: boolean } = {},
): Readiness {
  const name = `u/${account.redditUsername}`;
  if (account.disabledReason) {
    return { ready: false, code: 'account_disabled', reason: account.disabledReason, retryAtMs: null };
  }
  if (!account.isActive) {
    return {
      ready: false,
      code: 'account_disabled',
      reason: `${name} is switched off for sending`,
      retryAtMs: null,
    };
  }
  if (account.authStatus !== 'valid' || !account.refreshTokenCiphertext || !account.credentialId) {
    return {
      ready: false,
      code: 'account_auth_required',
      reason: `${name} needs to be re-authenticated before it can send DMs`,
      retryAtMs: null,
    };
  }
  const age = accountAgeDays(account, nowMs);
  if (age === null || age < MIN_SENDING_AGE_DAYS) {
    return {
      ready: false,
      code: 'account_too_young',
      reason: SENDING_TEXTS.accountTooYoung,
      retryAtMs: null,
    };
  }
  const capacity = dailyCapacity(account, nowMs);
  if (!options.ignoreToday && used >= capacity) {
    return {
      ready: false,
      code: 'daily_limit_reached',
      reason: `${name} reached its daily limit of ${capacity} messages`,
      retryAtMs: null,
    };
  }
  const waitUntil = account.nextSendAt?.getTime() ?? 0;
  if (!options.ignoreToday && waitUntil > nowMs) {
    return {
      ready: false,
      code: 'rate_limited',
      reason: `Reddit asked ${name} to wait until ${formatInstant(waitUntil, account.timezone)}`,
      retryAtMs: waitUntil,
    };
  }
  return { ready: true, capacity, used, remaining: Math.max(0, capacity - used) };
}

/** The one reason to give when none of the accounts can send. */
export function explainNoAccount(problems: readonly NotReady[], noAccountsText: string): NotReady {
  if (problems.length === 0) return { code: 'no_accounts', reason: noAccountsText, retryAtMs: null };
  const rank = (p: NotReady) => {
    const i = REASON_ORDER.indexOf(p.code);
    return i < 0 ? REASON_ORDER.length : i;
  };
  const best = [...problems].sort((a, b) => rank(a) - rank(b))[0]!;
  if (problems.length > 1 && problems.every((p) => p.code === 'daily_limit_reached')) {
    return { ...best, reason: 'Every Reddit account of this project reached its daily limit' };
  }
  return best;
}

export { formatInstant };
