import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { TDmSourceType, TSendOutcomeCode } from '@threadreach/contract';
import { redditAccounts } from '../accounts/accounts.table';
import { leads, profiles } from '../leads/leads.table';
import { projects } from '../projects/projects.table';
import { users } from '../users/users.table';

/**
 * draft -> approved -> queued -> sending -> sent | failed | unknown -> (reconciled) sent | failed;
 * unsent drafts of old leads become expired (DESIGN.md §4 "DM sending").
 */
export const DM_STATES = [
  'draft',
  'approved',
  'queued',
  'sending',
  'sent',
  'failed',
  'unknown',
  'expired',
] as const;
export type DmState = (typeof DM_STATES)[number];
/** States in which the recipient counts as contacted: the workspace-wide unique index covers them. */
export const CONTACTED_DM_STATES = ['sending', 'sent', 'unknown'] as const satisfies readonly DmState[];

/** What a DM taken back from the queue becomes: unsent (approved) again, off its account and plan, with why. */
export function unqueuedChanges(code: TSendOutcomeCode | null, reason: string, now: Date) {
  return {
    state: 'approved',
    accountId: null,
    scheduledFor: null,
    delayFloorMin: null,
    delayFloorMax: null,
    dailyCap: null,
    claimedAt: null,
    senderKey: null,
    outcomeCode: code,
    outcomeReason: reason,
    updatedAt: now,
  } as const;
}

export const dmMessages = pgTable(
  'dm_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    /** The workspace (project owner): one contact per Reddit user per workspace. */
    ownerUserId: uuid('owner_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    sourceType: text('source_type').$type<TDmSourceType>().notNull(),
    leadId: uuid('lead_id').references(() => leads.id, { onDelete: 'set null' }),
    profileId: uuid('profile_id').references(() => profiles.id, { onDelete: 'set null' }),
    /** The post id, or comment_<id> / profile_<id> for the other sources (spec section 3). */
    redditPostId: text('reddit_post_id').notNull(),
    postTitle: text('post_title'),
    postContent: text('post_content'),
    commentContent: text('comment_content'),
    subreddit: text('subreddit'),
    matchedKeywords: text('matched_keywords').array().notNull(),
    recipientUsername: text('recipient_username').notNull(),
    /** lower(recipient_username): what uniqueness and suppression compare. */
    recipientKey: text('recipient_key').notNull(),
    subject: text('subject').notNull(),
    messageContent: text('message_content').notNull(),
    /** The text as the AI wrote it (or last regenerated it): a saved edit differs from it. */
    originalContent: text('original_content').notNull(),
    variant: integer('variant').notNull().default(0),
    state: text('state').$type<DmState>().notNull().default('approved'),
    /** The account that sends (set when queued or claimed). */
    accountId: uuid('account_id').references(() => redditAccounts.id, { onDelete: 'set null' }),
    /** Queued: not before this instant. */
    scheduledFor: timestamp('scheduled_for', { withTimezone: true }),
    /**
     * Queued by a sender with limits of its own (the agent): the seconds it asks between sends and the
     * DMs it allows one account a day, kept so that planning the DM again later keeps to them.
     */
    delayFloorMin: integer('delay_floor_min'),
    delayFloorMax: integer('delay_floor_max'),
    dailyCap: integer('daily_cap'),
    claimedAt: timestamp('claimed_at', { withTimezone: true }),
    /**
     * The claiming account's Reddit username, lower case: its claims keep counting toward that Reddit
     * account's day and pace after the connection that made them is removed.
     */
    senderKey: text('sender_key'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    failedAt: timestamp('failed_at', { withTimezone: true }),
    /** Why it failed, was rescheduled or is unknown: a stable code and a readable reason. */
    outcomeCode: text('outcome_code'),
    outcomeReason: text('outcome_reason'),
    attempts: integer('attempts').notNull().default(0),
    repliedAt: timestamp('replied_at', { withTimezone: true }),
    editedAt: timestamp('edited_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    // One contact per Reddit user per workspace, even under racing senders.
    uniqueIndex('dm_messages_contacted_uq')
      .on(t.ownerUserId, t.recipientKey)
      .where(sql`${t.state} in ('sending', 'sent', 'unknown')`),
    uniqueIndex('dm_messages_project_source_uq').on(t.projectId, t.redditPostId),
    index('dm_messages_project_created_idx').on(t.projectId, t.createdAt),
    index('dm_messages_owner_recipient_idx').on(t.ownerUserId, t.recipientKey),
    // Today's quota and pace of a Reddit account in the workspace: its claims by time.
    index('dm_messages_sender_claimed_idx')
      .on(t.ownerUserId, t.senderKey, t.claimedAt)
      .where(sql`${t.claimedAt} is not null`),
    index('dm_messages_due_idx')
      .on(t.scheduledFor)
      .where(sql`${t.state} = 'queued'`),
    index('dm_messages_unknown_idx')
      .on(t.accountId)
      .where(sql`${t.state} = 'unknown'`),
    // Statistics count each outcome by its own instant, per project and over every project.
    index('dm_messages_created_idx').on(t.createdAt),
    index('dm_messages_project_sent_idx')
      .on(t.projectId, t.sentAt)
      .where(sql`${t.state} = 'sent'`),
    index('dm_messages_sent_idx')
      .on(t.sentAt)
      .where(sql`${t.state} = 'sent'`),
    index('dm_messages_project_failed_idx')
      .on(t.projectId, t.failedAt)
      .where(sql`${t.state} = 'failed'`),
    index('dm_messages_project_expired_idx')
      .on(t.projectId, t.updatedAt)
      .where(sql`${t.state} = 'expired'`),
    // The DM list's count of people Send All would queue looks at the project's approved DMs only.
    index('dm_messages_project_approved_idx')
      .on(t.projectId, t.recipientKey)
      .where(sql`${t.state} = 'approved'`),
  ],
);

/**
 * Claims of DMs that went with their deleted project, kept for two days: the sending Reddit account's day
 * and pace still count them, so deleting a project gives its accounts no fresh quota elsewhere.
 */
export const dmClaimsKept = pgTable(
  'dm_claims_kept',
  {
    ownerUserId: uuid('owner_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    senderKey: text('sender_key').notNull(),
    claimedAt: timestamp('claimed_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('dm_claims_kept_sender_idx').on(t.ownerUserId, t.senderKey, t.claimedAt)],
);
export type DmMessageRow = typeof dmMessages.$inferSelect;

/** A DM the customer edited and saved: agent mode learns how they write from these (spec section 3). */
export const messageExamples = pgTable(
  'message_examples',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    dmId: uuid('dm_id').references(() => dmMessages.id, { onDelete: 'set null' }),
    exampleType: text('example_type').notNull().default('user_approved'),
    finalMessage: text('final_message').notNull(),
    originalGenerated: text('original_generated').notNull(),
    originalContext: jsonb('original_context')
      .$type<{ source_type: TDmSourceType; source_id: string }>()
      .notNull(),
    postTitle: text('post_title'),
    postContent: text('post_content'),
    subreddit: text('subreddit'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('message_examples_project_idx').on(t.projectId, t.createdAt)],
);
export type MessageExampleRow = typeof messageExamples.$inferSelect;
