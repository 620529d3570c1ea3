import { and, count, eq, gt, lte, min } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { Clock } from './clock';
import { redditRateLimits, redditRequestSlots } from './reddit.table';

/** Reddit's budget per OAuth client id. */
export const REDDIT_REQUESTS_PER_WINDOW = 100;
export const REDDIT_WINDOW_MS = 60_000;
/** Requests reach Reddit a little after their slot is taken; the window is widened to absorb that. */
const ARRIVAL_MARGIN_MS = 1_000;

export interface BudgetOptions {
  limit?: number;
  windowMs?: number;
  marginMs?: number;
}

/**
 * Each OAuth client's request budget, kept in the database so every process shares it: a slot is a row,
 * taken under a row lock on the client's budget row, and Retry-After / X-Ratelimit-Reset block the client
 * until the instant Reddit named.
 */
export class RequestBudget {
  private readonly limit: number;
  private readonly windowMs: number;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    options: BudgetOptions = {},
  ) {
    this.limit = options.limit ?? REDDIT_REQUESTS_PER_WINDOW;
    this.windowMs = (options.windowMs ?? REDDIT_WINDOW_MS) + (options.marginMs ?? ARRIVAL_MARGIN_MS);
  }

  /** Waits until the client may send one request, and takes that slot. */
  async acquire(clientKey: string): Promise<void> {
    for (;;) {
      const waitMs = await this.tryTake(clientKey);
      if (waitMs <= 0) return;
      await this.clock.sleep(waitMs);
    }
  }

  /** 0 when a slot was taken, otherwise how long to wait before trying again. */
  private async tryTake(clientKey: string): Promise<number> {
    const now = this.clock.now();
    return this.db.transaction(async (tx) => {
      let [budget] = await tx
        .select({ blockedUntil: redditRateLimits.blockedUntil })
        .from(redditRateLimits)
        .where(eq(redditRateLimits.clientKey, clientKey))
        .for('update');
      if (!budget) {
        await tx.insert(redditRateLimits).values({ clientKey }).onConflictDoNothing();
        [budget] = await tx
          .select({ blockedUntil: redditRateLimits.blockedUntil })
          .from(redditRateLimits)
          .where(eq(redditRateLimits.clientKey, clientKey))
          .for('update');
      }
      const blockedUntil = budget?.blockedUntil?.getTime() ?? 0;
      if (blockedUntil > now) return Math.ceil(blockedUntil - now);

      const windowStart = new Date(now - this.windowMs);
      await tx
        .delete(redditRequestSlots)
        .where(
          and(eq(redditRequestSlots.clientKey, clientKey), lte(redditRequestSlots.takenAt, windowStart)),
        );
      const [usage] = await tx
        .select({ used: count(), oldest: min(redditRequestSlots.takenAt) })
        .from(redditRequestSlots)
        .where(and(eq(redditRequestSlots.clientKey, clientKey), gt(redditRequestSlots.takenAt, windowStart)));
      if ((usage?.used ?? 0) < this.limit) {
        await tx.insert(redditRequestSlots).values({ clientKey, takenAt: new Date(now) });
        return 0;
      }
      const oldest = usage?.oldest ? new Date(usage.oldest).getTime() : now;
      return Math.max(1, Math.ceil(oldest + this.windowMs - now) + 1);
    });
  }

  /** No request for this client before `untilMs` (from Retry-After or an exhausted X-Ratelimit-Remaining). */
  async blockUntil(clientKey: string, untilMs: number): Promise<void> {
    // Timestamps keep milliseconds: round up so the stored instant is never early.
    const until = new Date(Math.ceil(untilMs));
    await this.db.transaction(async (tx) => {
      await tx.insert(redditRateLimits).values({ clientKey }).onConflictDoNothing();
      const [row] = await tx
        .select({ blockedUntil: redditRateLimits.blockedUntil })
        .from(redditRateLimits)
        .where(eq(redditRateLimits.clientKey, clientKey))
        .for('update');
      if (row?.blockedUntil && row.blockedUntil >= until) return;
      await tx
        .update(redditRateLimits)
        .set({ blockedUntil: until, updatedAt: new Date() })
        .where(eq(redditRateLimits.clientKey, clientKey));
    });
  }

  /** Requests left in the current window (for choosing the least busy credential). */
  async remaining(clientKey: string): Promise<number> {
    const now = this.clock.now();
    const [usage] = await this.db
      .select({ used: count() })
      .from(redditRequestSlots)
      .where(
        and(
          eq(redditRequestSlots.clientKey, clientKey),
          gt(redditRequestSlots.takenAt, new Date(now - this.windowMs)),
        ),
      );
    return Math.max(0, this.limit - (usage?.used ?? 0));
  }
}
