import {
  createHash,
  createHmac,
  createSecretKey,
  randomBytes,
  randomUUID,
  timingSafeEqual,
  type KeyObject,
} from 'node:crypto';
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

const hmacKeyCache = new WeakMap<Config, KeyObject>();
function hmacKey(config: Config): KeyObject {
  let k = hmacKeyCache.get(config);
  if (!k) {
    k = createSecretKey(Buffer.from(config.jwtSecret, 'utf8'));
    hmacKeyCache.set(config, k);
  }
  return k;
}

class InvalidTokenError extends Error {}

function decodeJsonObject(segment: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
  } catch {
    throw new InvalidTokenError('malformed token');
  }
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw new InvalidTokenError('malformed token');
  return value as Record<string, unknown>;
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** An access token already checked: its MAC, and what the time checks and the caller need of its claims. */
interface VerifiedAccessToken {
  mac: Buffer;
  exp: number;
  nbf: number | undefined;
  user: AuthUser;
}

/**
 * Checked access tokens by their signed part (header and payload), per configuration. A client sends the same
 * token on every request for its lifetime; this spares the MAC and both JSON decodes each time. The signature
 * is still compared, in constant time, and the clock checked on every use. Oldest first out.
 */
const verifiedTokens = new WeakMap<Config, Map<string, VerifiedAccessToken>>();
export const VERIFIED_TOKENS_MAX = 10_000;

function checkTime(exp: unknown, nbf: unknown, now: number) {
  const nowSeconds = Math.floor(now / 1000);
  // A token without an expiry would be valid forever.
  if (typeof exp !== 'number' || exp <= nowSeconds) throw new InvalidTokenError('expired');
  if (nbf !== undefined && (typeof nbf !== 'number' || nbf > nowSeconds)) {
    throw new InvalidTokenError('not yet valid');
  }
}

/** The given signature, if it is the canonical encoding of this MAC. */
function signatureMatches(signaturePart: string, mac: Buffer): boolean {
  const given = Buffer.from(signaturePart, 'base64url');
  return (
    given.length === mac.length &&
    given.toString('base64url') === signaturePart &&
    timingSafeEqual(given, mac)
  );
}

/**
 * Verifies signature, algorithm, issuer, audience, expiry and token type; throws on any failure.
 *
 * Every authenticated request passes here, so the check is an HMAC with node:crypto rather than jose's
 * WebCrypto path (about 15% of the server's time under load), done once per token. The checks are those
 * of jose's `jwtVerify` with the options this function gave it: HS256 only, no `crit` extensions, `exp`,
 * `iat` and `sub` required, `exp` after and `nbf` (when present) not after the given clock, exact issuer
 * and audience.
 */
export async function verifyAccessToken(config: Config, token: string, now: number): Promise<AuthUser> {
  const parts = token.split('.');
  if (parts.length !== 3) throw new InvalidTokenError('malformed token');
  const [headerPart, payloadPart, signaturePart] = parts as [string, string, string];
  if (!BASE64URL.test(headerPart) || !BASE64URL.test(payloadPart) || !BASE64URL.test(signaturePart)) {
    throw new InvalidTokenError('malformed token');
  }
  const signed = `${headerPart}.${payloadPart}`;
  let verified = verifiedTokens.get(config);
  if (!verified) verifiedTokens.set(config, (verified = new Map()));
  const known = verified.get(signed);
  if (known) {
    if (!signatureMatches(signaturePart, known.mac)) throw new InvalidTokenError('bad signature');
    checkTime(known.exp, known.nbf, now);
    return { ...known.user, roles: [...known.user.roles] };
  }

  const header = decodeJsonObject(headerPart);
  // The algorithm comes from the server, never from the token: anything but HS256 (alg none included) fails.
  if (header.alg !== 'HS256' || 'crit' in header) throw new InvalidTokenError('unexpected token header');
  const mac = createHmac('sha256', hmacKey(config)).update(signed).digest();
  if (!signatureMatches(signaturePart, mac)) throw new InvalidTokenError('bad signature');
  const payload = decodeJsonObject(payloadPart);
  checkTime(payload.exp, payload.nbf, now);
  if (typeof payload.iat !== 'number') throw new InvalidTokenError('no iat');
  if (payload.iss !== config.publicUrl) throw new InvalidTokenError('wrong issuer');
  const audience = payload.aud;
  const audienceOk = Array.isArray(audience)
    ? audience.includes(ACCESS_AUDIENCE)
    : audience === ACCESS_AUDIENCE;
  if (!audienceOk) throw new InvalidTokenError('wrong audience');
  if (payload.type !== TOKEN_TYPE_ACCESS || typeof payload.sub !== 'string') {
    throw new InvalidTokenError('not an access token');
  }
  const user: AuthUser = {
    id: payload.sub,
    email: String(payload.email ?? ''),
    roles: normalizeRoles(payload.roles),
    profilesLimit: typeof payload.profiles_limit === 'number' ? payload.profiles_limit : 0,
  };
  if (verified.size >= VERIFIED_TOKENS_MAX) verified.delete(verified.keys().next().value!);
  verified.set(signed, { mac, exp: payload.exp as number, nbf: payload.nbf as number | undefined, user });
  return { ...user, roles: [...user.roles] };
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
