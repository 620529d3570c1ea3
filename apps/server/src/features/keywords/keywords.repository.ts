import { and, asc, count, eq, sql } from 'drizzle-orm';
import type { TDiscoveryFilters, TPageQuery } from '@threadreach/contract';
import type { DbOrTx as Db } from '../../db/client';
import { productInfos, type ProductInfoRow } from '../product-info/product-info.table';
import { projects } from '../projects/projects.table';
import { subreddits } from '../subreddits/subreddits.table';
import { discoveryFilters, keywords, type DiscoveryFiltersRow, type KeywordRow } from './keywords.table';

/** Product keywords first, then ICP ones; each group in the order it was written (best first). */
const listOrder = [
  sql`case when ${keywords.type} = 'product' then 0 else 1 end`,
  asc(keywords.createdAt),
  asc(sql`lower(${keywords.keyword})`),
];

export interface KeywordValues {
  /** Kept when the row already exists, so step 2's links and order stay stable. */
  id?: string;
  keyword: string;
  type: string;
  approved: boolean;
  createdAt: Date;
}

/**
 * Serialises the writes of a project's step 2 (a generation and a save at the same moment) by locking
 * the project row until the transaction ends.
 */
export async function lockProjectKeywords(tx: Db, projectId: string): Promise<void> {
  await tx.execute(sql`select 1 from ${projects} where ${projects.id} = ${projectId} for update`);
}

export async function listKeywordPage(
  db: Db,
  projectId: string,
  page: TPageQuery,
): Promise<{ rows: KeywordRow[]; total: number }> {
  const where = eq(keywords.projectId, projectId);
  const [rows, totals] = await Promise.all([
    db
      .select()
      .from(keywords)
      .where(where)
      .orderBy(...listOrder)
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: count() }).from(keywords).where(where),
  ]);
  return { rows, total: totals[0]?.n ?? 0 };
}

export async function listAllKeywords(db: Db, projectId: string): Promise<KeywordRow[]> {
  return db
    .select()
    .from(keywords)
    .where(eq(keywords.projectId, projectId))
    .orderBy(...listOrder);
}

export async function deleteUnapprovedKeywords(db: Db, projectId: string): Promise<void> {
  await db.delete(keywords).where(and(eq(keywords.projectId, projectId), eq(keywords.approved, false)));
}

export async function deleteAllKeywords(db: Db, projectId: string): Promise<void> {
  await db.delete(keywords).where(eq(keywords.projectId, projectId));
}

export async function insertKeywords(db: Db, projectId: string, values: KeywordValues[]): Promise<void> {
  if (values.length === 0) return;
  await db.insert(keywords).values(values.map((v) => ({ ...v, projectId })));
}

export async function findFilters(db: Db, projectId: string): Promise<DiscoveryFiltersRow | null> {
  const rows = await db
    .select()
    .from(discoveryFilters)
    .where(eq(discoveryFilters.projectId, projectId))
    .limit(1);
  return rows[0] ?? null;
}

/** Writes the filters given; the ones left out keep their saved value. */
export async function upsertFilters(
  db: Db,
  projectId: string,
  filters: Partial<TDiscoveryFilters>,
  now: Date,
): Promise<DiscoveryFiltersRow> {
  const values = {
    ...(filters.negative_keywords ? { negativeKeywords: filters.negative_keywords } : {}),
    ...(filters.excluded_subreddits ? { excludedSubreddits: filters.excluded_subreddits } : {}),
    ...(filters.excluded_authors ? { excludedAuthors: filters.excluded_authors } : {}),
    updatedAt: now,
  };
  const rows = await db
    .insert(discoveryFilters)
    .values({ projectId, ...values })
    .onConflictDoUpdate({ target: discoveryFilters.projectId, set: values })
    .returning();
  return rows[0]!;
}

export async function findProductInfoRow(db: Db, projectId: string): Promise<ProductInfoRow | null> {
  const rows = await db.select().from(productInfos).where(eq(productInfos.projectId, projectId)).limit(1);
  return rows[0] ?? null;
}

export async function countProjectSubreddits(db: Db, projectId: string): Promise<number> {
  const rows = await db.select({ n: count() }).from(subreddits).where(eq(subreddits.projectId, projectId));
  return rows[0]?.n ?? 0;
}
