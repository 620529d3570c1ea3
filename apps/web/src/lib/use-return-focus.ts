import { useLayoutEffect, useRef } from 'react';

/**
 * Puts focus back on the element that had it when `opened` turned true, once `opened` turns false and
 * focus was left nowhere. For dialogs mounted only while open (loaded the first time they open), which
 * Mantine's own focus return never sees open.
 */
export function useReturnFocus(opened: boolean): void {
  const opener = useRef<HTMLElement | null>(null);
  useLayoutEffect(() => {
    if (opened) {
      opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      return;
    }
    const target = opener.current;
    opener.current = null;
    if (!target) return;
    const timer = window.setTimeout(() => {
      const active = document.activeElement;
      if ((active === null || active === document.body) && target.isConnected) {
        target.focus({ preventScroll: true });
      }
    }, 0);
    return () => window.clearTimeout(timer);
  }, [opened]);
}
