import { afterEach, describe, expect, it, vi } from 'vitest';
import { LOADING_AUTO_CLEAR_MS, installClearLoadingShortcut, loadingStore } from './loading-store';

afterEach(() => {
  loadingStore.clearAll();
  vi.useRealTimers();
});

describe('loading store', () => {
  it('clears a flag by itself after 60 seconds', () => {
    vi.useFakeTimers();
    loadingStore.start('save');
    expect(loadingStore.isLoading('save')).toBe(true);
    vi.advanceTimersByTime(LOADING_AUTO_CLEAR_MS - 1);
    expect(loadingStore.isLoading('save')).toBe(true);
    vi.advanceTimersByTime(1);
    expect(loadingStore.isLoading('save')).toBe(false);
  });

  it('clears every flag on Ctrl+Shift+C', () => {
    const onCleared = vi.fn();
    const uninstall = installClearLoadingShortcut(onCleared);
    loadingStore.start('a');
    loadingStore.start('b');
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'C', ctrlKey: true, shiftKey: true }));
    expect(loadingStore.isLoading('a')).toBe(false);
    expect(loadingStore.isLoading('b')).toBe(false);
    expect(onCleared).toHaveBeenCalledWith(2);
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'c', ctrlKey: true }));
    expect(onCleared).toHaveBeenCalledTimes(1);
    uninstall();
  });
});
