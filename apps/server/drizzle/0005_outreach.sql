CREATE TABLE "reddit_accounts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"project_id" uuid NOT NULL,
	"owner_user_id" uuid NOT NULL,
	"credential_id" uuid,
	"reddit_username" text NOT NULL,
	"reddit_user_id" text,
	"account_created_at" timestamp with time zone,
	"comment_karma" integer DEFAULT 0 NOT NULL,
	"link_karma" integer DEFAULT 0 NOT NULL,
	"refresh_token_ciphertext" text,
	"auth_status" text DEFAULT 'valid' NOT NULL,
	"auth_checked_at" timestamp with time zone,
	"is_active" boolean DEFAULT true NOT NULL,
	"disabled_reason" text,
	"daily_message_limit" integer DEFAULT 10 NOT NULL,
	"delay_range_min" integer DEFAULT 30 NOT NULL,
	"delay_range_max" integer DEFAULT 120 NOT NULL,
	"working_days" integer[] DEFAULT ARRAY[1,2,3,4,5]::integer[] NOT NULL,
	"working_hours_start" integer DEFAULT 9 NOT NULL,
	"working_hours_end" integer DEFAULT 17 NOT NULL,
	"timezone" text DEFAULT 'UTC' NOT NULL,
	"quota_reset_at" timestamp with time zone,
	"next_send_at" timestamp with time zone,
	"inbox_checked_at" timestamp with time zone,
	"inbox_cursor" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reddit_auth_states" (
	"state" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"project_id" uuid NOT NULL,
	"credential_id" uuid NOT NULL,
	"account_id" uuid,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "dm_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"project_id" uuid NOT NULL,
	"owner_user_id" uuid NOT NULL,
	"source_type" text NOT NULL,
	"lead_id" uuid,
	"profile_id" uuid,
	"reddit_post_id" text NOT NULL,
	"post_title" text,
	"post_content" text,
	"comment_content" text,
	"subreddit" text,
	"matched_keywords" text[] NOT NULL,
	"recipient_username" text NOT NULL,
	"recipient_key" text NOT NULL,
	"subject" text NOT NULL,
	"message_content" text NOT NULL,
	"original_content" text NOT NULL,
	"variant" integer DEFAULT 0 NOT NULL,
	"state" text DEFAULT 'approved' NOT NULL,
	"account_id" uuid,
	"scheduled_for" timestamp with time zone,
	"claimed_at" timestamp with time zone,
	"sent_at" timestamp with time zone,
	"failed_at" timestamp with time zone,
	"outcome_code" text,
	"outcome_reason" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"replied_at" timestamp with time zone,
	"edited_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "message_examples" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"project_id" uuid NOT NULL,
	"dm_id" uuid,
	"example_type" text DEFAULT 'user_approved' NOT NULL,
	"final_message" text NOT NULL,
	"original_generated" text NOT NULL,
	"original_context" jsonb NOT NULL,
	"post_title" text,
	"post_content" text,
	"subreddit" text,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "dm_replies" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"project_id" uuid NOT NULL,
	"dm_id" uuid NOT NULL,
	"account_id" uuid,
	"reddit_name" text NOT NULL,
	"author" text NOT NULL,
	"body" text NOT NULL,
	"is_refusal" boolean DEFAULT false NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "suppressions" (
	"owner_user_id" uuid NOT NULL,
	"username_key" text NOT NULL,
	"username" text NOT NULL,
	"reason" text NOT NULL,
	"note" text,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "suppressions_owner_user_id_username_key_pk" PRIMARY KEY("owner_user_id","username_key")
);
--> statement-breakpoint
ALTER TABLE "reddit_accounts" ADD CONSTRAINT "reddit_accounts_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reddit_accounts" ADD CONSTRAINT "reddit_accounts_owner_user_id_users_id_fk" FOREIGN KEY ("owner_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reddit_accounts" ADD CONSTRAINT "reddit_accounts_credential_id_reddit_credentials_id_fk" FOREIGN KEY ("credential_id") REFERENCES "public"."reddit_credentials"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reddit_auth_states" ADD CONSTRAINT "reddit_auth_states_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reddit_auth_states" ADD CONSTRAINT "reddit_auth_states_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reddit_auth_states" ADD CONSTRAINT "reddit_auth_states_credential_id_reddit_credentials_id_fk" FOREIGN KEY ("credential_id") REFERENCES "public"."reddit_credentials"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reddit_auth_states" ADD CONSTRAINT "reddit_auth_states_account_id_reddit_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."reddit_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dm_messages" ADD CONSTRAINT "dm_messages_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dm_messages" ADD CONSTRAINT "dm_messages_owner_user_id_users_id_fk" FOREIGN KEY ("owner_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dm_messages" ADD CONSTRAINT "dm_messages_lead_id_leads_id_fk" FOREIGN KEY ("lead_id") REFERENCES "public"."leads"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dm_messages" ADD CONSTRAINT "dm_messages_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dm_messages" ADD CONSTRAINT "dm_messages_account_id_reddit_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."reddit_accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_examples" ADD CONSTRAINT "message_examples_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_examples" ADD CONSTRAINT "message_examples_dm_id_dm_messages_id_fk" FOREIGN KEY ("dm_id") REFERENCES "public"."dm_messages"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dm_replies" ADD CONSTRAINT "dm_replies_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dm_replies" ADD CONSTRAINT "dm_replies_dm_id_dm_messages_id_fk" FOREIGN KEY ("dm_id") REFERENCES "public"."dm_messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dm_replies" ADD CONSTRAINT "dm_replies_account_id_reddit_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."reddit_accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "suppressions" ADD CONSTRAINT "suppressions_owner_user_id_users_id_fk" FOREIGN KEY ("owner_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "reddit_accounts_project_username_uq" ON "reddit_accounts" USING btree ("project_id",lower("reddit_username"));--> statement-breakpoint
CREATE INDEX "reddit_accounts_owner_idx" ON "reddit_accounts" USING btree ("owner_user_id");--> statement-breakpoint
CREATE INDEX "reddit_auth_states_user_idx" ON "reddit_auth_states" USING btree ("user_id","expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "dm_messages_contacted_uq" ON "dm_messages" USING btree ("owner_user_id","recipient_key") WHERE "dm_messages"."state" in ('sending', 'sent', 'unknown');--> statement-breakpoint
CREATE UNIQUE INDEX "dm_messages_project_source_uq" ON "dm_messages" USING btree ("project_id","reddit_post_id");--> statement-breakpoint
CREATE INDEX "dm_messages_project_created_idx" ON "dm_messages" USING btree ("project_id","created_at");--> statement-breakpoint
CREATE INDEX "dm_messages_owner_recipient_idx" ON "dm_messages" USING btree ("owner_user_id","recipient_key");--> statement-breakpoint
CREATE INDEX "dm_messages_account_claimed_idx" ON "dm_messages" USING btree ("account_id","claimed_at") WHERE "dm_messages"."claimed_at" is not null;--> statement-breakpoint
CREATE INDEX "dm_messages_due_idx" ON "dm_messages" USING btree ("scheduled_for") WHERE "dm_messages"."state" = 'queued';--> statement-breakpoint
CREATE INDEX "dm_messages_unknown_idx" ON "dm_messages" USING btree ("account_id") WHERE "dm_messages"."state" = 'unknown';--> statement-breakpoint
CREATE INDEX "message_examples_project_idx" ON "message_examples" USING btree ("project_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "dm_replies_dm_name_uq" ON "dm_replies" USING btree ("dm_id","reddit_name");--> statement-breakpoint
CREATE INDEX "dm_replies_project_received_idx" ON "dm_replies" USING btree ("project_id","received_at");--> statement-breakpoint
CREATE INDEX "suppressions_owner_created_idx" ON "suppressions" USING btree ("owner_user_id","created_at" desc);