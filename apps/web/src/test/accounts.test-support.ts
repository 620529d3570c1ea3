import type { TAccountList, TConnectedAccount } from '@threadreach/contract';
import { uuid } from './discovery.test-support';

/** A connected account that can send now; overrides reach into its capacity too. */
export function buildConnectedAccount(
  overrides: Partial<Omit<TConnectedAccount, 'capacity'>> & {
    capacity?: Partial<TConnectedAccount['capacity']>;
  } = {},
): TConnectedAccount {
  const { capacity, ...rest } = overrides;
  return {
    id: uuid(),
    project_id: '0d9a3c52-6f4e-4b1a-9c3d-5e6f7a8b9c0d',
    reddit_username: 'demo_founder',
    account_display_name: 'u/demo_founder',
    account_age_days: 420,
    comment_karma: 3400,
    link_karma: 1250,
    is_active: true,
    auth_status: 'valid',
    disabled_reason: null,
    daily_message_limit: 10,
    remaining_today: 10,
    queued_sends: 0,
    connected_at: '2030-01-01T00:00:00Z',
    auth_checked_at: '2030-01-01T00:00:00Z',
    ...rest,
    capacity: {
      has_authentication: true,
      tokens_expired: false,
      remaining_capacity: rest.remaining_today ?? 10,
      can_send_now: true,
      wait_seconds: 0,
      next_available_at: null,
      reason: null,
      ...capacity,
    },
  };
}

/** The accounts list answer; by default the caller may connect more. */
export function accountList(
  items: TConnectedAccount[] = [],
  connectLimit: Partial<TAccountList['connect_limit']> = {},
): TAccountList {
  return {
    items,
    total: items.length,
    limit: 100,
    offset: 0,
    connect_limit: { used: items.length, limit: 3, blocked_reason: null, ...connectLimit },
  };
}
