import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { redditCredentials } from '../credentials/credentials.table';
import { projects } from '../projects/projects.table';
import { users } from '../users/users.table';

/**
 * A customer's Reddit account connected to one project through a send credential. The refresh token is
 * ciphertext (security/secrets.ts); sending settings follow spec section 3 "Account sending settings".
 */
export const redditAccounts = pgTable(
  'reddit_accounts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    /** The workspace: the project owner's user id. */
    ownerUserId: uuid('owner_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The send credential (OAuth client) the grant belongs to; gone means the account must sign in again. */
    credentialId: uuid('credential_id').references(() => redditCredentials.id, { onDelete: 'set null' }),
    redditUsername: text('reddit_username').notNull(),
    /** Reddit's own id of the account (t2_…), stable across renames. */
    redditUserId: text('reddit_user_id'),
    accountCreatedAt: timestamp('account_created_at', { withTimezone: true }),
    commentKarma: integer('comment_karma').notNull().default(0),
    linkKarma: integer('link_karma').notNull().default(0),
    refreshTokenCiphertext: text('refresh_token_ciphertext'),
    /** valid | expired | revoked: anything but valid shows Auth Required. */
    authStatus: text('auth_status').notNull().default('valid'),
    authCheckedAt: timestamp('auth_checked_at', { withTimezone: true }),
    isActive: boolean('is_active').notNull().default(true),
    /** Why the account no longer sends (a suspended sender), shown in its status. */
    disabledReason: text('disabled_reason'),
    dailyMessageLimit: integer('daily_message_limit').notNull().default(10),
    delayRangeMin: integer('delay_range_min').notNull().default(30),
    delayRangeMax: integer('delay_range_max').notNull().default(120),
    workingDays: integer('working_days')
      .array()
      .notNull()
      .default(sql`ARRAY[1,2,3,4,5]::integer[]`),
    workingHoursStart: integer('working_hours_start').notNull().default(9),
    workingHoursEnd: integer('working_hours_end').notNull().default(17),
    timezone: text('timezone').notNull().default('UTC'),
    /** Sends claimed before this instant do not count toward today's quota (admin Reset Daily Limits). */
    quotaResetAt: timestamp('quota_reset_at', { withTimezone: true }),
    /**
     * After a change of time zone, today's count starts no later than `quotaFloorAt` (the day's start in the
     * zone before) until `quotaFloorUntil` (that day's end): moving the zone west gives no fresh day.
     */
    quotaFloorAt: timestamp('quota_floor_at', { withTimezone: true }),
    quotaFloorUntil: timestamp('quota_floor_until', { withTimezone: true }),
    /** The earliest instant of this account's next paced send. */
    nextSendAt: timestamp('next_send_at', { withTimezone: true }),
    /** Inbox polling: when it last ran, and the newest message name already read. */
    inboxCheckedAt: timestamp('inbox_checked_at', { withTimezone: true }),
    inboxCursor: text('inbox_cursor'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('reddit_accounts_project_username_uq').on(t.projectId, sql`lower(${t.redditUsername})`),
    index('reddit_accounts_owner_idx').on(t.ownerUserId),
    // Finds a Reddit account's connections in every workspace (one workspace may hold it).
    index('reddit_accounts_username_idx').on(sql`lower(${t.redditUsername})`),
  ],
);
export type RedditAccountRow = typeof redditAccounts.$inferSelect;

/** A pending Reddit sign-in: the server-kept OAuth state and what it was started for. */
export const redditAuthStates = pgTable(
  'reddit_auth_states',
  {
    state: text('state').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    credentialId: uuid('credential_id')
      .notNull()
      .references(() => redditCredentials.id, { onDelete: 'cascade' }),
    /** The account being re-authenticated, or null for a new one. */
    accountId: uuid('account_id').references(() => redditAccounts.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('reddit_auth_states_user_idx').on(t.userId, t.expiresAt)],
);
