import { and, asc, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { TPageQuery } from '@threadreach/contract';
import type { DbOrTx as Db } from '../../db/client';
import { keywords } from '../keywords/keywords.table';
import { productInfos, type ProductInfoRow } from '../product-info/product-info.table';
import { projectRuns } from '../projects/project-runs.table';
import { projects } from '../projects/projects.table';
import { subreddits, type SubredditRow } from './subreddits.table';

/** Approved first, then the most relevant, then by name. */
const listOrder = [
  desc(subreddits.approved),
  desc(subreddits.relevanceScore),
  asc(sql`lower(${subreddits.name})`),
];

export interface NewSubreddit {
  name: string;
  description: string;
  estimatedMembers: number;
  relevanceScore: number;
  source: 'generated' | 'manual';
  approved: boolean;
  approvedAt: Date | null;
}

/** Serialises writes to a project's step 3 (a bulk add and an approval at once) until the transaction ends. */
export async function lockProjectSubreddits(tx: Db, projectId: string): Promise<void> {
  await tx.execute(sql`select 1 from ${projects} where ${projects.id} = ${projectId} for update`);
}

export async function listSubredditPage(
  db: Db,
  projectId: string,
  page: TPageQuery,
): Promise<{ rows: SubredditRow[]; total: number }> {
  const where = eq(subreddits.projectId, projectId);
  const [rows, totals] = await Promise.all([
    db
      .select()
      .from(subreddits)
      .where(where)
      .orderBy(...listOrder)
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: count() }).from(subreddits).where(where),
  ]);
  return { rows, total: totals[0]?.n ?? 0 };
}

export async function listAllSubreddits(db: Db, projectId: string): Promise<SubredditRow[]> {
  return db
    .select()
    .from(subreddits)
    .where(eq(subreddits.projectId, projectId))
    .orderBy(...listOrder);
}

export async function countSubreddits(db: Db, projectId: string): Promise<number> {
  const rows = await db.select({ n: count() }).from(subreddits).where(eq(subreddits.projectId, projectId));
  return rows[0]?.n ?? 0;
}

/** Adds subreddits; one already listed under any spelling is skipped. Returns the rows written. */
export async function insertSubreddits(
  db: Db,
  projectId: string,
  values: NewSubreddit[],
): Promise<SubredditRow[]> {
  if (values.length === 0) return [];
  return db
    .insert(subreddits)
    .values(values.map((v) => ({ ...v, projectId })))
    .onConflictDoNothing()
    .returning();
}

/** Approves the given subreddits; only those not approved yet get `approved_at`. */
export async function approveSubredditRows(db: Db, projectId: string, ids: string[], now: Date) {
  if (ids.length === 0) return;
  await db
    .update(subreddits)
    .set({ approved: true, approvedAt: now })
    .where(
      and(eq(subreddits.projectId, projectId), inArray(subreddits.id, ids), eq(subreddits.approved, false)),
    );
}

export async function unapproveSubredditRows(db: Db, projectId: string, ids: string[]) {
  if (ids.length === 0) return;
  await db
    .update(subreddits)
    .set({ approved: false, approvedAt: null })
    .where(and(eq(subreddits.projectId, projectId), inArray(subreddits.id, ids)));
}

/** The approved keywords the suggestions are searched for: product ones first, each group best first. */
export async function approvedKeywordsOf(
  db: Db,
  projectId: string,
): Promise<{ keyword: string; type: string }[]> {
  return db
    .select({ keyword: keywords.keyword, type: keywords.type })
    .from(keywords)
    .where(and(eq(keywords.projectId, projectId), eq(keywords.approved, true)))
    .orderBy(
      sql`case when ${keywords.type} = 'product' then 0 else 1 end`,
      asc(keywords.createdAt),
      asc(sql`lower(${keywords.keyword})`),
    );
}

export async function hasApprovedKeywords(db: Db, projectId: string): Promise<boolean> {
  const rows = await db
    .select({ id: keywords.id })
    .from(keywords)
    .where(and(eq(keywords.projectId, projectId), eq(keywords.approved, true)))
    .limit(1);
  return rows.length > 0;
}

export async function findProductInfoRow(db: Db, projectId: string): Promise<ProductInfoRow | null> {
  const rows = await db.select().from(productInfos).where(eq(productInfos.projectId, projectId)).limit(1);
  return rows[0] ?? null;
}

/**
 * Counts one more reschedule of the project's running subreddit generation (kept in the run's options,
 * which each start resets) and returns how many there have been.
 */
export async function countGenerationReschedule(db: Db, projectId: string): Promise<number> {
  const rows = await db
    .update(projectRuns)
    .set({
      options: sql`jsonb_set(${projectRuns.options}, '{reschedules}', to_jsonb(coalesce((${projectRuns.options}->>'reschedules')::int, 0) + 1))`,
    })
    .where(
      and(
        eq(projectRuns.projectId, projectId),
        eq(projectRuns.kind, 'subreddits'),
        eq(projectRuns.status, 'running'),
      ),
    )
    .returning({ options: projectRuns.options });
  return Number(rows[0]?.options.reschedules ?? 0);
}
