import { and, count, desc, eq, gte, lt, lte, sql, sum, type SQL } from 'drizzle-orm';
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

/**
 * A batch as the one jsonb parameter its statement takes, times as epoch milliseconds: a Date written as
 * JSON cost more than the rest of its row.
 */
export function systemLogBatchJson(rows: NewSystemLogRow[]): string {
  return JSON.stringify(
    rows.map((r) => ({
      ms: r.timestamp.getTime(),
      l: r.level,
      g: r.logger,
      m: r.message,
    })),
  );
}

/**
 * Stores lines and adds them to their hourly counts in one statement (atomic on its own): one round trip
 * per batch instead of a transaction's four, and no query builder on the path every log line takes.
 * The lines go as one jsonb parameter rather than five per line: building and binding a 500-line insert
 * would hold the event loop, and every request waiting behind it, for milliseconds.
 */
export async function insertSystemLogs(db: DbOrTx, rows: NewSystemLogRow[]): Promise<void> {
  if (rows.length === 0) return;
  const lines = systemLogBatchJson(rows);
  await db.execute(sql`with lines as (
      select to_timestamp(ms / 1000) as t, l, g, m from jsonb_to_recordset(${lines}::jsonb)
        as r(ms float8, l text, g text, m text)
    ), stored as (
      insert into ${systemLogs} (timestamp, level, logger, message) select t, l, g, m from lines
    )
    insert into ${systemLogCounts} (hour, level, logger, lines)
      select date_trunc('hour', t, 'UTC'), l, g, count(*) from lines group by 1, 2, 3
    on conflict (hour, level, logger) do update set lines = ${systemLogCounts}.lines + excluded.lines`);
}

/** The text as a LIKE pattern matching it anywhere, its wildcards taken literally. */
function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function conditions(filter: SystemLogFilter, withLevel: boolean): SQL[] {
  const where: SQL[] = [gte(systemLogs.timestamp, filter.from), lte(systemLogs.timestamp, filter.to)];
  if (withLevel && filter.level) where.push(eq(systemLogs.level, filter.level));
  if (filter.logger) where.push(eq(systemLogs.logger, filter.logger));
  // lower() on both sides rather than ILIKE: the trigram index is on lower(message), and PostgreSQL
  // estimates a LIKE on an indexed expression from its statistics.
  if (filter.search)
    where.push(sql`lower(${systemLogs.message}) like lower(${containsPattern(filter.search)})`);
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

/** Where an export's last page ended: the next one starts after this line, newest first. */
export interface SystemLogCursor {
  timestamp: Date;
  id: number;
}

/** The matching lines after `after` (newest first), `limit` of them: one page of an export. */
export async function exportSystemLogRows(
  db: DbOrTx,
  filter: SystemLogFilter,
  after: SystemLogCursor | null,
  limit: number,
): Promise<SystemLogRow[]> {
  const where = conditions(filter, true);
  if (after) where.push(sql`(${systemLogs.timestamp}, ${systemLogs.id}) < (${after.timestamp}, ${after.id})`);
  return db
    .select()
    .from(systemLogs)
    .where(and(...where))
    .orderBy(desc(systemLogs.timestamp), desc(systemLogs.id))
    .limit(limit);
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
 * Lines matching a text search per level, counted only up to `cap` + 1 lines: past the cap, which lines
 * were counted is the database's choice, and the counts are lower bounds.
 */
async function countSearchMatches(
  db: DbOrTx,
  filter: SystemLogFilter,
  withLevel: boolean,
  cap: number,
): Promise<{ counts: LevelCounts; capped: boolean }> {
  const found = db
    .select({ level: systemLogs.level })
    .from(systemLogs)
    .where(and(...conditions(filter, withLevel)))
    .limit(cap + 1)
    .as('found');
  const rows = await db.select({ level: found.level, n: count() }).from(found).groupBy(found.level);
  const counts = zeroCounts();
  addCounts(counts, rows);
  const capped = LOG_LEVELS.reduce((sum, l) => sum + counts[l], 0) > cap;
  for (const l of LOG_LEVELS) counts[l] = Math.min(counts[l], cap);
  return { counts, capped };
}

/**
 * The counts of a text search, each stopped at `cap`: per level under every filter but the level, the
 * total of those, and with a level filter that level's own count (counted apart, since the first lines
 * counted for the spread need not include it).
 */
export async function countSearchByLevel(
  db: DbOrTx,
  filter: SystemLogFilter,
  cap: number,
): Promise<{ counts: LevelCounts; total: number; levelTotal: number; capped: boolean }> {
  const [spread, ofLevel] = await Promise.all([
    countSearchMatches(db, filter, false, cap),
    filter.level ? countSearchMatches(db, filter, true, cap) : null,
  ]);
  const sum = LOG_LEVELS.reduce((s, l) => s + spread.counts[l], 0);
  const total = spread.capped ? cap : sum;
  return {
    counts: spread.counts,
    total,
    levelTotal: ofLevel && filter.level ? ofLevel.counts[filter.level] : total,
    capped: spread.capped || (ofLevel?.capped ?? false),
  };
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
