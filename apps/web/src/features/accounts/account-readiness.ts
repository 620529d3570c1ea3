import {
  ACCOUNT_MIN_AGE_DAYS,
  OUTSIDE_WORKING_HOURS_REASON,
  type TConnectedAccount,
} from '@threadreach/contract';

/** Spec section 4 "Connected account readiness". */
export type TReadiness =
  | { kind: 'auth-required'; label: 'Auth Required'; color: 'red' }
  | { kind: 'limit-reached'; label: 'Limit Reached'; color: 'orange' }
  | { kind: 'ready'; label: 'Ready'; color: 'green' }
  | {
      kind: 'waiting';
      label: string;
      color: 'blue';
      /** Only working hours hold it: they pace Send All and the agent, a DM sent with Send goes now. */
      queuedOnly: boolean;
    }
  | { kind: 'authenticated'; label: 'Authenticated'; color: 'gray' };

/** Whole seconds until the account can send, from its next_available_at; 0 when the time has come or none is known. */
export function secondsUntilAvailable(account: TConnectedAccount, nowMs: number): number {
  const at = account.capacity.next_available_at;
  if (!at) return 0;
  return Math.max(0, Math.ceil((Date.parse(at) - nowMs) / 1000));
}

/** 'mm:ss', or 'h:mm:ss' from an hour up. */
export function formatCountdown(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const pad = (n: number) => String(n).padStart(2, '0');
  const hours = Math.floor(s / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  const rest = s % 60;
  return hours > 0 ? `${hours}:${pad(minutes)}:${pad(rest)}` : `${pad(minutes)}:${pad(rest)}`;
}

/**
 * Signed in but kept from sending by something no wait ends: suspended by Reddit, switched off, or
 * younger than ACCOUNT_MIN_AGE_DAYS. It can send nothing today, whatever its daily limit.
 */
function isBlocked(account: TConnectedAccount): boolean {
  const age = account.account_age_days;
  return (
    account.disabled_reason !== null || !account.is_active || (age !== null && age < ACCOUNT_MIN_AGE_DAYS)
  );
}

/**
 * Auth Required (no authentication or tokens expired), Limit Reached (nothing left today), Ready, a
 * countdown while waiting, or Authenticated when it neither sends nor waits for a time: also when it is
 * blocked (its reason says why), which is no daily limit reached.
 */
export function readinessOf(account: TConnectedAccount, nowMs: number): TReadiness {
  const { capacity } = account;
  if (!capacity.has_authentication || capacity.tokens_expired) {
    return { kind: 'auth-required', label: 'Auth Required', color: 'red' };
  }
  if (isBlocked(account)) return { kind: 'authenticated', label: 'Authenticated', color: 'gray' };
  if (capacity.remaining_capacity === 0)
    return { kind: 'limit-reached', label: 'Limit Reached', color: 'orange' };
  if (capacity.can_send_now) return { kind: 'ready', label: 'Ready', color: 'green' };
  const seconds = secondsUntilAvailable(account, nowMs);
  if (seconds > 0) {
    const queuedOnly = capacity.reason === OUTSIDE_WORKING_HOURS_REASON;
    return { kind: 'waiting', label: formatCountdown(seconds), color: 'blue', queuedOnly };
  }
  return { kind: 'authenticated', label: 'Authenticated', color: 'gray' };
}
