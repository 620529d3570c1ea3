import { randomUUID } from 'node:crypto';
import {
  hasControlCharacters,
  isModerator,
  type TAuthUser,
  type TRefreshResponse,
} from '@threadreach/contract';
import type { AppContext } from '../../context';
import type { DbOrTx } from '../../db/client';
import { AppError, badRequest, unauthorized } from '../../http/errors';
import {
  findUserByEmail,
  findUserById,
  findUserByIdentity,
  insertUser,
  linkIdentity,
  type UserRow,
} from '../users';
import {
  consumeRefreshToken,
  findRecentlyRotatedToken,
  findRefreshToken,
  findSsoState,
  insertRefreshToken,
  insertSsoState,
  markV3TokenUsed,
  revokeFamily,
  takeSsoState,
  trimSsoStates,
} from './auth.repository';
import {
  calculatePKCECodeChallenge,
  randomNonce,
  randomPKCECodeVerifier,
  randomState,
  type SsoClient,
} from './sso.client';
import { hashToken, newOpaqueToken, signAccessToken, signV3Token, verifyV3Token } from './tokens';

export const SUBSCRIBE_PATH = '/subscribe';
const SSO_STATE_TTL_MS = 10 * 60 * 1000;

/**
 * How long a rotated refresh token may still be presented without counting as reuse: enough for two
 * requests (tabs) sending the same cookie at once and for retrying a refresh whose answer was lost, while a
 * copy used after the rightful one is still caught as reuse half a minute later (record 004).
 */
export const REFRESH_REUSE_GRACE_MS = 30_000;

/** A signed-in session: the access token and the refresh token that goes into the cookie. */
export interface Session {
  user: UserRow;
  accessToken: string;
  expiresAt: Date;
  refreshToken: string;
  refreshExpiresAt: Date;
}

export function presentUser(user: UserRow): TAuthUser {
  return { user_id: user.id, email: user.email, profiles_limit: user.profilesLimit };
}

/** A new access token within an existing session: the refresh token stays as it is. */
export type AccessSession = Omit<Session, 'refreshToken'>;

/**
 * A session as sign-in and the refreshes answer it: with where to go next (`redirect_url`, the plans page
 * while a plan is needed first) unless sign-in names it.
 */
export function presentSession(session: AccessSession, redirectUrl?: string): TRefreshResponse {
  const needsPlan = requiresSubscription(session.user);
  return {
    token: session.accessToken,
    refresh_token: null,
    user: presentUser(session.user),
    expires_at: session.expiresAt.toISOString(),
    refresh_expires_at: session.refreshExpiresAt.toISOString(),
    redirect_url: redirectUrl ?? (needsPlan ? SUBSCRIBE_PATH : '/'),
    requires_subscription: needsPlan,
    subscribe_url: SUBSCRIBE_PATH,
  };
}

/**
 * Subscribers, moderators and admins go straight in; everyone else is sent to the plans, and may not work
 * on projects (spec §5 "Subscription gate").
 */
export function requiresSubscription(user: Pick<UserRow, 'profilesLimit' | 'roles'>): boolean {
  return user.profilesLimit <= 0 && !isModerator(user.roles);
}

// Browsers drop tabs and line breaks from addresses and read a backslash as a slash: `/\t/evil.test`
// and `/\\evil.test` would both leave the site.
// eslint-disable-next-line no-control-regex -- the point is to find control characters
const UNSAFE_IN_REDIRECT = /[\u0000-\u001F\u007F\\]/;
const REDIRECT_BASE = 'http://redirect.invalid';

/** Only same-site paths are followed after sign-in, never another origin. */
export function safeRedirectPath(value: string | null | undefined): string {
  if (!value || !value.startsWith('/') || value.startsWith('//') || UNSAFE_IN_REDIRECT.test(value))
    return '/';
  try {
    if (new URL(value, REDIRECT_BASE).origin !== REDIRECT_BASE) return '/';
  } catch {
    return '/';
  }
  return value;
}

async function startSession(
  ctx: AppContext,
  user: UserRow,
  familyId: string = randomUUID(),
  db: DbOrTx = ctx.db,
): Promise<Session> {
  const now = ctx.clock.now();
  const refreshToken = newOpaqueToken();
  const refreshExpiresAt = new Date(now + ctx.config.refreshTokenTtlDays * 86_400_000);
  await insertRefreshToken(db, {
    userId: user.id,
    familyId,
    tokenHash: hashToken(refreshToken),
    expiresAt: refreshExpiresAt,
  });
  const { token, expiresAt } = await signAccessToken(ctx.config, user, now);
  return { user, accessToken: token, expiresAt, refreshToken, refreshExpiresAt };
}

