ALTER TABLE "service_areas" ADD COLUMN "auto_dispatch_enabled" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "service_areas" ADD COLUMN "auto_dispatch_budget_ms" integer DEFAULT 200 NOT NULL;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "auto_dispatch" jsonb;