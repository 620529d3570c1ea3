import {
  LOG_DEFAULT_PERIOD,
  LOG_LEVELS,
  LOG_PERIOD_MS,
  LOG_SEARCH_COUNT_CAP,
  LOGGER_OF_FILTER,
  type TLogStats,
  type TSystemLogsResponse,
  type ZSystemLogsQuery,
} from '@threadreach/contract';
import type { z } from 'zod';
import type { AppContext } from '../../context';
import {
  countSearchByLevel,
  countSystemLogsByLevel,
  deleteSystemLogsBefore,
  listSystemLogRows,
  type SystemLogFilter,
} from './system-logs.repository';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

type TQuery = z.output<typeof ZSystemLogsQuery>;

/** The query's window: its custom range, else its period (by default the last hour) back from now. */
export function filterOf(query: TQuery, nowMs: number): SystemLogFilter {
  const search = query.search?.trim();
  const window =
    query.start_time && query.end_time
      ? { from: new Date(query.start_time), to: new Date(query.end_time) }
      : {
          from: new Date(nowMs - LOG_PERIOD_MS[query.period ?? LOG_DEFAULT_PERIOD]),
          to: new Date(nowMs),
        };
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
      logger_name: row.logger,
      message: row.message,
    })),
    stats,
    total: counted.levelTotal,
    limit: query.limit,
    offset: query.offset,
    counts_capped: counted.capped,
  };
}

/** Deletes lines older than the retention (from the hour they fall in); returns how many went. */
export async function pruneSystemLogs(ctx: AppContext): Promise<number> {
  const cutoff = ctx.clock.now() - ctx.config.systemLogs.retentionDays * DAY_MS;
  return deleteSystemLogsBefore(ctx.db, new Date(Math.floor(cutoff / HOUR_MS) * HOUR_MS));
}
