export const RATE_LIMIT_BUDGET = 100;
export const RATE_LIMIT_WINDOW_MS = 60_000;

export interface RateDecision {
  allowed: boolean;
  headers: Record<string, string>;
}

/** 100 requests per rolling 60 s per OAuth client id; refused requests do not use up budget. */
export class RateLimiter {
  private readonly hits = new Map<string, number[]>();

  constructor(
    private readonly budget = RATE_LIMIT_BUDGET,
    private readonly windowMs = RATE_LIMIT_WINDOW_MS,
  ) {}

  take(clientId: string, now: number): RateDecision {
    const list = (this.hits.get(clientId) ?? []).filter((t) => t > now - this.windowMs);
    this.hits.set(clientId, list);
    const allowed = list.length < this.budget;
    if (allowed) list.push(now);
    const oldest = list[0] ?? now;
    const reset = Math.max(0, Math.ceil((oldest + this.windowMs - now) / 1000));
    return {
      allowed,
      headers: {
        'x-ratelimit-used': String(list.length),
        'x-ratelimit-remaining': String(Math.max(0, this.budget - list.length)),
        'x-ratelimit-reset': String(reset),
      },
    };
  }

  reset(): void {
    this.hits.clear();
  }
}
