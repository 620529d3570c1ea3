ALTER TABLE "users" ADD COLUMN "profiles_limit_base" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE "users" SET "profiles_limit_base" = "profiles_limit" WHERE NOT EXISTS (SELECT 1 FROM "billing_subscriptions" WHERE "billing_subscriptions"."user_id" = "users"."id");
