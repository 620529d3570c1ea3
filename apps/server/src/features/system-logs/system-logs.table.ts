import { sql } from 'drizzle-orm';
import { bigint, index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { LOG_LEVELS } from '@threadreach/contract';

/**
 * Every log line of the server, HTTP access and AI engine, written in batches for /logs and pruned after
 * SYSTEM_LOG_RETENTION_DAYS. `fields` keeps a line's scalar context, scrubbed of secrets.
 */
export const systemLogs = pgTable(
  'system_logs',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    timestamp: timestamp('timestamp', { withTimezone: true }).notNull(),
    level: text('level', { enum: LOG_LEVELS }).notNull(),
    logger: text('logger').notNull(),
    message: text('message').notNull(),
    fields: jsonb('fields').$type<Record<string, unknown>>(),
  },
  (t) => [
    index('system_logs_time_idx').on(t.timestamp),
    index('system_logs_level_time_idx').on(t.level, t.timestamp),
    index('system_logs_logger_time_idx').on(t.logger, t.timestamp),
    // Free-text search is a substring match; trigrams keep it indexed.
    index('system_logs_message_trgm_idx').using('gin', sql`${t.message} gin_trgm_ops`),
  ],
);
export type SystemLogRow = typeof systemLogs.$inferSelect;
export type NewSystemLogRow = typeof systemLogs.$inferInsert;
