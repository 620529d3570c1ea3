CREATE INDEX "discovery_searches_started_idx" ON "discovery_searches" USING btree ("started_at");--> statement-breakpoint
CREATE INDEX "dm_messages_created_idx" ON "dm_messages" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "dm_messages_project_sent_idx" ON "dm_messages" USING btree ("project_id","sent_at") WHERE "dm_messages"."state" = 'sent';--> statement-breakpoint
CREATE INDEX "dm_messages_sent_idx" ON "dm_messages" USING btree ("sent_at") WHERE "dm_messages"."state" = 'sent';--> statement-breakpoint
CREATE INDEX "dm_messages_project_failed_idx" ON "dm_messages" USING btree ("project_id","failed_at") WHERE "dm_messages"."state" = 'failed';--> statement-breakpoint
CREATE INDEX "dm_messages_project_expired_idx" ON "dm_messages" USING btree ("project_id","updated_at") WHERE "dm_messages"."state" = 'expired';--> statement-breakpoint
CREATE INDEX "leads_project_found_idx" ON "leads" USING btree ("project_id","found_at");--> statement-breakpoint
CREATE INDEX "dm_replies_received_idx" ON "dm_replies" USING btree ("received_at");