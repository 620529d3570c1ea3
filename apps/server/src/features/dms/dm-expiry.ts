import type { AppContext } from '../../context';
import type { DbOrTx } from '../../db/client';
import type { DmMessageRow } from './dms.table';
import { expireDmIfStale, expireDmsBatch, staleFailedDm } from './dms.repository';

const DAY_MS = 86_400_000;
/** DMs changed per statement, so expiry never holds long locks. */
export const EXPIRE_BATCH_SIZE = 1000;

/** Why a DM whose lead grew too old (DM_EXPIRY_DAYS) is not sent: a Send's refusal and the DM list's. */
export const DM_EXPIRED = 'This DM expired with its lead and can no longer be sent';

/**
 * Marks unsent DMs (draft, approved or queued) expired when their lead is older than DM_EXPIRY_DAYS: the person
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
export function expiryCutoff(ctx: AppContext, nowMs = ctx.clock.now()): Date {
  return new Date(nowMs - ctx.config.dms.expiryDays * DAY_MS);
}

/**
 * The same for one DM about to be sent, so no send goes out between two runs of expire-dms: when its lead
 * is too old, an unsent DM is expired now, and a failed one (a Send again) is refused as it is. A failed
 * DM stays failed, as expire-dms leaves it: the statistics count it as the failed send it was. The DM as
 * it is now when its lead is too old to send it, or null when it may still be sent.
 */
export function tooOldToSend(
  ctx: AppContext,
  db: DbOrTx,
  dm: Pick<DmMessageRow, 'id' | 'state'>,
): Promise<DmMessageRow | null> {
  const now = ctx.clock.now();
  const cutoff = expiryCutoff(ctx, now);
  return dm.state === 'failed'
    ? staleFailedDm(db, dm.id, cutoff)
    : expireDmIfStale(db, dm.id, cutoff, new Date(now));
}
