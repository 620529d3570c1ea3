CREATE TABLE "dm_claims_kept" (
	"owner_user_id" uuid NOT NULL,
	"sender_key" text NOT NULL,
	"claimed_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "dm_claims_kept" ADD CONSTRAINT "dm_claims_kept_owner_user_id_users_id_fk" FOREIGN KEY ("owner_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "dm_claims_kept_sender_idx" ON "dm_claims_kept" USING btree ("owner_user_id","sender_key","claimed_at");