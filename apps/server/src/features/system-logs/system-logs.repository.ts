import { and, count, desc, eq, gte, ilike, inArray, lt, lte, sql, type SQL } from 'drizzle-orm';
import { LOG_LEVELS, type TLogLevel, type TLoggerName } from '@threadreach/contract';
import type { DbOrTx } from '../../db/client';
import { systemLogs, type NewSystemLogRow, type SystemLogRow } from './system-logs.table';

export interface SystemLogFilter {
  from: Date;
  to: Date;
  level?: TLogLevel | undefined;
  logger?: TLoggerName | undefined;
  search?: string | undefined;
}

export async function insertSystemLogs(db: DbOrTx, rows: NewSystemLogRow[]): Promise<void> {
  if (rows.length > 0) await db.insert(systemLogs).values(rows);
}

/** The text as a LIKE pattern matching it anywhere, its wildcards taken literally. */
function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function conditions(filter: SystemLogFilter, withLevel: boolean): SQL[] {
  const where: SQL[] = [gte(systemLogs.timestamp, filter.from), lte(systemLogs.timestamp, filter.to)];
  if (withLevel && filter.level) where.push(eq(systemLogs.level, filter.level));
  if (filter.logger) where.push(eq(systemLogs.logger, filter.logger));
  if (filter.search) where.push(ilike(systemLogs.message, containsPattern(filter.search)));
  return where;
}

/** One page, newest first. */
export async function listSystemLogRows(
  db: DbOrTx,
  filter: SystemLogFilter,
  page: { limit: number; offset: number },
): Promise<SystemLogRow[]> {
  return db
    .select()
    .from(systemLogs)
    .where(and(...conditions(filter, true)))
    .orderBy(desc(systemLogs.timestamp), desc(systemLogs.id))
    .limit(page.limit)
    .offset(page.offset);
}

/** Lines per level under every filter but the level. */
export async function countSystemLogsByLevel(
  db: DbOrTx,
  filter: SystemLogFilter,
): Promise<Record<TLogLevel, number>> {
  const rows = await db
    .select({ level: systemLogs.level, n: count() })
    .from(systemLogs)
    .where(and(...conditions(filter, false)))
    .groupBy(systemLogs.level);
  const counts = Object.fromEntries(LOG_LEVELS.map((l) => [l, 0])) as Record<TLogLevel, number>;
  for (const row of rows) if (row.level in counts) counts[row.level] = Number(row.n);
  return counts;
}

/** Deletes up to `batch` lines older than `before`; returns how many went. */
export async function deleteSystemLogsBefore(db: DbOrTx, before: Date, batch: number): Promise<number> {
  const oldest = db
    .select({ id: systemLogs.id })
    .from(systemLogs)
    .where(lt(systemLogs.timestamp, before))
    .limit(batch);
  const deleted = await db
    .delete(systemLogs)
    .where(inArray(systemLogs.id, oldest))
    .returning({ id: systemLogs.id });
  return deleted.length;
}

/** Lines stored, for tests and the benchmark. */
export async function countSystemLogs(db: DbOrTx): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(systemLogs);
  return row?.n ?? 0;
}
