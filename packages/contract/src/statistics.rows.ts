import type {
  TDayProjectStatistics,
  TDayStatsColumn,
  TProjectStatistics,
  TProjectStatsColumn,
  TStatsFilters,
} from './statistics.schema';

/** One day of the by-day view: the totals of its projects, and the projects themselves. */
export interface TStatisticsDay {
  date: string;
  posts: number;
  generated: number;
  sent: number;
  failed: number;
  expired: number;
  project_count: number;
  projects: TDayProjectStatistics[];
}

/** Rows per day and project folded into one row per day, newest first. */
export function groupByDay(rows: readonly TDayProjectStatistics[]): TStatisticsDay[] {
  const days = new Map<string, TStatisticsDay>();
  for (const row of rows) {
    let day = days.get(row.date);
    if (!day) {
      day = {
        date: row.date,
        posts: 0,
        generated: 0,
        sent: 0,
        failed: 0,
        expired: 0,
        project_count: 0,
        projects: [],
      };
      days.set(row.date, day);
    }
    day.posts += row.posts_searched;
    day.generated += row.messages_generated;
    day.sent += row.sent;
    day.failed += row.failed;
    day.expired += row.expired;
    day.project_count += 1;
    day.projects.push(row);
  }
  return [...days.values()].sort((a, b) => b.date.localeCompare(a.date));
}

type TValueOf<R> = (row: R) => string | number;

/** What each column of the by-project view shows, and its filter matches. */
export const PROJECT_COLUMN_VALUES: Record<TProjectStatsColumn, TValueOf<TProjectStatistics>> = {
  project: (r) => r.project_name,
  accounts: (r) => r.accounts_connected,
  keywords: (r) => r.approved_keywords,
  subreddits: (r) => r.approved_subreddits,
  posts: (r) => r.total_posts_searched,
  generated: (r) => r.total_messages_generated,
  sent: (r) => r.sent,
  failed: (r) => r.failed,
  expired: (r) => r.expired,
};

/** What each column of the by-day view shows, and its filter matches. */
export const DAY_COLUMN_VALUES: Record<TDayStatsColumn, TValueOf<TStatisticsDay>> = {
  date: (r) => r.date,
  posts: (r) => r.posts,
  generated: (r) => r.generated,
  sent: (r) => r.sent,
  failed: (r) => r.failed,
  expired: (r) => r.expired,
  projects: (r) => r.project_count,
};

/** Each column's distinct values, numbers in numeric order and text in alphabetical order, as text. */
export function columnValues<R>(
  rows: readonly R[],
  columns: Record<string, TValueOf<R>>,
): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [key, value] of Object.entries(columns)) {
    const values = [...new Set(rows.map(value))];
    values.sort((a, b) =>
      typeof a === 'number' && typeof b === 'number' ? a - b : String(a).localeCompare(String(b)),
    );
    out[key] = values.map(String);
  }
  return out;
}

/** The rows every filtered column lets through. */
export function applyStatsFilters<R>(
  rows: readonly R[],
  columns: Record<string, TValueOf<R>>,
  filters: TStatsFilters,
): R[] {
  const active = Object.entries(filters)
    .filter(([key, values]) => values.length > 0 && key in columns)
    .map(([key, values]) => ({ value: columns[key]!, chosen: new Set(values) }));
  return rows.filter((row) => active.every((c) => c.chosen.has(String(c.value(row)))));
}
