import {
  LOG_DEFAULT_PERIOD,
  LOG_LEVELS,
  LOG_PERIOD_MS,
  LOG_SEARCH_COUNT_CAP,
  LOGGER_OF_FILTER,
  shownLoggerName,
  type TLogStats,
  type TSystemLogsResponse,
  type ZSystemLogsExportQuery,
  type ZSystemLogsQuery,
} from '@threadreach/contract';
import type { z } from 'zod';
import type { AppContext } from '../../context';
import { csvRecord } from '../../http/csv';
import {
  countSearchByLevel,
  countSystemLogsByLevel,
  deleteSystemLogsBefore,
  exportSystemLogRows,
  listSystemLogRows,
  type SystemLogCursor,
  type SystemLogFilter,
} from './system-logs.repository';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

type TQuery = z.output<typeof ZSystemLogsQuery>;
type TExportQuery = z.output<typeof ZSystemLogsExportQuery>;

/**
 * A period ends this long before now: a line reaches the table up to about a second after it was logged
 * (its batch's wait), so a window ending now would gain lines inside it after its first page was read.
 */
export const LOG_SETTLE_MS = 3000;

function periodWindow(period: keyof typeof LOG_PERIOD_MS, endMs: number) {
  return { from: new Date(endMs - LOG_PERIOD_MS[period]), to: new Date(endMs) };
}

/**
 * The query's window: its custom range, else its period (by default the last hour), ending at its `as_of`
 * or a few seconds ago (LOG_SETTLE_MS). A custom range reaching past that ends there too, so that its
 * pages and its export keep to the lines shown first, and a range not yet begun is empty.
 */
export function filterOf(query: TExportQuery, nowMs: number): SystemLogFilter {
  const search = query.search?.trim();
  const endMs = query.as_of ? Date.parse(query.as_of) : nowMs - LOG_SETTLE_MS;
  const window =
    query.start_time && query.end_time
      ? {
          from: new Date(query.start_time),
          to: new Date(Math.min(Date.parse(query.end_time), endMs)),
        }
      : periodWindow(query.period ?? LOG_DEFAULT_PERIOD, endMs);
  return {
    ...window,
    level: query.level,
    logger: query.logger_file ? LOGGER_OF_FILTER[query.logger_file] : undefined,
    search: search ? search : undefined,
  };
}

/** Exact counts from the hourly counts, or a text search's counts stopped at LOG_SEARCH_COUNT_CAP. */
async function countsOf(ctx: AppContext, filter: SystemLogFilter) {
  if (filter.search) return countSearchByLevel(ctx.db, filter, LOG_SEARCH_COUNT_CAP);
  const counts = await countSystemLogsByLevel(ctx.db, filter);
  const total = LOG_LEVELS.reduce((sum, l) => sum + counts[l], 0);
  return { counts, total, levelTotal: filter.level ? counts[filter.level] : total, capped: false };
}

export async function listSystemLogs(ctx: AppContext, query: TQuery): Promise<TSystemLogsResponse> {
  const filter = filterOf(query, ctx.clock.now());
  const [rows, counted] = await Promise.all([
    listSystemLogRows(ctx.db, filter, query),
    countsOf(ctx, filter),
  ]);
  const stats: TLogStats = { total: counted.total, ...counted.counts };
  return {
    logs: rows.map((row) => ({
      id: String(row.id),
      timestamp: row.timestamp.toISOString(),
      level: row.level,
      logger_name: shownLoggerName(row.logger),
      message: row.message,
    })),
    stats,
    total: counted.levelTotal,
    limit: query.limit,
    offset: query.offset,
    counts_capped: counted.capped,
    as_of: filter.to.toISOString(),
  };
}

export const LOG_CSV_COLUMNS = ['Timestamp', 'Level', 'Logger', 'Message'] as const;
/** Lines read per query while exporting. */
export const LOG_EXPORT_PAGE_SIZE = 1000;

/**
 * Every line the filters match, newest first, as CSV text. The window is fixed when the export starts, and
 * pages are read one at a time as the answer is sent, so a large export holds one page in memory.
 */
export async function* systemLogsCsv(
  ctx: AppContext,
  query: TExportQuery,
  pageSize = LOG_EXPORT_PAGE_SIZE,
): AsyncGenerator<string> {
  const filter = filterOf(query, ctx.clock.now());
  yield csvRecord([...LOG_CSV_COLUMNS]);
  let after: SystemLogCursor | null = null;
  for (;;) {
    const rows = await exportSystemLogRows(ctx.db, filter, after, pageSize);
    if (rows.length > 0) {
      yield rows
        .map((r) => csvRecord([r.timestamp.toISOString(), r.level, shownLoggerName(r.logger), r.message]))
        .join('');
    }
    if (rows.length < pageSize) return;
    const last = rows[rows.length - 1]!;
    after = { timestamp: last.timestamp, id: last.id };
  }
}

/** Deletes lines older than the retention (from the hour they fall in); returns how many went. */
export async function pruneSystemLogs(ctx: AppContext): Promise<number> {
  const cutoff = ctx.clock.now() - ctx.config.systemLogs.retentionDays * DAY_MS;
  return deleteSystemLogsBefore(ctx.db, new Date(Math.floor(cutoff / HOUR_MS) * HOUR_MS));
}
