import { sql } from 'drizzle-orm';
import { bigint, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { LOG_LEVELS } from '@threadreach/contract';

/**
 * Every log line of the server, HTTP access and AI engine, written in batches for /logs and pruned after
 * SYSTEM_LOG_RETENTION_DAYS: what /logs shows of it. A line's other fields stay on stdout (record 020).
 */
export const systemLogs = pgTable(
  'system_logs',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    timestamp: timestamp('timestamp', { withTimezone: true }).notNull(),
    level: text('level', { enum: LOG_LEVELS }).notNull(),
    logger: text('logger').notNull(),
    message: text('message').notNull(),
  },
  (t) => [
    index('system_logs_time_idx').on(t.timestamp),
    index('system_logs_level_time_idx').on(t.level, t.timestamp),
    index('system_logs_logger_time_idx').on(t.logger, t.timestamp),
    // Free-text search is a case-blind substring match (`lower(message) LIKE`); trigrams keep it indexed.
    // Migration 0006 raises this expression's statistics target, which drizzle cannot declare.
    index('system_logs_message_lower_trgm_idx').using('gin', sql`lower(${t.message}) gin_trgm_ops`),
  ],
);
export type SystemLogRow = typeof systemLogs.$inferSelect;
export type NewSystemLogRow = typeof systemLogs.$inferInsert;

/**
 * Lines per hour, level and logger, written in the same transaction as the lines and pruned with them by
 * whole hours: the per-level counts of a long range add up hours instead of counting every line.
 */
export const systemLogCounts = pgTable(
  'system_log_counts',
  {
    hour: timestamp('hour', { withTimezone: true }).notNull(),
    level: text('level', { enum: LOG_LEVELS }).notNull(),
    logger: text('logger').notNull(),
    lines: integer('lines').notNull(),
  },
  (t) => [primaryKey({ columns: [t.hour, t.level, t.logger] })],
);
