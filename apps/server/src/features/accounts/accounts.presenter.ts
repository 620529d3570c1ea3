import type {
  TAccountAuthStatus,
  TAccountAuthStatusValue,
  TAccountCapacity,
  TAccountSettings,
  TAccountTimezone,
  TConnectedAccount,
} from '@threadreach/contract';
import type { AccountCapacity } from './account-capacity';
import { accountAgeDays } from './account-quota';
import type { RedditAccountRow } from './accounts.table';

/** An account whose send credential was deleted holds a grant of an app that is gone: sign in again. */
function authStatusOf(row: Pick<RedditAccountRow, 'authStatus' | 'credentialId'>): TAccountAuthStatusValue {
  if (row.authStatus === 'revoked') return 'revoked';
  return row.authStatus === 'valid' && row.credentialId !== null ? 'valid' : 'expired';
}

export function presentCapacity(capacity: AccountCapacity): TAccountCapacity {
  return {
    has_authentication: capacity.hasAuthentication,
    tokens_expired: capacity.tokensExpired,
    remaining_capacity: capacity.remaining,
    can_send_now: capacity.canSendNow,
    wait_seconds: capacity.waitSeconds,
    next_available_at: capacity.nextAvailableAt?.toISOString() ?? null,
    reason: capacity.reason,
  };
}

/** A connected account as the panel shows it; its refresh token never leaves the server. */
export function presentAccount(
  row: RedditAccountRow,
  capacity: AccountCapacity,
  nowMs: number,
  queuedSends: number,
): TConnectedAccount {
  return {
    id: row.id,
    project_id: row.projectId,
    reddit_username: row.redditUsername,
    account_display_name: `u/${row.redditUsername}`,
    account_age_days: accountAgeDays(row, nowMs),
    comment_karma: row.commentKarma,
    link_karma: row.linkKarma,
    is_active: row.isActive,
    auth_status: authStatusOf(row),
    disabled_reason: row.disabledReason,
    daily_message_limit: row.dailyMessageLimit,
    remaining_today: capacity.remaining,
    queued_sends: queuedSends,
    connected_at: row.createdAt.toISOString(),
    auth_checked_at: row.authCheckedAt?.toISOString() ?? null,
    capacity: presentCapacity(capacity),
  };
}

export function presentAuthStatus(row: RedditAccountRow, capacity: AccountCapacity): TAccountAuthStatus {
  return {
    id: row.id,
    reddit_username: row.redditUsername,
    auth_status: authStatusOf(row),
    is_active: row.isActive,
    ...presentCapacity(capacity),
  };
}

export function presentSettings(row: RedditAccountRow): TAccountSettings {
  return {
    account_id: row.id,
    delay_range_min: row.delayRangeMin,
    delay_range_max: row.delayRangeMax,
    working_days: [...row.workingDays].sort((a, b) => a - b),
    working_hours_start: row.workingHoursStart,
    working_hours_end: row.workingHoursEnd,
    timezone: row.timezone as TAccountTimezone,
  };
}
