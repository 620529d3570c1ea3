/** A reload for a new version is not tried again within this time: the chunks may really be missing. */
export const NEW_VERSION_RELOAD_GUARD_MS = 10_000;

const KEY = 'newVersionReloadAt';

/**
 * After a deploy, a tab opened before it asks for chunks that are gone (Vite's `vite:preloadError`):
 * loading the new version of the app fixes it. True when the page should reload now, which is noted in
 * `storage`; false when it already did so moments ago, so a chunk that stays missing does not reload forever.
 */
export function shouldReloadForNewVersion(
  storage: Pick<Storage, 'getItem' | 'setItem'>,
  nowMs: number,
): boolean {
  const last = Number(storage.getItem(KEY));
  if (Number.isFinite(last) && last > 0 && nowMs - last < NEW_VERSION_RELOAD_GUARD_MS) return false;
  storage.setItem(KEY, String(nowMs));
  return true;
}

/** Reloads the page once when a lazily loaded part of the app was removed by a deploy. */
export function reloadOnNewVersion(win: Window = window) {
  win.addEventListener('vite:preloadError', (event) => {
    if (!shouldReloadForNewVersion(win.sessionStorage, Date.now())) return;
    event.preventDefault();
    win.location.reload();
  });
}
