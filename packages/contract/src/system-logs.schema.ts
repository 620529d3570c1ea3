import { z } from 'zod';
import { QUERY_YEARS_TEXT, ZIsoDateTime, ZLimit, ZOffset, ZText, inQueryYears } from './common.schema';

/** Levels as /logs shows them; pino's trace counts as DEBUG and fatal as CRITICAL. */
export const LOG_LEVELS = ['DEBUG', 'INFO', 'WARNING', 'ERROR', 'CRITICAL'] as const;
export type TLogLevel = (typeof LOG_LEVELS)[number];

/**
 * The names lines are stored under: server lines, one HTTP access line per request, the AI engine. /logs
 * shows the access lines as `uvicorn.access` (`shownLoggerName`).
 */
export const LOGGER_NAMES = ['server', 'http.access', 'ai-service'] as const;
export type TLoggerName = (typeof LOGGER_NAMES)[number];

/**
 * The logger filter (`logger_file`): the spec's names, of which `uvicorn.access` stands for the HTTP access
 * lines; the stored names are accepted as well.
 */
export const LOGGER_FILTERS = ['server', 'uvicorn.access', 'http.access', 'ai-service'] as const;
export type TLoggerFilter = (typeof LOGGER_FILTERS)[number];
export const LOGGER_OF_FILTER: Record<TLoggerFilter, TLoggerName> = {
  server: 'server',
  'uvicorn.access': 'http.access',
  'http.access': 'http.access',
  'ai-service': 'ai-service',
};

/**
 * The name a stored logger is shown under, in /logs' table and its CSV: the filter's (the spec's) name,
 * so the access lines read `uvicorn.access` there as in the Logger filter. Stored names stay as they are.
 */
const LOGGER_SHOWN_AS: Readonly<Record<string, string>> = { 'http.access': 'uvicorn.access' };
export function shownLoggerName(stored: string): string {
  return Object.hasOwn(LOGGER_SHOWN_AS, stored) ? LOGGER_SHOWN_AS[stored]! : stored;
}

/** Quick periods, counted back from now; without a period or a custom range the last hour is shown. */
export const LOG_PERIODS = ['10m', '30m', '1h'] as const;
export type TLogPeriod = (typeof LOG_PERIODS)[number];
export const LOG_PERIOD_MS: Record<TLogPeriod, number> = {
  '10m': 10 * 60_000,
  '30m': 30 * 60_000,
  '1h': 60 * 60_000,
};
export const LOG_DEFAULT_PERIOD: TLogPeriod = '1h';

export const LOG_PAGE_SIZE = 100;
export const LOG_PAGE_MAX = 500;
export const LOG_SEARCH_MAX = 200;
export const LOG_RANGE_MAX_DAYS = 366;
/** A text search stops counting its matching lines here (`counts_capped`). */
export const LOG_SEARCH_COUNT_CAP = 1000;
const DAY_MS = 86_400_000;

const ZInstant = (field: string) =>
  ZText()
    .refine((v) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})$/.test(v), {
      error: `${field} must be an ISO 8601 date-time with a time zone, e.g. 2030-01-31T09:30:00Z`,
      abort: true,
    })
    .refine(inQueryYears, { error: `${field} must be a date-time ${QUERY_YEARS_TEXT}`, abort: true })
    .refine(isRealDateTime, { error: `${field} is not a real date and time` });

/** Date.parse rolls 31 February over into March; the calendar fields must stand as written. */
function isRealDateTime(value: string): boolean {
  const [y, m, d, h, min] = [0, 5, 8, 11, 14].map((at) => Number(value.slice(at, at + (at ? 2 : 4))));
  if (Number.isNaN(Date.parse(value))) return false;
  const daysInMonth = new Date(Date.UTC(y!, m!, 0)).getUTCDate();
  return m! >= 1 && m! <= 12 && d! >= 1 && d! <= daysInMonth && h! <= 23 && min! <= 59;
}

/** The filters of /logs: level, logger, period or custom range, and free text. */
const ZSystemLogsFilter = z.object({
  level: z
    .string()
    .toUpperCase()
    .pipe(
      z.enum(LOG_LEVELS, {
        error: (issue) => `Unknown level '${String(issue.input)}': use one of ${LOG_LEVELS.join(', ')}`,
      }),
    )
    .optional(),
  logger_file: z
    .enum(LOGGER_FILTERS, {
      error: (issue) => `Unknown logger '${String(issue.input)}': use one of ${LOGGER_FILTERS.join(', ')}`,
    })
    .optional(),
  period: z
    .enum(LOG_PERIODS, {
      error: (issue) => `Unknown period '${String(issue.input)}': use one of ${LOG_PERIODS.join(', ')}`,
    })
    .optional(),
  search: ZText()
    .trim()
    .max(LOG_SEARCH_MAX, { error: `search must be at most ${LOG_SEARCH_MAX} characters` })
    .optional(),
  start_time: ZInstant('start_time').optional(),
  end_time: ZInstant('end_time').optional(),
  /**
   * Where a period ends instead of now: the `as_of` of the first page, sent with the pages after it and
   * the export so that lines logged meanwhile do not shift them. A custom range ending later ends here.
   */
  as_of: ZInstant('as_of').optional(),
});

