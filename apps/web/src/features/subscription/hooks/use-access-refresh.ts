import { useEffect, useRef, useState } from 'react';
import { refreshAccessAfterSubscription } from '../api/billing.api';
import { SUCCESS_MESSAGES } from '../messages';

/** The success page refreshes the token this long after it loads (spec section 9). */
export const AUTO_REFRESH_DELAY_MS = 1000;
/** After a successful refresh it goes to the dashboard this much later (spec section 9). */
export const SUCCESS_REDIRECT_DELAY_MS = 1500;
const ATTEMPTS_KEY = 'subscriptionRefreshAttempts';

export type TAccessRefreshState =
  | { status: 'ready' }
  | { status: 'processing'; attempt: number }
  | { status: 'success' }
  | { status: 'error'; attempt: number; message: string };

function attemptsKey(sessionId: string | null): string {
  return `${ATTEMPTS_KEY}:${sessionId ?? ''}`;
}

/** Attempts survive 'Try Again' (a reload) so the page can say which attempt failed. */
function nextAttempt(sessionId: string | null): number {
  try {
    const n = Number(window.sessionStorage.getItem(attemptsKey(sessionId)) ?? '0') + 1;
    window.sessionStorage.setItem(attemptsKey(sessionId), String(n));
    return n;
  } catch {
    return 1;
  }
}

function clearAttempts(sessionId: string | null): void {
  try {
    window.sessionStorage.removeItem(attemptsKey(sessionId));
  } catch {
    // Storage may be unavailable; nothing to clear then.
  }
}

/**
 * The success page's state machine: ready, then (1 s after load) processing while the access token is
 * refreshed, then success (and `onDone` 1.5 s later) or error.
 */
export function useAccessRefresh(options: {
  sessionId: string | null;
  onSuccess?: () => void;
  onDone: () => void;
}): TAccessRefreshState {
  const [state, setState] = useState<TAccessRefreshState>({ status: 'ready' });
  const callbacks = useRef(options);
  useEffect(() => {
    callbacks.current = options;
  });
  const { sessionId } = options;

  useEffect(() => {
    let active = true;
    let redirectTimer: ReturnType<typeof setTimeout> | undefined;
    const start = setTimeout(() => {
      const attempt = nextAttempt(sessionId);
      setState({ status: 'processing', attempt });
      refreshAccessAfterSubscription().then(
        () => {
          clearAttempts(sessionId);
          if (!active) return;
          setState({ status: 'success' });
          callbacks.current.onSuccess?.();
          redirectTimer = setTimeout(() => callbacks.current.onDone(), SUCCESS_REDIRECT_DELAY_MS);
        },
        (error: unknown) => {
          if (!active) return;
          const message = error instanceof Error && error.message ? error.message : SUCCESS_MESSAGES.generic;
          setState({ status: 'error', attempt, message });
        },
      );
    }, AUTO_REFRESH_DELAY_MS);
    return () => {
      active = false;
      clearTimeout(start);
      if (redirectTimer) clearTimeout(redirectTimer);
    };
  }, [sessionId]);

  return state;
}
