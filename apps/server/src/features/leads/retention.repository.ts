import { and, asc, eq, gt, inArray, lt, notExists, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { redditItems } from '../discovery/discovery.table';
import { leads, profiles } from './leads.table';

/**
 * Deletes up to `limit` leads found before `cutoff` (dismissed ones too), and in the same transaction
 * the profiles of theirs that no lead is left for.
 */
export async function pruneLeadsBatch(
  db: DbOrTx,
  cutoff: Date,
  limit: number,
): Promise<{ leads: number; profiles: number }> {
  return db.transaction(async (tx) => {
    const oldest = tx
      .select({ id: leads.id })
      .from(leads)
      .where(lt(leads.foundAt, cutoff))
      .orderBy(asc(leads.foundAt))
      .limit(limit);
    const deleted = await tx
      .delete(leads)
      .where(inArray(leads.id, oldest))
      .returning({ projectId: leads.projectId, author: leads.author });
    const people = [...new Map(deleted.map((d) => [`${d.projectId}\u0000${d.author}`, d])).values()];
    if (people.length === 0) return { leads: 0, profiles: 0 };
    const pairs = sql.join(
      people.map((p) => sql`(${p.projectId}::uuid, ${p.author})`),
      sql`, `,
    );
    const gone = await tx
      .delete(profiles)
      .where(
        and(
          sql`(${profiles.projectId}, ${profiles.redditUsername}) in (${pairs})`,
          notExists(
            tx
              .select({ one: sql`1` })
              .from(leads)
              .where(and(eq(leads.projectId, profiles.projectId), eq(leads.author, profiles.redditUsername))),
          ),
        ),
      )
      .returning({ id: profiles.id });
    return { leads: deleted.length, profiles: gone.length };
  });
}

export interface ItemCursor {
  createdAt: Date;
  name: string;
}

/**
 * Looks at up to `limit` items written on Reddit before `cutoff` (after `cursor`, oldest first) and deletes
 * those no lead points at any more and that discovery has not read since `quietSince`. Returns how many
 * went and where the next batch starts, or null after the last.
 */
export async function pruneOrphanItemsBatch(
  db: DbOrTx,
  cutoff: Date,
  quietSince: Date,
  cursor: ItemCursor | null,
  limit: number,
): Promise<{ deleted: number; next: ItemCursor | null }> {
  const after = cursor
    ? or(
        gt(redditItems.createdAt, cursor.createdAt),
        and(eq(redditItems.createdAt, cursor.createdAt), gt(redditItems.name, cursor.name)),
      )
    : undefined;
  const candidates = await db
    .select({ name: redditItems.name, createdAt: redditItems.createdAt })
    .from(redditItems)
    .where(and(lt(redditItems.createdAt, cutoff), after))
    .orderBy(asc(redditItems.createdAt), asc(redditItems.name))
    .limit(limit);
  if (candidates.length === 0) return { deleted: 0, next: null };
  const last = candidates[candidates.length - 1]!;
  const next = candidates.length < limit ? null : { createdAt: last.createdAt, name: last.name };
  try {
    const deleted = await db
      .delete(redditItems)
      .where(
        and(
          inArray(
            redditItems.name,
            candidates.map((c) => c.name),
          ),
          lt(redditItems.fetchedAt, quietSince),
          notExists(
            db
              .select({ one: sql`1` })
              .from(leads)
              .where(eq(leads.itemName, redditItems.name)),
          ),
        ),
      )
      .returning({ name: redditItems.name });
    return { deleted: deleted.length, next };
  } catch (error) {
    // Discovery matched one of them again just now: the next run looks at these again.
    if (foreignKeyViolation(error)) return { deleted: 0, next };
    throw error;
  }
}

function foreignKeyViolation(error: unknown): boolean {
  const e = error as { code?: string; cause?: { code?: string } };
  return (e.code ?? e.cause?.code) === '23503';
}
