import type { AppContext } from '../../context';
import { pruneLeadsBatch, pruneOrphanItemsBatch, type ItemCursor } from './retention.repository';

const DAY_MS = 86_400_000;
/** Rows deleted per transaction, so pruning never holds long locks. */
export const PRUNE_BATCH_SIZE = 1000;

export interface PruneReport {
  leads: number;
  profiles: number;
  items: number;
}

/**
 * Forgets leads found more than LEAD_RETENTION_DAYS ago (dismissed ones too), the profiles left with no
 * lead, and the Reddit items no lead points at any more (an item discovery read within the last day is
 * left for the next run, so a match being written now keeps its item).
 */
export async function pruneExpiredLeads(ctx: AppContext, batchSize = PRUNE_BATCH_SIZE): Promise<PruneReport> {
  const now = ctx.clock.now();
  const cutoff = new Date(now - ctx.config.discovery.leadRetentionDays * DAY_MS);
  const report: PruneReport = { leads: 0, profiles: 0, items: 0 };
  for (;;) {
    const batch = await pruneLeadsBatch(ctx.db, cutoff, batchSize);
    report.leads += batch.leads;
    report.profiles += batch.profiles;
    if (batch.leads < batchSize) break;
  }
  const quietSince = new Date(now - DAY_MS);
  let cursor: ItemCursor | null = null;
  do {
    const batch = await pruneOrphanItemsBatch(ctx.db, cutoff, quietSince, cursor, batchSize);
    report.items += batch.deleted;
    cursor = batch.next;
  } while (cursor);
  return report;
}
