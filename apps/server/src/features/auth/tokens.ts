import { randomBytes, createHash, randomUUID } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import { normalizeRoles, TOKEN_TYPE_ACCESS } from '@threadreach/contract';
import type { Config } from '../../config/config';

const ACCESS_AUDIENCE = 'threadreach-api';
const V3_AUDIENCE = 'threadreach-v3-login';
export const V3_TTL_SECONDS = 600;

/** The signed-in caller as every route sees it, read from the access token. */
export interface AuthUser {
  id: string;
  email: string;
  roles: string[];
  profilesLimit: number;
}

export interface TokenSubject {
  id: string;
  email: string;
  roles: string[];
  profilesLimit: number;
}

const keyCache = new WeakMap<Config, Uint8Array>();
function key(config: Config): Uint8Array {
  let k = keyCache.get(config);
  if (!k) {
    k = new TextEncoder().encode(config.jwtSecret);
    keyCache.set(config, k);
  }
  return k;
}

/** `now` is epoch milliseconds from the caller's clock, as in every function here. */
export async function signAccessToken(
  config: Config,
  user: TokenSubject,
  now: number,
): Promise<{ token: string; expiresAt: Date }> {
  const iat = Math.floor(now / 1000);
  const exp = iat + config.accessTokenTtlSeconds;
  const token = await new SignJWT({
    email: user.email,
    server_id: config.serverId,
    type: TOKEN_TYPE_ACCESS,
    profiles_limit: user.profilesLimit,
    roles: user.roles,
  })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(user.id)
    .setIssuer(config.publicUrl)
    .setAudience(ACCESS_AUDIENCE)
    .setIssuedAt(iat)
    .setExpirationTime(exp)
    .sign(key(config));
  return { token, expiresAt: new Date(exp * 1000) };
}

/** Verifies signature, algorithm, issuer, audience, expiry and token type; throws on any failure. */
export async function verifyAccessToken(config: Config, token: string, now: number): Promise<AuthUser> {
  const { payload } = await jwtVerify(token, key(config), {
    algorithms: ['HS256'],
    issuer: config.publicUrl,
    audience: ACCESS_AUDIENCE,
    currentDate: new Date(now),
    // A token without an expiry would be valid forever.
    requiredClaims: ['exp', 'iat', 'sub'],
  });
  if (payload.type !== TOKEN_TYPE_ACCESS || typeof payload.sub !== 'string') {
    throw new Error('not an access token');
  }
  return {
    id: payload.sub,
    email: String(payload.email ?? ''),
    roles: normalizeRoles(payload.roles),
    profilesLimit: typeof payload.profiles_limit === 'number' ? payload.profiles_limit : 0,
  };
}

/** A single-use, 10-minute login link token for a moderator or admin account, named by e-mail. */
export async function signV3Token(config: Config, email: string, now: number): Promise<string> {
  const iat = Math.floor(now / 1000);
  return new SignJWT({ email: email.toLowerCase() })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setJti(randomUUID())
    .setIssuer(config.publicUrl)
    .setAudience(V3_AUDIENCE)
    .setIssuedAt(iat)
    .setExpirationTime(iat + V3_TTL_SECONDS)
    .sign(key(config));
}

export async function verifyV3Token(
  config: Config,
  token: string,
  now: number,
): Promise<{ jti: string; email: string; expiresAt: Date }> {
  const { payload } = await jwtVerify(token, key(config), {
    algorithms: ['HS256'],
    issuer: config.publicUrl,
    audience: V3_AUDIENCE,
    currentDate: new Date(now),
    requiredClaims: ['exp', 'jti'],
  });
  if (
    typeof payload.jti !== 'string' ||
    typeof payload.email !== 'string' ||
    typeof payload.exp !== 'number'
  ) {
    throw new Error('malformed v3 token');
  }
  return { jti: payload.jti, email: payload.email, expiresAt: new Date(payload.exp * 1000) };
}

export function newOpaqueToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}