export async function startSso(
  ctx: AppContext,
  sso: SsoClient,
  redirectTo: string | undefined,
  prompt?: 'login',
) {
  const now = ctx.clock.now();
  const state = randomState();
  const nonce = randomNonce();
  const codeVerifier = randomPKCECodeVerifier();
  let url: URL;
  try {
    url = await sso.authorizationUrl({
      state,
      nonce,
      codeChallenge: await calculatePKCECodeChallenge(codeVerifier),
      prompt,
    });
  } catch (error) {
    ctx.log.warn({ err: error }, 'SSO provider unreachable');
    throw new AppError(
      503,
      'sso_unavailable',
      'Single sign-on is not available right now. Please try again in a moment.',
    );
  }
  await insertSsoState(ctx.db, {
    state,
    nonce,
    codeVerifier,
    redirectTo: redirectTo ? safeRedirectPath(redirectTo) : null,
    expiresAt: new Date(now + SSO_STATE_TTL_MS),
  });
  await trimSsoStates(ctx.db, new Date(now), ctx.config.ssoPendingMax);
  return { sso_url: url.href, callback_url: `${ctx.config.publicUrl}/auth/callback` };
}

/**
 * The provider's answer is handed to the web app's /auth/callback as one opaque `ver` value
 * (the authorization response, base64url), which the app sends back to complete the sign-in.
 */
export async function ssoReturnLocation(ctx: AppContext, rawQuery: string): Promise<string> {
  const params = new URLSearchParams(rawQuery);
  const state = params.get('state');
  const stored = state ? await findSsoState(ctx.db, state) : null;
  const target = new URLSearchParams({ ver: Buffer.from(rawQuery).toString('base64url') });
  if (stored?.redirectTo) target.set('redirect_to', stored.redirectTo);
  return `/auth/callback?${target.toString()}`;
}

export async function completeSso(
  ctx: AppContext,
  sso: SsoClient,
  ver: string,
): Promise<{ session: Session; redirectUrl: string }> {
  const params = new URLSearchParams(Buffer.from(ver, 'base64url').toString('utf8'));
  const providerError = params.get('error');
  if (providerError) {
    // The provider's description is text anyone can put in a link: it is logged, never shown.
    ctx.log.warn(
      {
        providerError: providerError.slice(0, 100),
        description: params.get('error_description')?.slice(0, 300),
      },
      'SSO provider refused the sign-in',
    );
    throw badRequest(
      providerError === 'access_denied'
        ? 'Sign-in was cancelled or refused at the identity provider. Please log in again.'
        : 'The identity provider did not complete the sign-in. Please log in again.',
      'sso_denied',
    );
  }
  const state = params.get('state');
  if (!state || !params.get('code') || hasControlCharacters(state))
    throw badRequest('Missing SSO callback parameters (ver token).', 'sso_invalid');
  const stored = await takeSsoState(ctx.db, state, new Date(ctx.clock.now()));
  if (!stored) {
    throw badRequest(
      'This sign-in link has expired or was already used. Please log in again.',
      'sso_state_invalid',
    );
  }

  let identity;
  try {
    identity = await sso.exchange(new URL(`${sso.redirectUri}?${params.toString()}`), {
      state,
      nonce: stored.nonce,
      codeVerifier: stored.codeVerifier,
    });
  } catch (error) {
    ctx.log.warn({ err: error }, 'SSO code exchange failed');
    throw new AppError(401, 'sso_failed', 'Single sign-on could not be completed. Please log in again.');
  }

  const user = await resolveSsoUser(ctx, identity);
  return { session: await startSession(ctx, user), redirectUrl: safeRedirectPath(stored.redirectTo) };
}

/** Same provider identity, else a verified e-mail we know, else a new USER without a subscription. */
async function resolveSsoUser(
  ctx: AppContext,
  identity: { issuer: string; subject: string; email: string | null; emailVerified: boolean },
): Promise<UserRow> {
  const known = await findUserByIdentity(ctx.db, identity.issuer, identity.subject);
  if (known) return known;
  if (!identity.email) {
    throw badRequest('The identity provider did not return an e-mail address.', 'sso_no_email');
  }
  const byEmail = identity.emailVerified ? await findUserByEmail(ctx.db, identity.email) : null;
  if (byEmail) return linkIdentity(ctx.db, byEmail.id, identity.issuer, identity.subject);
  return insertUser(ctx.db, {
    email: identity.email.toLowerCase(),
    roles: ['USER'],
    profilesLimit: 0,
    oidcIssuer: identity.issuer,
    oidcSubject: identity.subject,
  });
}

