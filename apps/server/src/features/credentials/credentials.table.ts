import { boolean, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

/** Reddit API credentials managed by admins. client_secret holds ciphertext (security/secrets.ts). */
export const redditCredentials = pgTable(
  'reddit_credentials',
  {
    id: uuid('id').primaryKey(),
    type: text('type', { enum: ['search', 'send'] }).notNull(),
    accountName: text('account_name').notNull(),
    clientId: text('client_id').notNull(),
    clientSecret: text('client_secret').notNull(),
    description: text('description'),
    enabled: boolean('enabled').notNull().default(true),
    proxyCountry: text('proxy_country'),
    proxyState: text('proxy_state'),
    proxyCity: text('proxy_city'),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    /** When Reddit last refused the client id and secret themselves (401); cleared once it accepts them. */
    refusedAt: timestamp('refused_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('reddit_credentials_client_id_key').on(t.clientId),
    index('reddit_credentials_type_idx').on(t.type, t.enabled),
  ],
);
export type CredentialRow = typeof redditCredentials.$inferSelect;
