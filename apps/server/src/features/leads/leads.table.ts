import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { TMatchReason } from '@threadreach/contract';
import { redditItems } from '../discovery/discovery.table';
import { projects } from '../projects/projects.table';

/**
 * A post or comment that matched a project, with why: the keywords, their places, and an intent score.
 * A dismissed lead stays as a tombstone so a later search does not bring it back.
 */
export const leads = pgTable(
  'leads',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    itemName: text('item_name')
      .notNull()
      .references(() => redditItems.name),
    /** 'post' or 'comment'. */
    kind: text('kind').notNull(),
    author: text('author').notNull(),
    subreddit: text('subreddit').notNull(),
    matchedKeywords: text('matched_keywords').array().notNull(),
    matches: jsonb('matches').$type<TMatchReason[]>().notNull(),
    intentScore: integer('intent_score').notNull(),
    intentReasons: jsonb('intent_reasons').$type<string[]>().notNull(),
    itemCreatedAt: timestamp('item_created_at', { withTimezone: true }).notNull(),
    foundAt: timestamp('found_at', { withTimezone: true }).notNull(),
    dismissedAt: timestamp('dismissed_at', { withTimezone: true }),
    /** When the project's webhook accepted it. */
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('leads_project_item_uq').on(t.projectId, t.itemName),
    index('leads_project_kind_created_idx').on(t.projectId, t.kind, t.itemCreatedAt),
    // The results lists' "highest intent first": a page is read in order instead of sorting every lead.
    index('leads_project_kind_intent_idx').on(t.projectId, t.kind, t.intentScore, t.itemCreatedAt),
    index('leads_item_idx').on(t.itemName),
    index('leads_found_idx').on(t.foundAt),
    // A project's statistics: its leads by the day they were found.
    index('leads_project_found_idx').on(t.projectId, t.foundAt),
    // A profile's lead count.
    index('leads_project_author_idx').on(t.projectId, t.author),
    // Whether any project still has a lead of an author (the shared author cache's pruning).
    index('leads_author_found_idx').on(sql`lower(${t.author})`, t.foundAt),
    // What a project's webhook has still to receive; delivered leads leave the index.
    index('leads_undelivered_idx')
      .on(t.projectId, t.foundAt)
      .where(sql`${t.deliveredAt} is null`),
  ],
);
export type LeadRow = typeof leads.$inferSelect;

/** A person behind a project's matches; their Reddit profile comes from the shared author cache. */
export const profiles = pgTable(
  'profiles',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    redditUsername: text('reddit_username').notNull(),
    matchedKeywords: text('matched_keywords').array().notNull(),
    intentScore: integer('intent_score').notNull(),
    intentReasons: jsonb('intent_reasons').$type<string[]>().notNull(),
    foundAt: timestamp('found_at', { withTimezone: true }).notNull(),
    lastFoundAt: timestamp('last_found_at', { withTimezone: true }).notNull(),
    dismissedAt: timestamp('dismissed_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('profiles_project_username_uq').on(t.projectId, t.redditUsername),
    index('profiles_project_found_idx').on(t.projectId, t.lastFoundAt),
    // The Users tab's "highest intent first", read in order as the leads' is.
    index('profiles_project_intent_idx').on(t.projectId, t.intentScore, t.lastFoundAt),
  ],
);
export type ProfileRow = typeof profiles.$inferSelect;

/** Where a project's new leads are POSTed, and the secret they are signed with (encrypted). */
export const projectWebhooks = pgTable('project_webhooks', {
  projectId: uuid('project_id')
    .primaryKey()
    .references(() => projects.id, { onDelete: 'cascade' }),
  url: text('url').notNull(),
  secretCiphertext: text('secret_ciphertext').notNull(),
  secretLast4: text('secret_last4').notNull(),
  enabled: boolean('enabled').notNull().default(true),
  /** Leads found from this instant on are delivered: set when the webhook is created or enabled again. */
  activeSince: timestamp('active_since', { withTimezone: true }).notNull(),
  /** Failed deliveries in a row; each one doubles the wait before the next attempt. */
  failedAttempts: integer('failed_attempts').notNull().default(0),
  nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
  /** When a delivery was last attempted, and how it ended (the HTTP status, or why it could not be sent). */
  lastDeliveryAt: timestamp('last_delivery_at', { withTimezone: true }),
  lastStatus: text('last_status'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
export type ProjectWebhookRow = typeof projectWebhooks.$inferSelect;
