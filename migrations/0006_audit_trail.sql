ALTER TABLE "events" ADD COLUMN "actor_type" text;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "actor_id" uuid;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "actor_api_key_id" uuid;--> statement-breakpoint
CREATE INDEX "events_actor_idx" ON "events" USING btree ("tenant_id","actor_id","id");