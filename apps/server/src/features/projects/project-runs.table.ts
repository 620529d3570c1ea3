import { jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { TRunProgress } from '@threadreach/contract';
import { projects } from './projects.table';

/**
 * The last long-running action of each kind per project (subreddit generation, search): what the status
 * calls answer, and what makes a second start a 409.
 */
export const projectRuns = pgTable(
  'project_runs',
  {
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    /** 'subreddits', 'search' or 'dms' (Generate All DMs). */
    kind: text('kind').notNull(),
    /** 'running', 'completed' or 'failed'. */
    status: text('status').notNull(),
    error: text('error'),
    options: jsonb('options').$type<Record<string, unknown>>().notNull().default({}),
    progress: jsonb('progress').$type<TRunProgress>(),
    result: jsonb('result').$type<Record<string, unknown>>(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    /** Written with each progress step: a run silent for too long was lost with its worker. */
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }).notNull(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.kind] })],
);
export type ProjectRunRow = typeof projectRuns.$inferSelect;
