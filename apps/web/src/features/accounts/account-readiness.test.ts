import { describe, expect, it } from 'vitest';
import type { TConnectedAccount } from '@threadreach/contract';
import { formatCountdown, readinessOf } from './account-readiness';

const NOW = Date.UTC(2030, 0, 7, 10);

function account(capacity: Partial<TConnectedAccount['capacity']> = {}): TConnectedAccount {
  return {
    id: 'a',
    project_id: 'p',
    reddit_username: 'demo_founder',
    account_display_name: 'u/demo_founder',
    account_age_days: 420,
    comment_karma: 10,
    link_karma: 1,
    is_active: true,
    auth_status: 'valid',
    disabled_reason: null,
    daily_message_limit: 10,
    remaining_today: 10,
    queued_sends: 0,
    connected_at: '2030-01-01T00:00:00Z',
    auth_checked_at: null,
    capacity: {
      has_authentication: true,
      tokens_expired: false,
      remaining_capacity: 10,
      can_send_now: true,
      wait_seconds: 0,
      next_available_at: null,
      reason: null,
      ...capacity,
    },
  };
}

describe('account readiness', () => {
  it('follows the order of spec section 4', () => {
    expect(readinessOf(account({ has_authentication: false }), NOW).label).toBe('Auth Required');
    expect(readinessOf(account({ tokens_expired: true, remaining_capacity: 0 }), NOW).label).toBe(
      'Auth Required',
    );
    expect(readinessOf(account({ remaining_capacity: 0, can_send_now: false }), NOW).label).toBe(
      'Limit Reached',
    );
    expect(readinessOf(account(), NOW).label).toBe('Ready');
    const waiting = account({ can_send_now: false, next_available_at: new Date(NOW + 95_000).toISOString() });
    expect(readinessOf(waiting, NOW)).toEqual({
      kind: 'waiting',
      label: '01:35',
      color: 'blue',
      queuedOnly: false,
    });
    const offHours = { ...waiting, capacity: { ...waiting.capacity, reason: 'Outside working hours.' } };
    expect(readinessOf(offHours, NOW)).toMatchObject({ kind: 'waiting', label: '01:35', queuedOnly: true });
    expect(readinessOf(waiting, NOW + 95_000).label).toBe('Authenticated');
    expect(readinessOf(account({ can_send_now: false }), NOW).label).toBe('Authenticated');
  });

  it('calls an account kept from sending by no limit (too young, suspended, switched off) Authenticated', () => {
    const blocked = { remaining_capacity: 0, can_send_now: false };
    const young = { ...account(blocked), account_age_days: 3 };
    expect(readinessOf(young, NOW).label).toBe('Authenticated');
    const suspended = { ...account(blocked), disabled_reason: 'Reddit has suspended this account.' };
    expect(readinessOf(suspended, NOW).label).toBe('Authenticated');
    expect(readinessOf({ ...account(blocked), is_active: false }, NOW).label).toBe('Authenticated');
    // Signed out still comes first.
    expect(readinessOf({ ...young, capacity: { ...young.capacity, tokens_expired: true } }, NOW).label).toBe(
      'Auth Required',
    );
  });

  it('counts down in minutes and seconds, with hours when there are any', () => {
    expect(formatCountdown(0)).toBe('00:00');
    expect(formatCountdown(59)).toBe('00:59');
    expect(formatCountdown(61)).toBe('01:01');
    expect(formatCountdown(3599)).toBe('59:59');
    expect(formatCountdown(3600 * 14 + 5)).toBe('14:00:05');
  });
});
