DROP INDEX "dm_messages_account_claimed_idx";--> statement-breakpoint
ALTER TABLE "dm_messages" ADD COLUMN "sender_key" text;--> statement-breakpoint
UPDATE "dm_messages" SET "sender_key" = lower("reddit_accounts"."reddit_username") FROM "reddit_accounts" WHERE "dm_messages"."account_id" = "reddit_accounts"."id" AND "dm_messages"."claimed_at" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "dm_messages_sender_claimed_idx" ON "dm_messages" USING btree ("owner_user_id","sender_key","claimed_at") WHERE "dm_messages"."claimed_at" is not null;