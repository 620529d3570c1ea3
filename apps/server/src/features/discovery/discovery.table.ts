import { boolean, index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { projects } from '../projects/projects.table';

/**
 * Every subreddit some project approved, in a stable multireddit group of at most 100: a subreddit keeps
 * its group while anyone approves it, so each group's cursors stay meaningful as projects come and go.
 * Shared by all tenants; holds no customer data.
 */
export const discoveryStreams = pgTable(
  'discovery_streams',
  {
    /** Lower-case name. */
    subreddit: text('subreddit').primaryKey(),
    groupNo: integer('group_no').notNull(),
    joinedAt: timestamp('joined_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('discovery_streams_group_idx').on(t.groupNo)],
);

/** The newest item read per group and listing ('t3' new posts, 't1' new comments). */
export const discoveryCursors = pgTable(
  'discovery_cursors',
  {
    groupNo: integer('group_no').notNull(),
    kind: text('kind').notNull(),
    /** Fullname of the newest item seen: the next read asks for `before` it. */
    beforeName: text('before_name'),
    newestCreatedAt: timestamp('newest_created_at', { withTimezone: true }),
    /** Items skipped because a gap was deeper than Reddit's 1000-item listing cap. */
    missedItems: integer('missed_items').notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.groupNo, t.kind] })],
);
export type DiscoveryCursorRow = typeof discoveryCursors.$inferSelect;

/** Posts and comments some project matched (unmatched items are never stored). Shared by all tenants. */
export const redditItems = pgTable(
  'reddit_items',
  {
    /** Reddit's fullname: t3_... or t1_... */
    name: text('name').primaryKey(),
    kind: text('kind').notNull(),
    subreddit: text('subreddit').notNull(),
    author: text('author').notNull(),
    /** Posts: the title; comments: the title of their post. */
    title: text('title').notNull().default(''),
    body: text('body').notNull().default(''),
    permalink: text('permalink').notNull(),
    score: integer('score').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    fetchedAt: timestamp('fetched_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('reddit_items_created_idx').on(t.createdAt)],
);
export type RedditItemRow = typeof redditItems.$inferSelect;

/**
 * What `/user/{name}/about` said about an author, read once for every tenant. Kept while some lead names
 * the author; pruned once none does and it was read before LEAD_RETENTION_DAYS.
 */
export const redditAuthors = pgTable(
  'reddit_authors',
  {
    /** Lower-case name. */
    nameLower: text('name_lower').primaryKey(),
    name: text('name').notNull(),
    accountCreatedAt: timestamp('account_created_at', { withTimezone: true }),
    commentKarma: integer('comment_karma'),
    linkKarma: integer('link_karma'),
    /** The profile's description (subreddit.public_description). */
    bio: text('bio').notNull().default(''),
    /** Deleted, suspended or shadow-banned: no profile to read. */
    missing: boolean('missing').notNull().default(false),
    fetchedAt: timestamp('fetched_at', { withTimezone: true }).notNull(),
  },
  // Pruning walks the profiles read before its cutoff, oldest first.
  (t) => [index('reddit_authors_fetched_idx').on(t.fetchedAt, t.nameLower)],
);
export type RedditAuthorRow = typeof redditAuthors.$inferSelect;

/**
 * Authors whose `/user/{name}/about` Reddit did not answer (a 5xx, a broken connection), not yet in
 * `reddit_authors`: they are read again after the others, so one profile Reddit keeps failing cannot hold
 * the rest back. The row goes once the author is read, or once no lead of the author is recent enough to
 * have it read.
 */
export const redditAuthorsUnanswered = pgTable(
  'reddit_authors_unanswered',
  {
    /** Lower-case name. */
    nameLower: text('name_lower').primaryKey(),
    /** The last look-up that got no answer. */
    unansweredAt: timestamp('unanswered_at', { withTimezone: true }).notNull(),
  },
  // Pruning walks the notes older than the look-up window, oldest first.
  (t) => [index('reddit_authors_unanswered_at_idx').on(t.unansweredAt, t.nameLower)],
);

/** One row per search a project ran (by hand, on approval, or by the agent): what statistics count. */
export const discoverySearches = pgTable(
  'discovery_searches',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    /** 'enhanced', 'posts', 'backfill' or 'agent'. */
    trigger: text('trigger').notNull(),
    status: text('status').notNull(),
    postsFound: integer('posts_found').notNull().default(0),
    commentsFound: integer('comments_found').notNull().default(0),
    profilesFound: integer('profiles_found').notNull().default(0),
    requests: integer('requests').notNull().default(0),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    index('discovery_searches_project_idx').on(t.projectId, t.startedAt),
    // The statistics of every project at once.
    index('discovery_searches_started_idx').on(t.startedAt),
  ],
);
