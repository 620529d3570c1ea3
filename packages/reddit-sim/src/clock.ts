export interface Clock {
  now(): number;
  /** Only the simulator's own clock can be moved; an injected one belongs to the caller. */
  readonly internal: boolean;
  advance(ms: number): void;
}

export function createClock(now?: () => number, startTime?: number): Clock {
  if (now) {
    return {
      now,
      internal: false,
      advance() {
        throw new Error('advance() needs the simulator clock; this simulator was given its own `now`');
      },
    };
  }
  let offset = startTime === undefined ? 0 : startTime - Date.now();
  return {
    now: () => Date.now() + offset,
    internal: true,
    advance(ms: number) {
      if (!Number.isFinite(ms) || ms < 0) throw new Error('advance(ms) needs a non-negative number');
      offset += ms;
    },
  };
}
