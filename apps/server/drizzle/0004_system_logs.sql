CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE TABLE "system_log_counts" (
	"hour" timestamp with time zone NOT NULL,
	"level" text NOT NULL,
	"logger" text NOT NULL,
	"lines" integer NOT NULL,
	CONSTRAINT "system_log_counts_hour_level_logger_pk" PRIMARY KEY("hour","level","logger")
);
--> statement-breakpoint
CREATE TABLE "system_logs" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "system_logs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"timestamp" timestamp with time zone NOT NULL,
	"level" text NOT NULL,
	"logger" text NOT NULL,
	"message" text NOT NULL,
	"fields" jsonb
);
--> statement-breakpoint
CREATE INDEX "system_logs_time_idx" ON "system_logs" USING btree ("timestamp");--> statement-breakpoint
CREATE INDEX "system_logs_level_time_idx" ON "system_logs" USING btree ("level","timestamp");--> statement-breakpoint
CREATE INDEX "system_logs_logger_time_idx" ON "system_logs" USING btree ("logger","timestamp");--> statement-breakpoint
CREATE INDEX "system_logs_message_trgm_idx" ON "system_logs" USING gin ("message" gin_trgm_ops);