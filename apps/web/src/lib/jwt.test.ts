import { describe, expect, it } from 'vitest';
import { makeToken } from '../test/tokens';
import {
  EXPIRY_SOON_SECONDS,
  decodeClaims,
  getSubscriptionSummary,
  getUserInfo,
  isTokenExpiringSoon,
  isTokenValid,
} from './jwt';

const NOW = Date.UTC(2030, 0, 1);
const nowSec = NOW / 1000;

describe('JWT claims', () => {
  it('derives the user info of spec section 3', () => {
    const token = makeToken({
      sub: 'u-9',
      email: 'a@b.c',
      exp: nowSec + 100,
      server_id: 'srv',
      type: 'access',
      profiles_limit: 5,
      roles: ['ADMIN', 'USER'],
    });
    expect(getUserInfo(token)).toEqual({
      user_id: 'u-9',
      email: 'a@b.c',
      exp: nowSec + 100,
      server_id: 'srv',
      token_type: 'access',
      profiles_limit: 5,
      roles: ['ADMIN', 'USER'],
    });
  });

  it('treats a single role string as a one-item list and defaults profiles_limit to 0', () => {
    const token = makeToken({ roles: 'MODERATOR', profiles_limit: undefined });
    const info = getUserInfo(token);
    expect(info?.roles).toEqual(['MODERATOR']);
    expect(info?.profiles_limit).toBe(0);
  });

  it('derives the subscription summary', () => {
    expect(getSubscriptionSummary(makeToken({ profiles_limit: 2 }))).toEqual({
      hasActiveSubscription: true,
      profilesLimit: 2,
      needsSubscription: false,
    });
    expect(getSubscriptionSummary(makeToken({ profiles_limit: 0 }))).toEqual({
      hasActiveSubscription: false,
      profilesLimit: 0,
      needsSubscription: true,
    });
    expect(getSubscriptionSummary(null).needsSubscription).toBe(true);
  });

  it('returns null for tokens that cannot be decoded', () => {
    expect(decodeClaims('a.b.c')).toBeNull();
    expect(decodeClaims('only-one-part')).toBeNull();
    expect(getUserInfo(null)).toBeNull();
  });
});

describe('token validity', () => {
  it('is valid only with an exp in the future', () => {
    expect(isTokenValid(makeToken({ exp: nowSec + 1 }), NOW)).toBe(true);
    expect(isTokenValid(makeToken({ exp: nowSec }), NOW)).toBe(false);
    expect(isTokenValid(makeToken({ exp: nowSec - 10 }), NOW)).toBe(false);
    expect(isTokenValid(null, NOW)).toBe(false);
    expect(isTokenValid('a.b.c', NOW)).toBe(false);
  });

  it('counts as expiring soon with fewer than 300 seconds left, or when unparseable', () => {
    expect(EXPIRY_SOON_SECONDS).toBe(300);
    expect(isTokenExpiringSoon(makeToken({ exp: nowSec + 299 }), NOW)).toBe(true);
    expect(isTokenExpiringSoon(makeToken({ exp: nowSec + 300 }), NOW)).toBe(false);
    expect(isTokenExpiringSoon('x.y.z', NOW)).toBe(true);
  });
});
