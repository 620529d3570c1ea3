CREATE TABLE "reddit_authors_unanswered" (
	"name_lower" text PRIMARY KEY NOT NULL,
	"unanswered_at" timestamp with time zone NOT NULL
);
