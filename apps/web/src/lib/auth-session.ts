import { authEndpoints, SESSION_HINT_COOKIE } from '@threadreach/contract';
import { call } from './api-client';
import { ApiError, chooseErrorMessage } from './api-error';
import { localPrefs } from './local-prefs';
import { logger } from './logger';
import { currentAddress, navigateTo, reloadPage } from './navigation';
import { isTokenExpiringSoon, isTokenValid } from './jwt';
import { getToken, removeToken, setToken } from './token-storage';

/** Delay before the SSO-processing flag is cleared (spec section 9). */
export const SSO_FLAG_CLEAR_DELAY_MS = 1000;
export const LOGIN_PATH = '/login';

let ssoProcessing = false;
let ssoClearTimer: ReturnType<typeof setTimeout> | null = null;

/** While set, token refreshes and 401 retries are suspended (an SSO callback is being handled). */
export function setSsoProcessing(value: boolean): void {
  if (ssoClearTimer) {
    clearTimeout(ssoClearTimer);
    ssoClearTimer = null;
  }
  ssoProcessing = value;
}

export function clearSsoProcessingLater(delayMs: number = SSO_FLAG_CLEAR_DELAY_MS): void {
  if (ssoClearTimer) clearTimeout(ssoClearTimer);
  ssoClearTimer = setTimeout(() => {
    ssoProcessing = false;
    ssoClearTimer = null;
  }, delayMs);
}

export function isSsoProcessing(): boolean {
  return ssoProcessing;
}

let refreshInFlight: Promise<boolean> | null = null;
/**
 * The token whose refresh the server refused (the session ended: a logout elsewhere, its end reached). Until
 * another token is stored, no refresh is asked for again: each request would otherwise ask once more while
 * the token lasts, and when it ends the first 401 goes to the login page.
 */
let refusedFor: string | null = null;
/** Set while logging out, so no refresh races the server logout and brings the session back. */
let loggingOut = false;

/**
 * The tabs of a browser share the refresh cookie and the stored token: they refresh one at a time under
 * this Web Lock, and a tab that waited uses the token the other stored. The server forgives a cookie
 * presented twice only within 30 seconds of its rotation, and each time it does, the session gains a second
 * line of refresh tokens.
 */
export const REFRESH_LOCK = 'threadreach-token-refresh';

/** A token other than `before`, stored meanwhile by another tab's refresh, and good for a while yet. */
function refreshedElsewhere(before: string | null): boolean {
  const now = getToken();
  return now !== null && now !== before && !isTokenExpiringSoon(now);
}

function refreshOnce(): Promise<boolean> {
  const before = getToken();
  const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
  if (!locks) return runRefresh(before);
  // The lock's promise resolves to what the callback's promise does; `then` tells TypeScript so.
  return locks.request(REFRESH_LOCK, () => runRefresh(before)).then((refreshed) => refreshed);
}

async function runRefresh(before: string | null): Promise<boolean> {
  // Another tab refreshed while this one waited for the lock: its token will do.
  if (refreshedElsewhere(before)) return true;
  try {
    const data = await call(authEndpoints.refreshWithToken, {}, { auth: false });
    const token = data?.token;
    if (!token) {
      logger.warn('No JWT token received from refresh.');
      return false;
    }
    return setToken(token);
  } catch (error) {
    // Without Web Locks two tabs can still race; the one whose cookie was spent takes the other's token.
    if (refreshedElsewhere(before)) return true;
    if (error instanceof ApiError && error.status > 0) {
      if (error.status === 401) refusedFor = before;
      logger.warn(chooseErrorMessage(error.data, `Token refresh failed with status ${error.status}`));
    } else {
      logger.warn('Token refresh failed', error instanceof Error ? error.message : error);
    }
    return false;
  }
}

/** Whether the server left a session to restore: the refresh cookie itself is out of the page's reach. */
function hasSessionHint(): boolean {
  return document.cookie.split(';').some((c) => c.trim().startsWith(`${SESSION_HINT_COOKIE}=`));
}

/**
 * Restores the session on opening the app, when one may be there: a visitor who never signed in (or signed
 * out) is not sent to the server for a refusal.
 */
export function restoreSession(): Promise<boolean> {
  return hasSessionHint() ? refreshAccessToken() : Promise.resolve(false);
}

/**
 * Whether this browser is signed in: a stored token that has not expired, or a session the refresh cookie
 * restores.
 */
export async function hasSession(): Promise<boolean> {
  return isTokenValid(getToken()) || restoreSession();
}

/**
 * Gets a new access token with the refresh cookie. Concurrent callers share one request.
 * Resolves false on any failure, and at once while an SSO callback or a logout is being handled.
 */
export function refreshAccessToken(): Promise<boolean> {
  if (ssoProcessing || loggingOut) return Promise.resolve(false);
  if (refusedFor !== null && getToken() === refusedFor) return Promise.resolve(false);
  if (!refreshInFlight) {
    refreshInFlight = refreshOnce().finally(() => {
      refreshInFlight = null;
    });
  }
  return refreshInFlight;
}

async function callServerLogout(): Promise<void> {
  try {
    await call(authEndpoints.logout, {}, { auth: false });
  } catch (error) {
    logger.warn('Logout request failed', error);
  }
}

/**
 * Removes the local token and the selected project (with its steps and tabs), tells the server
 * (failures ignored), then goes home or reloads.
 */
export async function logout(options: { goHome?: boolean } = {}): Promise<void> {
  loggingOut = true;
  try {
    removeToken();
    localPrefs.forgetAll();
    localPrefs.setSignedOut(true);
    await callServerLogout();
  } finally {
    if (options.goHome) loggingOut = false;
  }
  if (options.goHome) navigateTo('/', { replace: true });
  else reloadPage();
}

let sessionEnding = false;

/** After a failed refresh: log out and go to the login page with the current address to return to. */
export function endSessionAndGoToLogin(): void {
  if (sessionEnding) return;
  sessionEnding = true;
  removeToken();
  void callServerLogout().finally(() => {
    sessionEnding = false;
  });
  const here = currentAddress();
  if (window.location.pathname === LOGIN_PATH) return;
  navigateTo(`${LOGIN_PATH}?redirect=${encodeURIComponent(here)}`, { replace: true });
}

/**
 * Forgets the flags above as a page load does: a logout keeps refreshes off until its reload, and a test's
 * page outlives that reload.
 */
export function resetSessionFlags(): void {
  setSsoProcessing(false);
  refreshInFlight = null;
  refusedFor = null;
  loggingOut = false;
  sessionEnding = false;
}
