/**
 * The server's one source of time. Services and jobs read `now()` from `ctx.clock`; tests hand in a
 * fixed or virtual clock. `sleep` is only for an integration's interactive wait (a person's own
 * request to Reddit); services and jobs never sleep, they reschedule.
 */
export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms))),
};
