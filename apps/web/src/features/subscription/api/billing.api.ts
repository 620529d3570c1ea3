import type {
  TAvailablePlansResponse,
  TCheckoutSessionResponse,
  TRefreshResponse,
  TUserSubscriptionResponse,
} from '@threadreach/contract';
import { ALREADY_SUBSCRIBED, authEndpoints, billingEndpoints, NO_PLAN_NEEDED } from '@threadreach/contract';
import { call } from '../../../lib/api-client';
import { ApiError } from '../../../lib/api-error';
import { decodeClaims } from '../../../lib/jwt';
import {
  getToken,
  hasTokenShape,
  setToken,
  TOKEN_FALLBACK_KEYS,
  TOKEN_KEY,
} from '../../../lib/token-storage';
import { PLAN_MESSAGES, SUCCESS_MESSAGES } from '../messages';

/**
 * A failure to show on a subscription page: `message` leads, `detail` says what happened, `code` is the
 * server's code where the page answers it in its own way.
 */
export class SubscriptionError extends Error {
  override readonly name = 'SubscriptionError';
  constructor(
    message: string,
    readonly detail: string | null = null,
    readonly code: string | null = null,
  ) {
    super(message);
  }
}

/** GET /billing/available-plans, without the bearer token (spec section 7). */
export async function getAvailablePlans(): Promise<TAvailablePlansResponse> {
  try {
    return await call(billingEndpoints.availablePlans, {}, { auth: false });
  } catch (error) {
    const detail =
      error instanceof ApiError && error.status > 0 ? PLAN_MESSAGES.fetchPlansStatus(error.status) : null;
    throw new SubscriptionError(
      PLAN_MESSAGES.loadFailed,
      detail ?? (error instanceof Error ? error.message : null),
    );
  }
}

function isWebUrl(value: string): boolean {
  try {
    const url = new URL(value, window.location.origin);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

/** POST /billing/create-checkout-session; needs a signed-in user. */
export async function createCheckoutSession(priceId: string): Promise<TCheckoutSessionResponse> {
  if (!getToken()) throw new SubscriptionError(PLAN_MESSAGES.authRequired);
  let session: TCheckoutSessionResponse;
  try {
    session = await call(billingEndpoints.createCheckoutSession, { body: { price_id: priceId } });
  } catch (error) {
    if (error instanceof ApiError && error.status === 401)
      throw new SubscriptionError(PLAN_MESSAGES.authRequired);
    // Moderators and admins are sold no plan: the server's own words, not a general refusal.
    if (error instanceof ApiError && error.status === 403 && error.code === NO_PLAN_NEEDED) {
      throw new SubscriptionError(error.detail ?? error.message, null, NO_PLAN_NEEDED);
    }
    // A 403 carries its own message (read-only accounts, for example).
    if (error instanceof ApiError && error.status === 403) throw new SubscriptionError(error.message);
    // A plan still runs (bought in another tab, say): not a failure to retry.
    if (error instanceof ApiError && error.status === 409 && error.code === ALREADY_SUBSCRIBED) {
      throw new SubscriptionError(error.message, null, ALREADY_SUBSCRIBED);
    }
    const detail =
      error instanceof ApiError && error.status > 0
        ? PLAN_MESSAGES.createSessionStatus(error.status)
        : error instanceof Error
          ? error.message
          : null;
    throw new SubscriptionError(PLAN_MESSAGES.checkoutFailed, detail);
  }
  if (!session?.checkout_url || !isWebUrl(session.checkout_url)) {
    throw new SubscriptionError(PLAN_MESSAGES.checkoutFailed);
  }
  return session;
}

/**
 * POST /billing/create-portal-session: the payment provider's page to change or cancel the plan.
 * Rejects with the server's detail (no plan to manage, read-only) or a general message.
 */
export async function createPortalSession(): Promise<string> {
  let url: string;
  try {
    url = (await call(billingEndpoints.createPortalSession)).portal_url;
  } catch (error) {
    if (error instanceof ApiError && error.status >= 400 && error.status < 500) {
      throw new SubscriptionError(error.message);
    }
    throw new SubscriptionError(PLAN_MESSAGES.portalFailed);
  }
  if (!isWebUrl(url)) throw new SubscriptionError(PLAN_MESSAGES.portalFailed);
  return url;
}

/** The raw stored token (authToken, then the older keys), without removing a malformed one. */
function storedTokenValue(): string | null {
  try {
    for (const key of [TOKEN_KEY, ...TOKEN_FALLBACK_KEYS]) {
      const value = window.localStorage.getItem(key);
      if (value) return value;
    }
  } catch {
    return null;
  }
  return null;
}

/**
 * POST /auth/refresh-after-subscription and store the new token. Resolves the token's profiles_limit;
 * rejects with the success page's message for what went wrong.
 */
export async function refreshAccessAfterSubscription(): Promise<number> {
  const stored = storedTokenValue();
  if (!stored) throw new SubscriptionError(SUCCESS_MESSAGES.authRequired);
  if (!hasTokenShape(stored)) throw new SubscriptionError(SUCCESS_MESSAGES.badStoredToken);

  let data: TRefreshResponse | null;
  try {
    data = await call(authEndpoints.refreshAfterSubscription);
  } catch (error) {
    if (error instanceof ApiError && error.status === 0)
      throw new SubscriptionError(SUCCESS_MESSAGES.network);
    throw new SubscriptionError(SUCCESS_MESSAGES.generic, error instanceof Error ? error.message : null);
  }
  const token = data?.token;
  if (typeof token !== 'string' || token === '') throw new SubscriptionError(SUCCESS_MESSAGES.noToken);
  const claims = decodeClaims(token);
  if (!hasTokenShape(token) || !claims) throw new SubscriptionError(SUCCESS_MESSAGES.invalidToken);
  if (!setToken(token)) throw new SubscriptionError(SUCCESS_MESSAGES.storage);
  const limit = typeof claims.profiles_limit === 'number' ? claims.profiles_limit : 0;
  if (limit <= 0) throw new SubscriptionError(SUCCESS_MESSAGES.delayed);
  return limit;
}

/** GET /users/{userId}/subscription: the user's limit (for connected accounts and projects) and plan. */
export function getUserSubscription(userId: string): Promise<TUserSubscriptionResponse> {
  return call(billingEndpoints.userSubscription, { params: { userId } });
}
