import { sql } from 'drizzle-orm';
import { index, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from '../users/users.table';

/** Why a person is on a workspace's do-not-contact list. */
export const SUPPRESSION_REASONS = [
  'refusal',
  'user_doesnt_exist',
  'not_whitelisted',
  'manual',
  'import',
  'contacted',
] as const;
export type SuppressionReason = (typeof SUPPRESSION_REASONS)[number];

/** A workspace's do-not-contact list: nobody on it is ever sent a DM from any of its projects. */
export const suppressions = pgTable(
  'suppressions',
  {
    ownerUserId: uuid('owner_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** lower(username). */
    usernameKey: text('username_key').notNull(),
    username: text('username').notNull(),
    reason: text('reason').$type<SuppressionReason>().notNull(),
    note: text('note'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.ownerUserId, t.usernameKey] }),
    index('suppressions_owner_created_idx').on(t.ownerUserId, sql`${t.createdAt} desc`),
  ],
);
export type SuppressionRow = typeof suppressions.$inferSelect;
