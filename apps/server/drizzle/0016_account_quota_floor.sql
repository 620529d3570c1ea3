ALTER TABLE "reddit_accounts" ADD COLUMN "quota_floor_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "reddit_accounts" ADD COLUMN "quota_floor_until" timestamp with time zone;