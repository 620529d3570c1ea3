CREATE TABLE "agent_logs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"project_id" uuid NOT NULL,
	"activity_type" text NOT NULL,
	"success" boolean NOT NULL,
	"message" text NOT NULL,
	"details" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "agent_patterns" (
	"project_id" uuid PRIMARY KEY NOT NULL,
	"patterns" jsonb NOT NULL,
	"examples_used" integer NOT NULL,
	"learned_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "agent_settings" (
	"project_id" uuid PRIMARY KEY NOT NULL,
	"mode" text DEFAULT 'assistant' NOT NULL,
	"learning_stage_completed" boolean DEFAULT false NOT NULL,
	"is_active" boolean DEFAULT false NOT NULL,
	"daily_dm_limit_per_profile" integer DEFAULT 30 NOT NULL,
	"delay_range_min" integer DEFAULT 30 NOT NULL,
	"delay_range_max" integer DEFAULT 120 NOT NULL,
	"working_days" integer[] DEFAULT ARRAY[1,2,3,4,5]::integer[] NOT NULL,
	"working_hours_start" integer DEFAULT 9 NOT NULL,
	"working_hours_end" integer DEFAULT 17 NOT NULL,
	"timezone" text DEFAULT 'UTC' NOT NULL,
	"min_intent_score" integer DEFAULT 40 NOT NULL,
	"paused_reason" text,
	"run_started_at" timestamp with time zone,
	"last_run_at" timestamp with time zone,
	"next_run_at" timestamp with time zone,
	"learned_until" timestamp with time zone,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "behavior_logs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"project_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"action_type" text NOT NULL,
	"metadata" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "agent_logs" ADD CONSTRAINT "agent_logs_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_patterns" ADD CONSTRAINT "agent_patterns_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_settings" ADD CONSTRAINT "agent_settings_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "behavior_logs" ADD CONSTRAINT "behavior_logs_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "behavior_logs" ADD CONSTRAINT "behavior_logs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "agent_logs_project_idx" ON "agent_logs" USING btree ("project_id","created_at");--> statement-breakpoint
CREATE INDEX "behavior_logs_project_idx" ON "behavior_logs" USING btree ("project_id","created_at");