import { and, count, desc, eq, gte, ilike, lt, lte, sql, sum, type SQL } from 'drizzle-orm';
import { LOG_LEVELS, type TLogLevel, type TLoggerName } from '@threadreach/contract';
import type { DbOrTx } from '../../db/client';
import { systemLogCounts, systemLogs, type NewSystemLogRow, type SystemLogRow } from './system-logs.table';

const HOUR_MS = 3_600_000;

export interface SystemLogFilter {
  from: Date;
  to: Date;
  level?: TLogLevel | undefined;
  logger?: TLoggerName | undefined;
  search?: string | undefined;
}

/** Stores lines and adds them to their hourly counts, in one transaction. */
export async function insertSystemLogs(db: DbOrTx, rows: NewSystemLogRow[]): Promise<void> {
  if (rows.length === 0) return;
  const hourly = new Map<string, { hour: Date; level: TLogLevel; logger: string; lines: number }>();
  for (const row of rows) {
    const hour = new Date(Math.floor(new Date(row.timestamp).getTime() / HOUR_MS) * HOUR_MS);
    const key = `${hour.getTime()}|${row.level}|${row.logger}`;
    const bucket = hourly.get(key);
    if (bucket) bucket.lines++;
    else hourly.set(key, { hour, level: row.level, logger: row.logger, lines: 1 });
  }
  await db.transaction(async (tx) => {
    await tx.insert(systemLogs).values(rows);
    await tx
      .insert(systemLogCounts)
      .values([...hourly.values()])
      .onConflictDoUpdate({
        target: [systemLogCounts.hour, systemLogCounts.level, systemLogCounts.logger],
        set: { lines: sql`${systemLogCounts.lines} + excluded.lines` },
      });
  });
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

type LevelCounts = Record<TLogLevel, number>;

function zeroCounts(): LevelCounts {
  return Object.fromEntries(LOG_LEVELS.map((l) => [l, 0])) as LevelCounts;
}

function addCounts(into: LevelCounts, rows: { level: TLogLevel; n: number | string | null }[]) {
  for (const row of rows) if (row.level in into) into[row.level] += Number(row.n ?? 0);
}

/** Counts the lines themselves, per level. */
async function countLines(db: DbOrTx, filter: SystemLogFilter, into: LevelCounts) {
  const rows = await db
    .select({ level: systemLogs.level, n: count() })
    .from(systemLogs)
    .where(and(...conditions(filter, false)))
    .groupBy(systemLogs.level);
  addCounts(into, rows);
}

/**
 * Lines per level under every filter but the level. Without a text search, the whole hours inside the
 * range come from the hourly counts and only the partial hours at its ends are counted line by line.
 */
export async function countSystemLogsByLevel(db: DbOrTx, filter: SystemLogFilter): Promise<LevelCounts> {
  const counts = zeroCounts();
  const firstHour = Math.ceil(filter.from.getTime() / HOUR_MS) * HOUR_MS;
  const endHour = Math.floor(filter.to.getTime() / HOUR_MS) * HOUR_MS;
  if (filter.search || firstHour >= endHour) {
    await countLines(db, filter, counts);
    return counts;
  }
  const hourly = [
    gte(systemLogCounts.hour, new Date(firstHour)),
    lt(systemLogCounts.hour, new Date(endHour)),
  ];
  if (filter.logger) hourly.push(eq(systemLogCounts.logger, filter.logger));
  const [whole] = await Promise.all([
    db
      .select({ level: systemLogCounts.level, n: sum(systemLogCounts.lines) })
      .from(systemLogCounts)
      .where(and(...hourly))
      .groupBy(systemLogCounts.level),
    // The ends: [from, first whole hour) and [end of the last whole hour, to].
    countLines(db, { ...filter, to: new Date(firstHour - 1) }, counts),
    countLines(db, { ...filter, from: new Date(endHour) }, counts),
  ]);
  addCounts(counts, whole);
  return counts;
}

/**
 * Deletes the lines before `hour` (a whole hour, so hourly counts go whole) with their counts, together;
 * returns how many lines went.
 */
export async function deleteSystemLogsBefore(db: DbOrTx, hour: Date): Promise<number> {
  if (hour.getTime() % HOUR_MS !== 0) throw new Error('system logs are pruned by whole hours');
  return db.transaction(async (tx) => {
    await tx.delete(systemLogCounts).where(lt(systemLogCounts.hour, hour));
    const deleted = await tx.execute<{ n: number }>(
      sql`with gone as (delete from ${systemLogs} where ${systemLogs.timestamp} < ${hour} returning 1)
          select count(*)::int as n from gone`,
    );
    return Number(deleted.rows[0]?.n ?? 0);
  });
}

/** Lines stored, for tests and the benchmark. */
export async function countSystemLogs(db: DbOrTx): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(systemLogs);
  return row?.n ?? 0;
}
