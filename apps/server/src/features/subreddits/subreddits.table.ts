import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  pgTable,
  real,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { projects } from '../projects/projects.table';

export const subreddits = pgTable(
  'subreddits',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    /** As Reddit spells it (display_name). */
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    estimatedMembers: integer('estimated_members').notNull().default(0),
    relevanceScore: real('relevance_score').notNull().default(0),
    /** 'generated' or 'manual'. */
    source: text('source').notNull(),
    approved: boolean('approved').notNull().default(false),
    approvedAt: timestamp('approved_at', { withTimezone: true }),
    /** When its first backfill (a search of its recent posts for the project's keywords) ran. */
    backfilledAt: timestamp('backfilled_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('subreddits_project_name_uq').on(t.projectId, sql`lower(${t.name})`),
    index('subreddits_approved_name_idx')
      .on(sql`lower(${t.name})`)
      .where(sql`${t.approved}`),
  ],
);
export type SubredditRow = typeof subreddits.$inferSelect;
