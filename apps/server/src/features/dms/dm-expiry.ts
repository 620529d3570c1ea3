import type { AppContext } from '../../context';
import type { DbOrTx } from '../../db/client';
import type { DmMessageRow } from './dms.table';
import { expireDmIfStale, expireDmsBatch } from './dms.repository';

const DAY_MS = 86_400_000;
/** DMs changed per statement, so expiry never holds long locks. */
export const EXPIRE_BATCH_SIZE = 1000;

/**
 * Marks unsent DMs (draft or approved) expired when their lead is older than DM_EXPIRY_DAYS: the person
 * wrote it too long ago for a message about it to make sense. Returns how many expired.
 */
export async function expireStaleDms(ctx: AppContext, batchSize = EXPIRE_BATCH_SIZE): Promise<number> {
  const now = ctx.clock.now();
  const cutoff = expiryCutoff(ctx, now);
  let expired = 0;
  for (;;) {
    const n = await expireDmsBatch(ctx.db, cutoff, new Date(now), batchSize);
    expired += n;
    if (n < batchSize) return expired;
  }
}

/** Leads from before this instant are too old for a DM about them. */
function expiryCutoff(ctx: AppContext, nowMs: number): Date {
  return new Date(nowMs - ctx.config.dms.expiryDays * DAY_MS);
}

/**
 * The same for one DM about to be sent: expired now when its lead is too old, so no send goes out between
 * two runs of expire-dms. The expired DM, or null when it may still be sent.
 */
export function expireIfStale(ctx: AppContext, db: DbOrTx, dmId: string): Promise<DmMessageRow | null> {
  const now = ctx.clock.now();
  return expireDmIfStale(db, dmId, expiryCutoff(ctx, now), new Date(now));
}
