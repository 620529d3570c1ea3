import { Text } from '@mantine/core';

interface TCharCounterProps {
  length: number;
  min: number;
  max: number;
}

/** 'n/max', red while below the minimum or above the maximum. */
export function CharCounter({ length, min, max }: TCharCounterProps) {
  const outOfRange = (min > 1 && length < min) || length > max;
  return (
    <Text size="xs" c={outOfRange ? 'red' : 'dimmed'} data-out-of-range={outOfRange} aria-live="polite">
      {length}/{max}
    </Text>
  );
}
