import { describe, expect, it } from 'vitest';
import {
  PROJECT_COLUMN_VALUES,
  applyStatsFilters,
  columnValues,
  groupByDay,
  type TStatisticsDay,
} from './statistics.rows';
import {
  parseStatsFilter,
  statsFilterParam,
  type TDayProjectStatistics,
  type TProjectStatistics,
} from './statistics.schema';

function project(overrides: Partial<TProjectStatistics>): TProjectStatistics {
  return {
    project_id: 'p-1',
    project_name: 'Alpha',
    accounts_connected: 0,
    approved_keywords: 0,
    approved_subreddits: 0,
    total_posts_searched: 0,
    total_messages_generated: 0,
    sent: 0,
    failed: 0,
    expired: 0,
    top_subreddits: [],
    accounts: [],
    ...overrides,
  };
}

function day(overrides: Partial<TDayProjectStatistics>): TDayProjectStatistics {
  return {
    date: '2030-01-07',
    project_id: 'p-1',
    project_name: 'Alpha',
    posts_searched: 0,
    messages_generated: 0,
    sent: 0,
    failed: 0,
    expired: 0,
    ...overrides,
  };
}

describe('column filters', () => {
  const rows = [
    project({ project_name: 'Beta', accounts_connected: 2, sent: 10 }),
    project({ project_name: 'Alpha', accounts_connected: 0, sent: 9 }),
    project({ project_name: 'Gamma', accounts_connected: 10, sent: 10 }),
  ];

  it('offers the distinct values of each column in order', () => {
    const values = columnValues(rows, PROJECT_COLUMN_VALUES);
    expect(values.accounts).toEqual(['0', '2', '10']);
    expect(values.project).toEqual(['Alpha', 'Beta', 'Gamma']);
    expect(values.sent).toEqual(['9', '10']);
  });

  it('keeps the rows whose value every filtered column chose', () => {
    const names = (filters: Record<string, string[]>) =>
      applyStatsFilters(rows, PROJECT_COLUMN_VALUES, filters).map((r) => r.project_name);
    expect(names({})).toEqual(['Beta', 'Alpha', 'Gamma']);
    expect(names({ accounts: ['2', '10'] })).toEqual(['Beta', 'Gamma']);
    expect(names({ accounts: ['2', '10'], sent: ['9'] })).toEqual([]);
    expect(names({ accounts: [], sent: ['10'] })).toEqual(['Beta', 'Gamma']);
  });

  it('sends the chosen values as column:value, a value keeping its own colons', () => {
    const filters = { project: ['Acme: EU', 'Beta'], sent: ['0'], failed: [] };
    const param = statsFilterParam(filters);
    expect(param).toEqual(['project:Acme: EU', 'project:Beta', 'sent:0']);
    expect(parseStatsFilter(param)).toEqual({ project: ['Acme: EU', 'Beta'], sent: ['0'] });
  });
});

describe('by-day rows', () => {
  it('folds the projects of each day together, newest day first', () => {
    const days: TStatisticsDay[] = groupByDay([
      day({ date: '2030-01-07', project_name: 'Alpha', posts_searched: 2, sent: 1 }),
      day({ date: '2030-01-09', project_name: 'Alpha', failed: 1 }),
      day({ date: '2030-01-07', project_id: 'p-2', project_name: 'Beta', posts_searched: 3, expired: 1 }),
    ]);
    expect(days.map((d) => [d.date, d.posts, d.sent, d.failed, d.expired, d.project_count])).toEqual([
      ['2030-01-09', 0, 0, 1, 0, 1],
      ['2030-01-07', 5, 1, 0, 1, 2],
    ]);
    expect(days[1]!.projects.map((p) => p.project_name)).toEqual(['Alpha', 'Beta']);
  });
});
