import { boolean, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { redditAccounts } from '../accounts/accounts.table';
import { dmMessages } from '../dms/dms.table';
import { projects } from '../projects/projects.table';

/** A recipient's answer to one of our DMs, read from the sending account's inbox. */
export const dmReplies = pgTable(
  'dm_replies',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    dmId: uuid('dm_id')
      .notNull()
      .references(() => dmMessages.id, { onDelete: 'cascade' }),
    accountId: uuid('account_id').references(() => redditAccounts.id, { onDelete: 'set null' }),
    /** Reddit's fullname of the inbox item (t4_…), so a poll never stores it twice. */
    redditName: text('reddit_name').notNull(),
    author: text('author').notNull(),
    body: text('body').notNull(),
    /** The reply asks not to be contacted: the author is suppressed for the workspace. */
    isRefusal: boolean('is_refusal').notNull().default(false),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('dm_replies_dm_name_uq').on(t.dmId, t.redditName),
    index('dm_replies_project_received_idx').on(t.projectId, t.receivedAt),
    // The statistics of every project at once.
    index('dm_replies_received_idx').on(t.receivedAt),
  ],
);
export type DmReplyRow = typeof dmReplies.$inferSelect;
