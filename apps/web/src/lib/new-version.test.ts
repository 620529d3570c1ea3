import { describe, expect, it } from 'vitest';
import { NEW_VERSION_RELOAD_GUARD_MS, shouldReloadForNewVersion } from './new-version';

function memoryStorage() {
  const items = new Map<string, string>();
  return {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
  };
}

describe('reloading for a new version', () => {
  it('reloads once, not again within the guard, and again after it', () => {
    const storage = memoryStorage();
    const t0 = 1_800_000_000_000;
    expect(shouldReloadForNewVersion(storage, t0)).toBe(true);
    // The reloaded page still misses the chunk: it shows the error instead of reloading forever.
    expect(shouldReloadForNewVersion(storage, t0 + 2_000)).toBe(false);
    expect(shouldReloadForNewVersion(storage, t0 + NEW_VERSION_RELOAD_GUARD_MS - 1)).toBe(false);
    // A later deploy is a new case.
    expect(shouldReloadForNewVersion(storage, t0 + NEW_VERSION_RELOAD_GUARD_MS)).toBe(true);
  });

  it('reads a damaged note as none', () => {
    const storage = memoryStorage();
    storage.setItem('newVersionReloadAt', 'garbage');
    expect(shouldReloadForNewVersion(storage, 1_800_000_000_000)).toBe(true);
  });
});
