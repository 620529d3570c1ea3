import type { AppContext } from '../../context';
import { expireDmsBatch } from './dms.repository';

const DAY_MS = 86_400_000;
/** DMs changed per statement, so expiry never holds long locks. */
export const EXPIRE_BATCH_SIZE = 1000;

/**
 * Marks unsent DMs (draft or approved) expired when their lead is older than DM_EXPIRY_DAYS: the person
 * wrote it too long ago for a message about it to make sense. Returns how many expired.
 */
export async function expireStaleDms(ctx: AppContext, batchSize = EXPIRE_BATCH_SIZE): Promise<number> {
  const now = ctx.clock.now();
  const cutoff = new Date(now - ctx.config.dms.expiryDays * DAY_MS);
  let expired = 0;
  for (;;) {
    const n = await expireDmsBatch(ctx.db, cutoff, new Date(now), batchSize);
    expired += n;
    if (n < batchSize) return expired;
  }
}
