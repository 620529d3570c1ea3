import { useSyncExternalStore } from 'react';

/** A loading flag clears itself after this long, so a lost answer cannot block the UI (spec §9). */
export const LOADING_AUTO_CLEAR_MS = 60_000;

type Listener = () => void;
const active = new Map<string, ReturnType<typeof setTimeout>>();
const listeners = new Set<Listener>();
let version = 0;

function notify(): void {
  version += 1;
  for (const listener of listeners) listener();
}

/** Named loading flags shared by the whole app. */
export const loadingStore = {
  start(key: string): void {
    const previous = active.get(key);
    if (previous) clearTimeout(previous);
    active.set(
      key,
      setTimeout(() => loadingStore.stop(key), LOADING_AUTO_CLEAR_MS),
    );
    notify();
  },
  stop(key: string): void {
    const timer = active.get(key);
    if (timer === undefined) return;
    clearTimeout(timer);
    active.delete(key);
    notify();
  },
  isLoading(key: string): boolean {
    return active.has(key);
  },
  /** Clears every flag; returns how many were set. */
  clearAll(): number {
    const count = active.size;
    for (const timer of active.values()) clearTimeout(timer);
    active.clear();
    if (count > 0) notify();
    return count;
  },
  subscribe(listener: Listener): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  version: () => version,
};

/** Runs `task` with the named flag set. */
export async function withLoading<T>(key: string, task: () => Promise<T>): Promise<T> {
  loadingStore.start(key);
  try {
    return await task();
  } finally {
    loadingStore.stop(key);
  }
}

export function useLoadingFlag(key: string): boolean {
  useSyncExternalStore(loadingStore.subscribe, loadingStore.version, loadingStore.version);
  return loadingStore.isLoading(key);
}

/** Ctrl+Shift+C clears stuck loading states; `onCleared` gets the number cleared. */
export function installClearLoadingShortcut(onCleared: (count: number) => void): () => void {
  const handler = (event: KeyboardEvent) => {
    if (event.ctrlKey && event.shiftKey && event.key.toLowerCase() === 'c') {
      event.preventDefault();
      onCleared(loadingStore.clearAll());
    }
  };
  window.addEventListener('keydown', handler);
  return () => window.removeEventListener('keydown', handler);
}