/**
 * Rotates the refresh token. A token rotated less than REFRESH_REUSE_GRACE_MS ago, in a family still alive,
 * is answered with another new token of the family; used again later it revokes its whole family.
 */
export async function refreshSession(ctx: AppContext, rawToken: string | undefined): Promise<Session> {
  if (!rawToken) throw unauthorized('No refresh token.');
  const hash = hashToken(rawToken);
  const now = new Date(ctx.clock.now());
  // The old token is spent only with its successor stored: a refresh that fails midway leaves it usable,
  // where a spent one would read as a stolen token's reuse on the retry and end the session.
  const outcome = await ctx.db.transaction(async (tx) => {
    // The grace counts from the rotation and is never renewed by its own answers: a copy of the token
    // works at most that long after its first use.
    const consumed =
      (await consumeRefreshToken(tx, hash, now)) ??
      (await findRecentlyRotatedToken(tx, hash, now, new Date(now.getTime() - REFRESH_REUSE_GRACE_MS)));
    if (!consumed) return null;
    const user = await findUserById(tx, consumed.userId);
    if (!user) throw unauthorized();
    return startSession(ctx, user, consumed.familyId, tx);
  });
  if (outcome) return outcome;
  const known = await findRefreshToken(ctx.db, hash);
  if (known?.revokedAt) {
    await revokeFamily(ctx.db, known.familyId, now);
    ctx.log.warn({ userId: known.userId }, 'refresh token reuse: session family revoked');
  }
  throw unauthorized('Refresh token is invalid or expired. Please log in again.');
}

export async function endSession(ctx: AppContext, rawToken: string | undefined): Promise<void> {
  if (!rawToken) return;
  const known = await findRefreshToken(ctx.db, hashToken(rawToken));
  if (known) await revokeFamily(ctx.db, known.familyId, new Date(ctx.clock.now()));
}

/**
 * A new access token carrying the limit the user has now (after a purchase, for example), inside the
 * session of the refresh cookie: the bearer token alone never mints one, and after logout there is none.
 * The refresh token is not rotated. A cookie a silent refresh rotated at the same moment (the request
 * left with the old one) is taken within the same grace as a refresh gives it, while its session lives.
 */
export async function refreshAfterSubscription(
  ctx: AppContext,
  userId: string,
  rawToken: string | undefined,
): Promise<AccessSession> {
  if (!rawToken) throw unauthorized('No refresh token.');
  const now = ctx.clock.now();
  const hash = hashToken(rawToken);
  const live = await findRefreshToken(ctx.db, hash);
  const rotatedJustNow = async () =>
    (await findRecentlyRotatedToken(ctx.db, hash, new Date(now), new Date(now - REFRESH_REUSE_GRACE_MS))) !==
    null;
  if (
    !live ||
    live.expiresAt.getTime() <= now ||
    live.userId !== userId ||
    (live.revokedAt && !(await rotatedJustNow()))
  ) {
    throw unauthorized('Refresh token is invalid or expired. Please log in again.');
  }
  const user = await findUserById(ctx.db, userId);
  if (!user) throw unauthorized();
  const { token, expiresAt } = await signAccessToken(ctx.config, user, now);
  return { user, accessToken: token, expiresAt, refreshExpiresAt: live.expiresAt };
}

export async function issueV3Link(ctx: Pick<AppContext, 'config' | 'clock'>, email: string): Promise<string> {
  const token = await signV3Token(ctx.config, email, ctx.clock.now());
  return `${ctx.config.publicUrl}/?v3=${encodeURIComponent(token)}`;
}

/** Direct sign-in for moderators and admins from a single-use, 10-minute link. */
export async function loginWithV3(ctx: AppContext, token: string): Promise<Session> {
  let claims;
  try {
    claims = await verifyV3Token(ctx.config, token, ctx.clock.now());
  } catch {
    throw unauthorized('The v3 login link is invalid or has expired.');
  }
  const user = await findUserByEmail(ctx.db, claims.email);
  if (!user || !isModerator(user.roles)) {
    throw new AppError(403, 'v3_not_allowed', 'v3 login is only available to MODERATOR or ADMIN accounts.');
  }
  const fresh = await markV3TokenUsed(ctx.db, {
    jti: claims.jti,
    userId: user.id,
    expiresAt: claims.expiresAt,
  });
  if (!fresh) throw unauthorized('This v3 login link was already used.');
  return startSession(ctx, user);
}
