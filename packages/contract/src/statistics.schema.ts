import { z } from 'zod';
import {
  PAGE_LIMIT_DEFAULT,
  PAGE_LIMIT_MAX,
  QUERY_YEARS,
  QUERY_YEARS_TEXT,
  ZLimit,
  ZOffset,
  ZQueryInt,
  ZText,
  inQueryYears,
} from './common.schema';

/**
 * Statistics count UTC calendar days: a date is `YYYY-MM-DD`, and a range runs from the start of its first
 * day to the end of its last, both included.
 */
export const STATS_RANGE_MAX_DAYS = 366;
export const STATS_GROUPS = ['project', 'day'] as const;
export type TStatsGroup = (typeof STATS_GROUPS)[number];
/** The years a monthly query may name; the panel offers the current year and the four before it. */
export const STATS_YEAR_MIN = QUERY_YEARS.first;
export const STATS_YEAR_MAX = QUERY_YEARS.last;
export const STATS_YEAR_CHOICES = 5;
/** Subreddits listed per project in the by-project view. */
export const STATS_TOP_SUBREDDITS = 5;

const DAY_MS = 86_400_000;

/** Days since 1970-01-01 of a `YYYY-MM-DD` date, or null when it is not a real calendar day. */
export function dayNumber(value: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const ms = Date.UTC(y, mo - 1, d);
  const back = new Date(ms);
  // Date.UTC rolls 31 February over into March; the calendar fields must stand as written.
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d) return null;
  return ms / DAY_MS;
}

