import { logger } from './logger';

/** Local storage key of the access token (spec section 9). */
export const TOKEN_KEY = 'authToken';
/** Older keys still read when authToken is empty. */
export const TOKEN_FALLBACK_KEYS = ['jwtToken', 'token', 'access_token'] as const;
const ALL_KEYS = [TOKEN_KEY, ...TOKEN_FALLBACK_KEYS];
export const TOKEN_PARTS = 3;

type Listener = () => void;
const listeners = new Set<Listener>();

function notify(): void {
  for (const listener of listeners) listener();
}

/** Calls `listener` whenever the stored token changes (here or in another tab). */
export function subscribeToToken(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key === null || ALL_KEYS.includes(event.key)) notify();
  });
}

/** True for a string of exactly three dot-separated, non-empty parts. */
export function hasTokenShape(token: unknown): token is string {
  if (typeof token !== 'string') return false;
  const parts = token.split('.');
  return parts.length === TOKEN_PARTS && parts.every((p) => p.length > 0);
}

function safeStorage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/**
 * The stored token (authToken, then the fallback keys). A stored value of the wrong shape is
 * removed and skipped.
 */
export function getToken(): string | null {
  const storage = safeStorage();
  if (!storage) return null;
  for (const key of ALL_KEYS) {
    const value = storage.getItem(key);
    if (value === null || value === '') continue;
    if (hasTokenShape(value)) return value;
    logger.warn(`Removed malformed token from local storage key "${key}"`);
    storage.removeItem(key);
  }
  return null;
}

/** Stores the token under authToken; a token of the wrong shape is refused (returns false). */
export function setToken(token: unknown): boolean {
  if (!hasTokenShape(token)) {
    logger.error('Refused to store a token without exactly 3 dot-separated parts');
    return false;
  }
  const storage = safeStorage();
  if (!storage) return false;
  try {
    storage.setItem(TOKEN_KEY, token);
  } catch (error) {
    logger.error('Could not store the access token', error);
    return false;
  }
  for (const key of TOKEN_FALLBACK_KEYS) storage.removeItem(key);
  notify();
  return true;
}

/** Removes the token from every key it may be stored under. */
export function removeToken(): void {
  const storage = safeStorage();
  if (!storage) return;
  for (const key of ALL_KEYS) storage.removeItem(key);
  notify();
}
