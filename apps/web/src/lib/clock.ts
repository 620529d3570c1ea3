import { useSyncExternalStore } from 'react';

/** How often the authenticated state is re-read (spec section 9). */
export const AUTH_RECHECK_MS = 60_000;

type Listener = () => void;
const listeners = new Set<Listener>();
let now = Date.now();
let timer: ReturnType<typeof setInterval> | null = null;

function subscribe(listener: Listener): () => void {
  listeners.add(listener);
  now = Date.now();
  if (!timer) {
    timer = setInterval(() => {
      now = Date.now();
      for (const l of listeners) l();
    }, AUTH_RECHECK_MS);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer) {
      clearInterval(timer);
      timer = null;
    }
  };
}

const getNow = () => now;

/** The current time, updated every 60 seconds while someone listens. */
export function useMinuteClock(): number {
  return useSyncExternalStore(subscribe, getNow, getNow);
}