/** The `YYYY-MM-DD` of a day number (days since 1970-01-01). */
export function dayString(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** Days in an inclusive range of `YYYY-MM-DD` dates (1 for a single day). */
export function rangeDays(start: string, end: string): number {
  return (dayNumber(end) ?? 0) - (dayNumber(start) ?? 0) + 1;
}

const ZDay = (field: string) =>
  ZText({ error: `${field} is required, as a date YYYY-MM-DD` })
    .regex(/^\d{4}-\d{2}-\d{2}$/, {
      error: `${field} must be a date as YYYY-MM-DD, e.g. 2030-01-31`,
      abort: true,
    })
    .refine(inQueryYears, { error: `${field} must be a date ${QUERY_YEARS_TEXT}`, abort: true })
    .refine((v) => dayNumber(v) !== null, { error: `${field} is not a real calendar date` });

/** Both ends present, in order, and at most 366 days long (both days counted). */
function checkRange(q: { start_date: string; end_date: string }, ctx: z.RefinementCtx) {
  const start = dayNumber(q.start_date);
  const end = dayNumber(q.end_date);
  if (start === null || end === null) return;
  if (start > end) {
    ctx.addIssue({ code: 'custom', path: ['start_date'], message: 'The range starts after it ends' });
  } else if (end - start + 1 > STATS_RANGE_MAX_DAYS) {
    ctx.addIssue({
      code: 'custom',
      path: ['end_date'],
      message: `The range is longer than ${STATS_RANGE_MAX_DAYS} days`,
    });
  }
}

export const ZDateRangeQuery = z
  .object({ start_date: ZDay('start_date'), end_date: ZDay('end_date') })
  .superRefine(checkRange);
export type TDateRangeQuery = z.input<typeof ZDateRangeQuery>;

/** The columns of /stats by grouping, as the `filter` parameter and `filter_values` name them. */
export const STATS_COLUMNS = {
  project: [
    'project',
    'accounts',
    'keywords',
    'subreddits',
    'posts',
    'generated',
    'sent',
    'failed',
    'expired',
  ],
  day: ['date', 'posts', 'generated', 'sent', 'failed', 'expired', 'projects'],
} as const satisfies Record<TStatsGroup, readonly string[]>;
export type TProjectStatsColumn = (typeof STATS_COLUMNS.project)[number];
export type TDayStatsColumn = (typeof STATS_COLUMNS.day)[number];
/** Chosen values by column; a column with none chosen lets every row through. */
export type TStatsFilters = Record<string, string[]>;

/** Values a request may choose across its columns. */
export const STATS_FILTER_VALUES_MAX = 1000;

/** The `filter` parameter of chosen values: one `column:value` each. */
export function statsFilterParam(filters: TStatsFilters): string[] {
  return Object.entries(filters).flatMap(([column, values]) => values.map((v) => `${column}:${v}`));
}

/** The `filter` parameter as a list: left out, given once (a string) or repeated (a list). */
export function statsFilterItems(param: string | readonly string[] | undefined): readonly string[] {
  return param === undefined ? [] : typeof param === 'string' ? [param] : param;
}

/** The chosen values of a `filter` parameter by column (a value may hold ':' itself). */
export function parseStatsFilter(param: string | readonly string[] | undefined): TStatsFilters {
  const filters: TStatsFilters = {};
  for (const item of statsFilterItems(param)) {
    const at = item.indexOf(':');
    const column = item.slice(0, at);
    (filters[column] ??= []).push(item.slice(at + 1));
  }
  return filters;
}

export const ZDailyStatisticsQuery = z
  .object({
    start_date: ZDay('start_date'),
    end_date: ZDay('end_date'),
    group_by: z
      .enum(STATS_GROUPS, {
        error: (issue) => `Unknown group_by '${String(issue.input)}': use project or day`,
      })
      .default('project'),
    /**
     * Column filters, `column:value` each (repeat the parameter for more): a row shows when every
     * filtered column holds one of its chosen values.
     */
    filter: z.union([z.string(), z.array(z.string())], { error: 'filter must be column:value' }).optional(),
    /** Rows per page: projects, or days in the by-day view. */
    limit: ZLimit(PAGE_LIMIT_MAX, PAGE_LIMIT_DEFAULT),
    offset: ZOffset(),
  })
  .superRefine(checkRange)
  .superRefine((q, ctx) => {
    const items = statsFilterItems(q.filter);
    if (items.length > STATS_FILTER_VALUES_MAX) {
      ctx.addIssue({
        code: 'custom',
        path: ['filter'],
        message: `At most ${STATS_FILTER_VALUES_MAX} filter values at once`,
      });
      return;
    }
    const columns: readonly string[] = STATS_COLUMNS[q.group_by];
    for (const item of items) {
      const column = item.slice(0, Math.max(0, item.indexOf(':')));
      if (columns.includes(column)) continue;
      ctx.addIssue({
        code: 'custom',
        path: ['filter'],
        message: column
          ? `Unknown column '${column}' in filter: the ${q.group_by} view has ${columns.join(', ')}`
          : `filter '${item}' must be column:value, e.g. sent:0`,
      });
      return;
    }
  });
export type TDailyStatisticsQuery = z.input<typeof ZDailyStatisticsQuery>;

export const ZMonthlyStatisticsQuery = z.object({
  year: ZQueryInt(
    STATS_YEAR_MIN,
    STATS_YEAR_MAX,
    `year must be a whole number between ${STATS_YEAR_MIN} and ${STATS_YEAR_MAX}`,
    'year is required, e.g. 2030',
  ),
  /** 1-12; left out for the whole year ('All Months'). */
  month: ZQueryInt(1, 12, 'month must be a number from 1 to 12').optional(),
});
export type TMonthlyStatisticsQuery = z.input<typeof ZMonthlyStatisticsQuery>;

const ZCount = z.number().int();
/** A share in percent (0-100, one decimal), or null when nothing was there to share. */
const ZPercent = z.number().nullable();

/** One point of a chart: what happened on a day (or, for a whole year, in a month starting on `date`). */
export const ZStatisticsPoint = z.object({
  date: z.string(),
  dms_sent: ZCount,
  /** Replies received. */
  replies: ZCount,
  /** Posts and comments found. */
  leads: ZCount,
});
export type TStatisticsPoint = z.infer<typeof ZStatisticsPoint>;

// ---- all projects ----------------------------------------------------------------------------------------

export const ZTopSubreddit = z.object({ subreddit: z.string(), posts: ZCount, dms_sent: ZCount });
export const ZAccountStatistics = z.object({
  /** Null for a Reddit account removed from the project after it sent or failed a DM in the range. */
  account_id: z.string().nullable(),
  username: z.string(),
  dms_sent: ZCount,
  dms_failed: ZCount,
});

/**
 * One project over the range. Accounts, keywords and subreddits are as they stand now; the other figures
 * count what happened in the range.
 */
export const ZProjectStatistics = z.object({
  project_id: z.string(),
  project_name: z.string(),
  accounts_connected: ZCount,
  approved_keywords: ZCount,
  approved_subreddits: ZCount,
  total_posts_searched: ZCount,
  total_messages_generated: ZCount,
  sent: ZCount,
  failed: ZCount,
  expired: ZCount,
  top_subreddits: z.array(ZTopSubreddit),
  accounts: z.array(ZAccountStatistics),
});
export type TProjectStatistics = z.infer<typeof ZProjectStatistics>;

/** One project on one day that had anything happen. */
export const ZDayProjectStatistics = z.object({
  date: z.string(),
  project_id: z.string(),
  project_name: z.string(),
  posts_searched: ZCount,
  messages_generated: ZCount,
  sent: ZCount,
  failed: ZCount,
  expired: ZCount,
});
export type TDayProjectStatistics = z.infer<typeof ZDayProjectStatistics>;

export const ZDailyStatisticsSummary = z.object({
  total_projects: ZCount,
  total_accounts: ZCount,
  total_posts_found: ZCount,
  total_dms_generated: ZCount,
  sent: ZCount,
  failed: ZCount,
  expired: ZCount,
  /** Replies received in the range. */
  total_replies: ZCount,
});
export type TDailyStatisticsSummary = z.infer<typeof ZDailyStatisticsSummary>;

const dailyCommon = {
  /** Every project's figures over the range, whatever the column filters. */
  summary: ZDailyStatisticsSummary,
  start_date: z.string(),
  end_date: z.string(),
  /** Every day of the range, oldest first, across all projects. */
  series: z.array(ZStatisticsPoint),
  /** Rows the column filters let through: projects, or days in the by-day view. */
  total: ZCount,
  limit: ZCount,
  offset: ZCount,
  /**
   * Each column's distinct values over every row of the range, before the filters: what a column's
   * filter offers. Numbers in numeric order, text in alphabetical order, all as text.
   */
  filter_values: z.record(z.string(), z.array(z.string())),
};

export const ZDailyStatisticsResponse = z.discriminatedUnion('group_by', [
  z.object({ ...dailyCommon, group_by: z.literal('project'), data: z.array(ZProjectStatistics) }),
  /** Rows per day and project of the page's days, newest day first. */
  z.object({ ...dailyCommon, group_by: z.literal('day'), data: z.array(ZDayProjectStatistics) }),
]);
export type TDailyStatisticsResponse = z.infer<typeof ZDailyStatisticsResponse>;

// ---- one project -----------------------------------------------------------------------------------------

export const ZMonthlyStatisticsSummary = z.object({
  total_messages_sent: ZCount,
  total_messages_generated: ZCount,
  total_posts_found: ZCount,
  total_comments_found: ZCount,
  total_searches_performed: ZCount,
  total_messages_failed: ZCount,
  /** DMs sent in the period that have a reply. */
  total_replies: ZCount,
  /** total_replies / total_messages_sent in percent. */
  reply_rate: ZPercent,
});
export type TMonthlyStatisticsSummary = z.infer<typeof ZMonthlyStatisticsSummary>;

export const ZMonthlyStatisticsResponse = z.object({
  year: ZCount,
  month: ZCount.nullable(),
  start_date: z.string(),
  end_date: z.string(),
  summary: ZMonthlyStatisticsSummary,
  /** Per day for a month; per month for a whole year. */
  granularity: z.enum(['day', 'month']),
  series: z.array(ZStatisticsPoint),
});
export type TMonthlyStatisticsResponse = z.infer<typeof ZMonthlyStatisticsResponse>;

export const ZDateRangeStatistics = z.object({
  messages_sent: ZCount,
  messages_generated: ZCount,
  posts_found: ZCount,
  comments_found: ZCount,
  searches_performed: ZCount,
  /** Messages sent per day of the range, two decimals. */
  average_messages_per_day: z.number(),
  /** sent / (sent + failed) in percent. */
  success_rate: ZPercent,
  messages_failed: ZCount,
  replies: ZCount,
  reply_rate: ZPercent,
});
export type TDateRangeStatistics = z.infer<typeof ZDateRangeStatistics>;

export const ZDateRangeStatisticsResponse = z.object({
  start_date: z.string(),
  end_date: z.string(),
  date_range_days: ZCount,
  statistics: ZDateRangeStatistics,
  series: z.array(ZStatisticsPoint),
});
export type TDateRangeStatisticsResponse = z.infer<typeof ZDateRangeStatisticsResponse>;

// ---- admin actions ---------------------------------------------------------------------------------------

export const ZResetDailyLimitsResponse = z.object({
  message: z.string(),
  accounts_reset: ZCount,
});
export type TResetDailyLimitsResponse = z.infer<typeof ZResetDailyLimitsResponse>;

export const ZTokenRefreshResult = z.object({
  account_id: z.string(),
  reddit_username: z.string(),
  refreshed: z.boolean(),
  /** Why it failed (the account then shows Auth Required when Reddit refused its grant). */
  error: z.string().nullable(),
});

export const ZRefreshAllTokensResponse = z.object({
  refreshed_accounts: ZCount,
  failed_accounts: ZCount,
  message: z.string(),
  accounts: z.array(ZTokenRefreshResult),
});
export type TRefreshAllTokensResponse = z.infer<typeof ZRefreshAllTokensResponse>;
