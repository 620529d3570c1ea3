CREATE TABLE "discovery_cursors" (
	"group_no" integer NOT NULL,
	"kind" text NOT NULL,
	"before_name" text,
	"newest_created_at" timestamp with time zone,
	"missed_items" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "discovery_cursors_group_no_kind_pk" PRIMARY KEY("group_no","kind")
);
--> statement-breakpoint
CREATE TABLE "discovery_searches" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"project_id" uuid NOT NULL,
	"trigger" text NOT NULL,
	"status" text NOT NULL,
	"posts_found" integer DEFAULT 0 NOT NULL,
	"comments_found" integer DEFAULT 0 NOT NULL,
	"profiles_found" integer DEFAULT 0 NOT NULL,
	"requests" integer DEFAULT 0 NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "discovery_streams" (
	"subreddit" text PRIMARY KEY NOT NULL,
	"group_no" integer NOT NULL,
	"joined_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reddit_authors" (
	"name_lower" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"account_created_at" timestamp with time zone,
	"comment_karma" integer,
	"link_karma" integer,
	"bio" text DEFAULT '' NOT NULL,
	"missing" boolean DEFAULT false NOT NULL,
	"fetched_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reddit_items" (
	"name" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"subreddit" text NOT NULL,
	"author" text NOT NULL,
	"title" text DEFAULT '' NOT NULL,
	"body" text DEFAULT '' NOT NULL,
	"permalink" text NOT NULL,
	"score" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"fetched_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "discovery_filters" (
	"project_id" uuid PRIMARY KEY NOT NULL,
	"negative_keywords" text[] DEFAULT '{}' NOT NULL,
	"excluded_subreddits" text[] DEFAULT '{}' NOT NULL,
	"excluded_authors" text[] DEFAULT '{}' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "keywords" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"project_id" uuid NOT NULL,
	"keyword" text NOT NULL,
	"type" text NOT NULL,
	"approved" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "leads" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"project_id" uuid NOT NULL,
	"item_name" text NOT NULL,
	"kind" text NOT NULL,
	"author" text NOT NULL,
	"subreddit" text NOT NULL,
	"matched_keywords" text[] NOT NULL,
	"matches" jsonb NOT NULL,
	"intent_score" integer NOT NULL,
	"intent_reasons" jsonb NOT NULL,
	"item_created_at" timestamp with time zone NOT NULL,
	"found_at" timestamp with time zone NOT NULL,
	"dismissed_at" timestamp with time zone,
	"delivered_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "profiles" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"project_id" uuid NOT NULL,
	"reddit_username" text NOT NULL,
	"matched_keywords" text[] NOT NULL,
	"intent_score" integer NOT NULL,
	"intent_reasons" jsonb NOT NULL,
	"found_at" timestamp with time zone NOT NULL,
	"last_found_at" timestamp with time zone NOT NULL,
	"dismissed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "project_webhooks" (
	"project_id" uuid PRIMARY KEY NOT NULL,
	"url" text NOT NULL,
	"secret_ciphertext" text NOT NULL,
	"secret_last4" text NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"last_delivery_at" timestamp with time zone,
	"last_status" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "project_runs" (
	"project_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"status" text NOT NULL,
	"error" text,
	"options" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"progress" jsonb,
	"result" jsonb,
	"started_at" timestamp with time zone NOT NULL,
	"heartbeat_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "project_runs_project_id_kind_pk" PRIMARY KEY("project_id","kind")
);
--> statement-breakpoint
CREATE TABLE "subreddits" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"project_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"estimated_members" integer DEFAULT 0 NOT NULL,
	"relevance_score" real DEFAULT 0 NOT NULL,
	"source" text NOT NULL,
	"approved" boolean DEFAULT false NOT NULL,
	"approved_at" timestamp with time zone,
	"backfilled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "discovery_searches" ADD CONSTRAINT "discovery_searches_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "discovery_filters" ADD CONSTRAINT "discovery_filters_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "keywords" ADD CONSTRAINT "keywords_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "leads" ADD CONSTRAINT "leads_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "leads" ADD CONSTRAINT "leads_item_name_reddit_items_name_fk" FOREIGN KEY ("item_name") REFERENCES "public"."reddit_items"("name") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profiles" ADD CONSTRAINT "profiles_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_webhooks" ADD CONSTRAINT "project_webhooks_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_runs" ADD CONSTRAINT "project_runs_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subreddits" ADD CONSTRAINT "subreddits_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "discovery_searches_project_idx" ON "discovery_searches" USING btree ("project_id","started_at");--> statement-breakpoint
CREATE INDEX "discovery_streams_group_idx" ON "discovery_streams" USING btree ("group_no");--> statement-breakpoint
CREATE INDEX "reddit_items_created_idx" ON "reddit_items" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "keywords_project_keyword_uq" ON "keywords" USING btree ("project_id","type",lower("keyword"));--> statement-breakpoint
CREATE INDEX "keywords_approved_idx" ON "keywords" USING btree ("project_id") WHERE "keywords"."approved";--> statement-breakpoint
CREATE UNIQUE INDEX "leads_project_item_uq" ON "leads" USING btree ("project_id","item_name");--> statement-breakpoint
CREATE INDEX "leads_project_kind_created_idx" ON "leads" USING btree ("project_id","kind","item_created_at");--> statement-breakpoint
CREATE INDEX "leads_item_idx" ON "leads" USING btree ("item_name");--> statement-breakpoint
CREATE INDEX "leads_found_idx" ON "leads" USING btree ("found_at");--> statement-breakpoint
CREATE UNIQUE INDEX "profiles_project_username_uq" ON "profiles" USING btree ("project_id","reddit_username");--> statement-breakpoint
CREATE INDEX "profiles_project_found_idx" ON "profiles" USING btree ("project_id","last_found_at");--> statement-breakpoint
CREATE UNIQUE INDEX "subreddits_project_name_uq" ON "subreddits" USING btree ("project_id",lower("name"));--> statement-breakpoint
CREATE INDEX "subreddits_approved_name_idx" ON "subreddits" USING btree (lower("name")) WHERE "subreddits"."approved";--> statement-breakpoint
ALTER TABLE "project_webhooks" ADD COLUMN "active_since" timestamp with time zone NOT NULL;--> statement-breakpoint
ALTER TABLE "project_webhooks" ADD COLUMN "failed_attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "project_webhooks" ADD COLUMN "next_attempt_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "leads_project_author_idx" ON "leads" USING btree ("project_id","author");--> statement-breakpoint
CREATE INDEX "leads_undelivered_idx" ON "leads" USING btree ("project_id","found_at") WHERE "leads"."delivered_at" is null;
