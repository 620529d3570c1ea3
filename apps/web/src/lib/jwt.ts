import { normalizeRoles, type TTokenClaims } from '@threadreach/contract';
import { getToken } from './token-storage';

/** A token with fewer seconds than this left counts as expiring soon (spec section 9). */
export const EXPIRY_SOON_SECONDS = 300;

export type TTokenPayload = Partial<Omit<TTokenClaims, 'roles'>> & { roles?: unknown };

/** User info derived from the token's claims (spec section 3). */
export interface TUserInfo {
  user_id: string;
  email: string;
  exp: number;
  server_id: string;
  token_type: string;
  profiles_limit: number;
  roles: string[];
}

/** Subscription summary derived from the token's claims (spec section 3). */
export interface TSubscriptionSummary {
  hasActiveSubscription: boolean;
  profilesLimit: number;
  needsSubscription: boolean;
}

function decodeBase64Url(part: string): string {
  const base64 = part.replace(/-/g, '+').replace(/_/g, '/');
  const padded = base64 + '='.repeat((4 - (base64.length % 4)) % 4);
  const binary = atob(padded);
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

/** The token's claims, or null when it cannot be decoded. The signature is not checked here. */
export function decodeClaims(token: string | null | undefined): TTokenPayload | null {
  if (!token) return null;
  const parts = token.split('.');
  if (parts.length !== 3 || !parts[1]) return null;
  try {
    const payload: unknown = JSON.parse(decodeBase64Url(parts[1]));
    if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) return null;
    return payload as TTokenPayload;
  } catch {
    return null;
  }
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function num(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}

export function getUserInfo(token: string | null | undefined = getToken()): TUserInfo | null {
  const claims = decodeClaims(token);
  if (!claims) return null;
  return {
    user_id: str(claims.sub),
    email: str(claims.email),
    exp: num(claims.exp, 0),
    server_id: str(claims.server_id),
    token_type: str(claims.type),
    profiles_limit: num(claims.profiles_limit, 0),
    roles: normalizeRoles(claims.roles),
  };
}

export function getSubscriptionSummary(token: string | null | undefined = getToken()): TSubscriptionSummary {
  const profilesLimit = getUserInfo(token)?.profiles_limit ?? 0;
  return {
    hasActiveSubscription: profilesLimit > 0,
    profilesLimit,
    needsSubscription: profilesLimit <= 0,
  };
}

function nowSeconds(now: number): number {
  return Math.floor(now / 1000);
}

/** Valid: decodable with an exp in the future. */
export function isTokenValid(token: string | null | undefined, now: number = Date.now()): boolean {
  const exp = decodeClaims(token)?.exp;
  return typeof exp === 'number' && exp > nowSeconds(now);
}

/** Fewer than 300 seconds left; an undecodable token counts as expiring. */
export function isTokenExpiringSoon(token: string | null | undefined, now: number = Date.now()): boolean {
  const exp = decodeClaims(token)?.exp;
  if (typeof exp !== 'number') return true;
  return exp - nowSeconds(now) < EXPIRY_SOON_SECONDS;
}
