import type { TDayProjectStatistics } from '@threadreach/contract';

/** One day of the by-day view: the totals of its projects, and the projects themselves. */
export interface TDayRow {
  date: string;
  posts: number;
  generated: number;
  sent: number;
  failed: number;
  expired: number;
  project_count: number;
  projects: TDayProjectStatistics[];
}

/** The server's rows per day and project, folded into one row per day, newest first. */
export function groupByDay(rows: readonly TDayProjectStatistics[]): TDayRow[] {
  const days = new Map<string, TDayRow>();
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
