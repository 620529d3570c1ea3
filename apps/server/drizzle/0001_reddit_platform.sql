CREATE TABLE "reddit_credentials" (
	"id" uuid PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"account_name" text NOT NULL,
	"client_id" text NOT NULL,
	"client_secret" text NOT NULL,
	"description" text,
	"enabled" boolean DEFAULT true NOT NULL,
	"proxy_country" text,
	"proxy_state" text,
	"proxy_city" text,
	"last_used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "credential_proxies" (
	"credential_id" uuid PRIMARY KEY NOT NULL,
	"proxy_url" text NOT NULL,
	"proxy_masked" text NOT NULL,
	"health_status" text,
	"success_count" integer DEFAULT 0 NOT NULL,
	"failure_count" integer DEFAULT 0 NOT NULL,
	"consecutive_failures" integer DEFAULT 0 NOT NULL,
	"last_health_check" timestamp with time zone,
	"last_error" text,
	"replacement_count" integer DEFAULT 0 NOT NULL,
	"assigned_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "proxy_replacements" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"credential_id" uuid NOT NULL,
	"old_proxy_masked" text NOT NULL,
	"reason" text NOT NULL,
	"replaced_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reddit_access_tokens" (
	"credential_id" text NOT NULL,
	"subject" text NOT NULL,
	"access_token" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reddit_access_tokens_credential_id_subject_pk" PRIMARY KEY("credential_id","subject")
);
--> statement-breakpoint
CREATE TABLE "reddit_rate_limits" (
	"client_key" text PRIMARY KEY NOT NULL,
	"blocked_until" timestamp (3) with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reddit_request_slots" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"client_key" text NOT NULL,
	"taken_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reddit_request_stats" (
	"credential_id" text NOT NULL,
	"day" date NOT NULL,
	"endpoint" text NOT NULL,
	"requests" integer DEFAULT 0 NOT NULL,
	"successes" integer DEFAULT 0 NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"proxied" integer DEFAULT 0 NOT NULL,
	"last_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reddit_request_stats_credential_id_day_endpoint_pk" PRIMARY KEY("credential_id","day","endpoint")
);
--> statement-breakpoint
ALTER TABLE "credential_proxies" ADD CONSTRAINT "credential_proxies_credential_id_reddit_credentials_id_fk" FOREIGN KEY ("credential_id") REFERENCES "public"."reddit_credentials"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "proxy_replacements" ADD CONSTRAINT "proxy_replacements_credential_id_reddit_credentials_id_fk" FOREIGN KEY ("credential_id") REFERENCES "public"."reddit_credentials"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "reddit_credentials_client_id_key" ON "reddit_credentials" USING btree ("client_id");--> statement-breakpoint
CREATE INDEX "reddit_credentials_type_idx" ON "reddit_credentials" USING btree ("type","enabled");--> statement-breakpoint
CREATE INDEX "proxy_replacements_time_idx" ON "proxy_replacements" USING btree ("replaced_at");--> statement-breakpoint
CREATE INDEX "reddit_request_slots_client_time_idx" ON "reddit_request_slots" USING btree ("client_key","taken_at");--> statement-breakpoint
CREATE INDEX "reddit_request_stats_day_idx" ON "reddit_request_stats" USING btree ("day");