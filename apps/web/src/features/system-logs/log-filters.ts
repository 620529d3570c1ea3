import {
  customRangeProblem,
  LOG_PAGE_SIZE,
  type TLogLevel,
  type TLogPeriod,
  type TLoggerFilter,
  type TSystemLogsExportQuery,
  type TSystemLogsQuery,
} from '@threadreach/contract';

export type TPeriodChoice = TLogPeriod | 'custom';

/** What the filter bar holds; it takes effect on Apply Filters (or Enter in the search box). */
export interface TLogFilters {
  level: TLogLevel | '';
  logger: TLoggerFilter | '';
  period: TPeriodChoice;
  /** dd-mm-yyyy hh:mm, used with 'custom'. */
  from: string;
  to: string;
  search: string;
}

export const DEFAULT_LOG_FILTERS: TLogFilters = {
  level: '',
  logger: '',
  period: '1h',
  from: '',
  to: '',
  search: '',
};

/** Spec section 2's choices, in its order. */
export const LEVEL_OPTIONS: { value: TLogFilters['level']; label: string }[] = [
  { value: '', label: 'All' },
  { value: 'INFO', label: 'Info' },
  { value: 'WARNING', label: 'Warning' },
  { value: 'ERROR', label: 'Error' },
  { value: 'DEBUG', label: 'Debug' },
  { value: 'CRITICAL', label: 'Critical' },
];

export const LOGGER_OPTIONS: { value: TLogFilters['logger']; label: string }[] = [
  { value: '', label: 'All' },
  { value: 'server', label: 'server' },
  { value: 'uvicorn.access', label: 'uvicorn.access' },
  { value: 'ai-service', label: 'ai-service' },
];

export const PERIOD_OPTIONS: { value: TPeriodChoice; label: string }[] = [
  { value: '10m', label: 'Last 10 minutes' },
  { value: '30m', label: 'Last 30 minutes' },
  { value: '1h', label: 'Last 1 hour' },
  { value: 'custom', label: 'Custom range' },
];

export const RANGE_FORMAT = 'dd-mm-yyyy hh:mm';
const RANGE_PATTERN = /^(\d{2})-(\d{2})-(\d{4}) (\d{2}):(\d{2})$/;

/** A typed dd-mm-yyyy hh:mm (local time) as an ISO instant, or null when it is not a real date and time. */
export function parseRangeInput(text: string): string | null {
  const match = RANGE_PATTERN.exec(text.trim());
  if (!match) return null;
  const [day, month, year, hour, minute] = match.slice(1).map(Number) as [
    number,
    number,
    number,
    number,
    number,
  ];
  const date = new Date(year, month - 1, day, hour, minute);
  const same =
    date.getFullYear() === year &&
    date.getMonth() === month - 1 &&
    date.getDate() === day &&
    date.getHours() === hour &&
    date.getMinutes() === minute;
  return same ? date.toISOString() : null;
}

export const RANGE_INCOMPLETE_TEXT = 'Enter both From and To';

/** Why the custom range cannot be applied, and the fields at fault: the message stands by the first. */
export interface TRangeError {
  message: string;
  fields: ('from' | 'to')[];
}

/**
 * Why the custom range cannot be used (each end not a date and time, an end left empty, or the server's
 * own objection to the range), or null when it can or is not chosen.
 */
export function rangeError(filters: TLogFilters): TRangeError | null {
  if (filters.period !== 'custom') return null;
  const ends = [
    { field: 'from', label: 'From', text: filters.from.trim(), iso: parseRangeInput(filters.from) },
    { field: 'to', label: 'To', text: filters.to.trim(), iso: parseRangeInput(filters.to) },
  ] as const;
  const bad = ends.filter((e) => e.text && !e.iso);
  if (bad.length === 2) {
    return { message: `From and To must be dates and times as ${RANGE_FORMAT}`, fields: ['from', 'to'] };
  }
  if (bad[0]) {
    return { message: `${bad[0].label} must be a date and time as ${RANGE_FORMAT}`, fields: [bad[0].field] };
  }
  // A range is sent only with both ends: with one, the page would show the last hour under "Custom range".
  const empty = ends.filter((e) => !e.text).map((e) => e.field);
  if (empty.length > 0) return { message: RANGE_INCOMPLETE_TEXT, fields: empty };
  const problem = customRangeProblem(Date.parse(ends[0].iso!), Date.parse(ends[1].iso!));
  return problem && { message: problem.message, fields: [problem.end === 'start_time' ? 'from' : 'to'] };
}

/**
 * The applied filters as the server takes them, for a page and for the export alike: a custom range is
 * sent only when both ends are given, converted to ISO start_time and end_time; otherwise the chosen
 * quick period.
 */
export function filterQueryOf(filters: TLogFilters): TSystemLogsExportQuery {
  const query: TSystemLogsExportQuery = {};
  if (filters.level) query.level = filters.level;
  if (filters.logger) query.logger_file = filters.logger;
  const search = filters.search.trim();
  if (search) query.search = search;
  if (filters.period === 'custom') {
    const start = parseRangeInput(filters.from);
    const end = parseRangeInput(filters.to);
    if (start && end) {
      query.start_time = start;
      query.end_time = end;
    }
  } else {
    query.period = filters.period;
  }
  return query;
}

export function queryOf(filters: TLogFilters, offset: number): TSystemLogsQuery {
  return { limit: LOG_PAGE_SIZE, offset, ...filterQueryOf(filters) };
}

const pad = (n: number) => String(n).padStart(2, '0');

/** A log time in local time, as dd-mm-yyyy hh:mm:ss (the custom range's format plus seconds). */
export function formatLogTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return (
    `${pad(d.getDate())}-${pad(d.getMonth() + 1)}-${d.getFullYear()} ` +
    `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`
  );
}
