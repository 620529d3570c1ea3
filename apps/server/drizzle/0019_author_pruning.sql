CREATE INDEX "reddit_authors_fetched_idx" ON "reddit_authors" USING btree ("fetched_at","name_lower");--> statement-breakpoint
CREATE INDEX "reddit_authors_unanswered_at_idx" ON "reddit_authors_unanswered" USING btree ("unanswered_at","name_lower");--> statement-breakpoint
CREATE INDEX "leads_author_found_idx" ON "leads" USING btree (lower("author"),"found_at");