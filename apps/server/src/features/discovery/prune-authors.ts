import type { AppContext } from '../../context';
import {
  pruneAuthorsBatch,
  pruneUnansweredBatch,
  type AuthorCursor,
  type PruneBatch,
} from './discovery.repository';
import { ENRICH_WINDOW_MS } from './enrich-authors';

const DAY_MS = 86_400_000;
/** Rows looked at per statement, so pruning never holds long locks. */
export const AUTHOR_PRUNE_BATCH_SIZE = 1000;

export interface AuthorPruneReport {
  authors: number;
  unanswered: number;
}

/**
 * Forgets the shared author cache's profiles no lead names any more (the profile is read only for leads, and
 * leads go after LEAD_RETENTION_DAYS), and the notes of authors Reddit left unanswered that no recent lead
 * lists for a look-up again. Only profiles read before LEAD_RETENTION_DAYS are looked at: a newer one was
 * read for a lead that may still be there, and pruning stays proportional to what can go.
 */
export async function pruneAuthorCache(
  ctx: AppContext,
  batchSize = AUTHOR_PRUNE_BATCH_SIZE,
): Promise<AuthorPruneReport> {
  const now = ctx.clock.now();
  const readBefore = new Date(now - ctx.config.discovery.leadRetentionDays * DAY_MS);
  const enrichSince = new Date(now - ENRICH_WINDOW_MS);
  return {
    authors: await pruneAll((cursor) => pruneAuthorsBatch(ctx.db, readBefore, cursor, batchSize)),
    unanswered: await pruneAll((cursor) => pruneUnansweredBatch(ctx.db, enrichSince, cursor, batchSize)),
  };
}

async function pruneAll(batch: (cursor: AuthorCursor | null) => Promise<PruneBatch>): Promise<number> {
  let deleted = 0;
  let cursor: AuthorCursor | null = null;
  do {
    const done: PruneBatch = await batch(cursor);
    deleted += done.deleted;
    cursor = done.next;
  } while (cursor);
  return deleted;
}
