import { bigserial, date, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The shared request budget of each OAuth client id: one row per client (locked while a slot is
 * taken) and one row per request in the rolling window. Lives in the database so every process
 * honours the same 100 requests/minute.
 */
export const redditRateLimits = pgTable('reddit_rate_limits', {
  clientKey: text('client_key').primaryKey(),
  /** Set from Retry-After / X-Ratelimit-Reset: no request before this instant. */
  blockedUntil: timestamp('blocked_until', { withTimezone: true, precision: 3 }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const redditRequestSlots = pgTable(
  'reddit_request_slots',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    clientKey: text('client_key').notNull(),
    takenAt: timestamp('taken_at', { withTimezone: true, precision: 3 }).notNull(),
  },
  (t) => [index('reddit_request_slots_client_time_idx').on(t.clientKey, t.takenAt)],
);

/** Cached OAuth access tokens (ciphertext), shared by all processes. subject: 'app' or an account id. */
export const redditAccessTokens = pgTable(
  'reddit_access_tokens',
  {
    credentialId: text('credential_id').notNull(),
    subject: text('subject').notNull(),
    accessToken: text('access_token').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.credentialId, t.subject] })],
);

/** Requests per credential, day and endpoint, for the efficiency statistics. */
export const redditRequestStats = pgTable(
  'reddit_request_stats',
  {
    credentialId: text('credential_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    endpoint: text('endpoint').notNull(),
    requests: integer('requests').notNull().default(0),
    successes: integer('successes').notNull().default(0),
    failures: integer('failures').notNull().default(0),
    proxied: integer('proxied').notNull().default(0),
    lastAt: timestamp('last_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.credentialId, t.day, t.endpoint] }),
    index('reddit_request_stats_day_idx').on(t.day),
  ],
);
