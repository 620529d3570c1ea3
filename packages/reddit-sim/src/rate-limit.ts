/** Reddit's budget per OAuth client id: 1000 requests in each 600 s window (100 a minute on average). */
export const RATE_LIMIT_BUDGET = 1000;
export const RATE_LIMIT_WINDOW_MS = 600_000;

export interface RateLimitOptions {
  /** Requests per window; default 1000. */
  requests?: number;
  /** Window length; default 600 s. Windows start at multiples of it on the clock, as Reddit's do. */
  windowSeconds?: number;
}

export interface RateDecision {
  allowed: boolean;
  headers: Record<string, string>;
}

/**
 * Fixed windows per OAuth client id, like Reddit's: the count starts again when the window turns.
 * Headers as Reddit sends them: `X-Ratelimit-Used` a whole number, `X-Ratelimit-Remaining` a float
 * string ("544.0"), `X-Ratelimit-Reset` the seconds until the window turns. Refused requests do not
 * use budget.
 */
export class RateLimiter {
  private readonly windows = new Map<string, { start: number; used: number }>();
  private readonly budget: number;
  private readonly windowMs: number;

  constructor(options: RateLimitOptions = {}) {
    this.budget = options.requests ?? RATE_LIMIT_BUDGET;
    this.windowMs = (options.windowSeconds ?? RATE_LIMIT_WINDOW_MS / 1000) * 1000;
  }

  take(clientId: string, now: number): RateDecision {
    const start = Math.floor(now / this.windowMs) * this.windowMs;
    let window = this.windows.get(clientId);
    if (!window || window.start !== start) {
      window = { start, used: 0 };
      this.windows.set(clientId, window);
    }
    const allowed = window.used < this.budget;
    if (allowed) window.used++;
    // Rounded up: a client that waits this long is never early.
    const reset = Math.max(1, Math.ceil((start + this.windowMs - now) / 1000));
    return {
      allowed,
      headers: {
        'x-ratelimit-used': String(window.used),
        'x-ratelimit-remaining': (this.budget - window.used).toFixed(1),
        'x-ratelimit-reset': String(reset),
      },
    };
  }

  reset(): void {
    this.windows.clear();
  }
}
