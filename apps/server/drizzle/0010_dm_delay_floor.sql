ALTER TABLE "dm_messages" ADD COLUMN "delay_floor_min" integer;--> statement-breakpoint
ALTER TABLE "dm_messages" ADD COLUMN "delay_floor_max" integer;