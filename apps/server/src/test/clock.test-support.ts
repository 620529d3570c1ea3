import type { Clock } from '../clock';

/**
 * A clock that stands at `at` until the test moves `t`. Its sleep fails the test: services and jobs
 * never sleep, so one that tries is a bug.
 */
export function fixedClock(at: Date | number): Clock & { t: number } {
  const clock = {
    t: typeof at === 'number' ? at : at.getTime(),
    now: () => clock.t,
    sleep: (ms: number) => Promise.reject(new Error(`slept ${ms} ms on a fixed clock: services never sleep`)),
  };
  return clock;
}