/** A custom range needs both ends, in order, at most LOG_RANGE_MAX_DAYS long. */
function checkRange(
  q: { start_time?: string | undefined; end_time?: string | undefined },
  ctx: z.RefinementCtx,
): void {
  if ((q.start_time === undefined) !== (q.end_time === undefined)) {
    ctx.addIssue({
      code: 'custom',
      path: [q.start_time === undefined ? 'start_time' : 'end_time'],
      message: 'A custom range needs both start_time and end_time',
    });
    return;
  }
  if (q.start_time === undefined || q.end_time === undefined) return;
  const start = Date.parse(q.start_time);
  const end = Date.parse(q.end_time);
  if (Number.isNaN(start) || Number.isNaN(end)) return;
  const problem = customRangeProblem(start, end);
  if (problem) ctx.addIssue({ code: 'custom', path: [problem.end], message: problem.message });
}

/**
 * Why a custom range from `startMs` to `endMs` cannot be shown, and which end is at fault, or null: the
 * server's check, which /logs makes before it asks.
 */
export function customRangeProblem(
  startMs: number,
  endMs: number,
): { end: 'start_time' | 'end_time'; message: string } | null {
  if (startMs > endMs) return { end: 'start_time', message: 'The range starts after it ends' };
  if (endMs - startMs > LOG_RANGE_MAX_DAYS * DAY_MS) {
    return { end: 'end_time', message: `The range is longer than ${LOG_RANGE_MAX_DAYS} days` };
  }
  return null;
}

export const ZSystemLogsQuery = ZSystemLogsFilter.extend({
  limit: ZLimit(LOG_PAGE_MAX, LOG_PAGE_SIZE),
  offset: ZOffset(1_000_000),
}).superRefine(checkRange);
export type TSystemLogsQuery = z.input<typeof ZSystemLogsQuery>;

/** The export takes the same filters and answers every matching line, newest first. */
export const ZSystemLogsExportQuery = ZSystemLogsFilter.superRefine(checkRange);
export type TSystemLogsExportQuery = z.input<typeof ZSystemLogsExportQuery>;

/** system-logs-2030-01-31T09-30-00.csv: 'system-logs' plus the export's timestamp (UTC). */
export function systemLogsCsvFileName(atMs: number): string {
  return `system-logs-${new Date(atMs).toISOString().slice(0, 19).replace(/:/g, '-')}.csv`;
}

export const ZLogEntry = z.object({
  id: z.string(),
  timestamp: ZIsoDateTime,
  level: z.enum(LOG_LEVELS),
  logger_name: z.string(),
  message: z.string(),
});
export type TLogEntry = z.infer<typeof ZLogEntry>;

/** Counts per level over the same period, logger and search, whatever the level filter. */
export const ZLogStats = z.object({
  total: z.number().int(),
  DEBUG: z.number().int(),
  INFO: z.number().int(),
  WARNING: z.number().int(),
  ERROR: z.number().int(),
  CRITICAL: z.number().int(),
});
export type TLogStats = z.infer<typeof ZLogStats>;

export const ZSystemLogsResponse = z.object({
  logs: z.array(ZLogEntry),
  stats: ZLogStats,
  /** Lines matching every filter, the level included: what the pages walk through. */
  total: z.number().int(),
  limit: z.number().int(),
  offset: z.number().int(),
  /**
   * Only with a text search: it matched more than LOG_SEARCH_COUNT_CAP lines and counting stopped there,
   * so every count is an "at least" figure. `stats.total` is then LOG_SEARCH_COUNT_CAP and each level's
   * count is how many of the lines counted have that level; `total` under a level filter is that level's
   * own count, stopped at the cap too. Without a text search counts are exact and this is false.
   */
  counts_capped: z.boolean(),
  /**
   * Where the window ended: the request's `as_of` or a few seconds before now, or the custom range's end
   * when that came first.
   */
  as_of: ZIsoDateTime,
});
export type TSystemLogsResponse = z.infer<typeof ZSystemLogsResponse>;
