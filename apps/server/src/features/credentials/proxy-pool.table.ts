import { index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { redditCredentials } from './credentials.table';

/** The proxy a credential's traffic currently leaves through. proxy_url holds ciphertext. */
export const credentialProxies = pgTable('credential_proxies', {
  credentialId: uuid('credential_id')
    .primaryKey()
    .references(() => redditCredentials.id, { onDelete: 'cascade' }),
  proxyUrl: text('proxy_url').notNull(),
  proxyMasked: text('proxy_masked').notNull(),
  healthStatus: text('health_status', { enum: ['healthy', 'degraded', 'failed'] }),
  successCount: integer('success_count').notNull().default(0),
  failureCount: integer('failure_count').notNull().default(0),
  consecutiveFailures: integer('consecutive_failures').notNull().default(0),
  lastHealthCheck: timestamp('last_health_check', { withTimezone: true }),
  lastError: text('last_error'),
  replacementCount: integer('replacement_count').notNull().default(0),
  assignedAt: timestamp('assigned_at', { withTimezone: true }).notNull().defaultNow(),
});
export type CredentialProxyRow = typeof credentialProxies.$inferSelect;

/** One row per replaced proxy, for the pool's 24-hour replacement figures. */
export const proxyReplacements = pgTable(
  'proxy_replacements',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    credentialId: uuid('credential_id')
      .notNull()
      .references(() => redditCredentials.id, { onDelete: 'cascade' }),
    oldProxyMasked: text('old_proxy_masked').notNull(),
    reason: text('reason').notNull(),
    replacedAt: timestamp('replaced_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('proxy_replacements_time_idx').on(t.replacedAt)],
);
