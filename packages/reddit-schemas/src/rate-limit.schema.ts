import { z } from 'zod';

/** Reddit sends its counters as strings, the remaining budget as a float ("544.0"). */
const ZHeaderNumber = z
  .string()
  .trim()
  .regex(/^\d+(\.\d+)?$/)
  .transform(Number);

/**
 * `X-Ratelimit-*` of an API answer: requests used and remaining in the current window (600 s now) and
 * the seconds until it resets. `Retry-After` comes with some 429s.
 */
export const ZRedditRateLimitHeaders = z.looseObject({
  'x-ratelimit-used': ZHeaderNumber.optional(),
  'x-ratelimit-remaining': ZHeaderNumber.optional(),
  'x-ratelimit-reset': ZHeaderNumber.optional(),
  'retry-after': ZHeaderNumber.optional(),
});

export interface TRedditRateLimit {
  used: number | null;
  remaining: number | null;
  resetSeconds: number | null;
  retryAfterSeconds: number | null;
}

/** Reads the rate-limit headers; a missing or malformed header is null, never an error. */
export function readRedditRateLimit(
  headers: Record<string, string | string[] | null | undefined>,
): TRedditRateLimit {
  const read = (name: keyof z.infer<typeof ZRedditRateLimitHeaders> & string) => {
    const raw = headers[name];
    const parsed = ZHeaderNumber.safeParse(Array.isArray(raw) ? raw[0] : raw);
    return parsed.success ? parsed.data : null;
  };
  return {
    used: read('x-ratelimit-used'),
    remaining: read('x-ratelimit-remaining'),
    resetSeconds: read('x-ratelimit-reset'),
    retryAfterSeconds: read('retry-after'),
  };
}
