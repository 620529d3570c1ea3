import { sql } from 'drizzle-orm';
import { boolean, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { projects } from '../projects/projects.table';

export const keywords = pgTable(
  'keywords',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    keyword: text('keyword').notNull(),
    /** 'product' or 'icp'. */
    type: text('type').notNull(),
    approved: boolean('approved').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('keywords_project_keyword_uq').on(t.projectId, t.type, sql`lower(${t.keyword})`),
    index('keywords_approved_idx')
      .on(t.projectId)
      .where(sql`${t.approved}`),
  ],
);
export type KeywordRow = typeof keywords.$inferSelect;

/** Negative keywords and exclusions of a project (one row, written with step 2). */
export const discoveryFilters = pgTable('discovery_filters', {
  projectId: uuid('project_id')
    .primaryKey()
    .references(() => projects.id, { onDelete: 'cascade' }),
  negativeKeywords: text('negative_keywords')
    .array()
    .notNull()
    .default(sql`'{}'`),
  excludedSubreddits: text('excluded_subreddits')
    .array()
    .notNull()
    .default(sql`'{}'`),
  excludedAuthors: text('excluded_authors')
    .array()
    .notNull()
    .default(sql`'{}'`),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
export type DiscoveryFiltersRow = typeof discoveryFilters.$inferSelect;
