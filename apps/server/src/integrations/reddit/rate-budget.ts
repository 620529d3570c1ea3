import { and, count, eq, gt, lte, min } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { Clock } from './clock';
import { RedditBudgetExhaustedError, type RedditHoldBackSource } from './reddit.errors';
import { redditRateLimits, redditRequestSlots } from './reddit.table';

/** Reddit's budget per OAuth client id. */
export const REDDIT_REQUESTS_PER_WINDOW = 100;
export const REDDIT_WINDOW_MS = 60_000;
/** Absorbs clock differences between processes. */
const CLOCK_MARGIN_MS = 500;
/**
 * A request in flight may reach Reddit at any moment until it is answered, so its slot is dated this far
 * ahead (it counts as just sent) until `settle` dates it to the answer. Longer than any request may take,
 * so a process that dies mid-request only holds its slot a little longer.
 */
const IN_FLIGHT_HOLD_MS = 120_000;
/** How long to wait before looking again when the window is full of requests still in flight. */
const IN_FLIGHT_RECHECK_MS = 250;

export interface BudgetOptions {
  limit?: number;
  windowMs?: number;
  marginMs?: number;
}

/**
 * Each OAuth client's request budget, kept in the database so every process shares it: a slot is a row,
 * taken under a row lock on the client's budget row and counted while it is in flight and for a window
 * after its answer; Retry-After / X-Ratelimit-Reset block the client until the instant Reddit named.
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
    this.windowMs = (options.windowMs ?? REDDIT_WINDOW_MS) + (options.marginMs ?? CLOCK_MARGIN_MS);
  }

  /** Waits until the client may send one request, and takes that slot; returns the slot's id. */
  async acquire(clientKey: string): Promise<number> {
    for (;;) {
      const taken = await this.tryTake(clientKey);
      if (taken.slotId !== null) return taken.slotId;
      await this.clock.sleep(taken.waitMs);
    }
  }

  /**
   * Takes a slot now or throws RedditBudgetExhaustedError with the instant one frees, for callers that
   * must not wait (jobs reschedule themselves for then).
   */
  async acquireNow(clientKey: string): Promise<number> {
    const taken = await this.tryTake(clientKey);
    if (taken.slotId !== null) return taken.slotId;
    throw new RedditBudgetExhaustedError(clientKey, taken.freeAtMs, taken.source);
  }

  /**
   * Dates a slot to the moment its answer came back. Reddit counted the request when it arrived, which is
   * no later than that, so the slot now lasts at least as long as Reddit counts the request.
   */
  async settle(slotId: number): Promise<void> {
    await this.db
      .update(redditRequestSlots)
      .set({ takenAt: new Date(Math.ceil(this.clock.now())) })
      .where(eq(redditRequestSlots.id, slotId));
  }

  /**
   * A slot, or how long to wait before trying again (and the instant that is), and whether the wait is
   * Reddit's (a block it asked for) or the budget's own.
   */
  private async tryTake(
    clientKey: string,
  ): Promise<
    { slotId: number } | { slotId: null; waitMs: number; freeAtMs: number; source: RedditHoldBackSource }
  > {
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
      // Read the time only once the lock is held: waiting for it must not backdate the slot.
      const now = this.clock.now();
      const blockedUntil = budget?.blockedUntil?.getTime() ?? 0;
      const later = (waitMs: number, source: RedditHoldBackSource = 'budget') => ({
        slotId: null,
        waitMs,
        freeAtMs: now + waitMs,
        source,
      });
      if (blockedUntil > now) return later(Math.ceil(blockedUntil - now), 'reddit');

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
        const [slot] = await tx
          .insert(redditRequestSlots)
          .values({ clientKey, takenAt: new Date(now + IN_FLIGHT_HOLD_MS) })
          .returning({ id: redditRequestSlots.id });
        return { slotId: slot!.id };
      }
      const oldest = usage?.oldest ? new Date(usage.oldest).getTime() : now;
      if (oldest > now) return later(IN_FLIGHT_RECHECK_MS);
      return later(Math.max(1, Math.ceil(oldest + this.windowMs - now) + 1));
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
        .set({ blockedUntil: until, updatedAt: new Date(this.clock.now()) })
        .where(eq(redditRateLimits.clientKey, clientKey));
    });
  }
}
