import { useEffect, useEffectEvent, useRef } from 'react';

/**
 * Calls `onChange` each time `value` moves from one known value to another: not for the first (read with
 * everything else on screen), nor while it is unknown (null).
 */
export function useOnChange(value: string | null, onChange: () => void): void {
  const last = useRef(value);
  const changed = useEffectEvent(onChange);
  useEffect(() => {
    if (value === null) return;
    const before = last.current;
    last.current = value;
    if (before !== null && before !== value) changed();
  }, [value]);
}
