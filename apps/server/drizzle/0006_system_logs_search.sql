DROP INDEX "system_logs_message_trgm_idx";--> statement-breakpoint
CREATE INDEX "system_logs_message_lower_trgm_idx" ON "system_logs" USING gin (lower("message") gin_trgm_ops);--> statement-breakpoint
-- Messages are varied: a finer sample of lower(message) helps the planner weigh a search against the time index.
ALTER INDEX "system_logs_message_lower_trgm_idx" ALTER COLUMN 1 SET STATISTICS 1000;
