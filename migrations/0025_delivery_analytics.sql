-- Delivery analytics (contract §17, decisions 1740–1744): the ETAs as they were shown, sampled at most once per stop
-- and minute (live), the figures a plan promised for each tour it created (dispatch), and the indexes the
-- period reads go through (a stop counts in the period of its completed_at / failed_at).
CREATE TABLE "stop_eta_samples" (
	"tenant_id" uuid NOT NULL,
	"stop_id" uuid NOT NULL,
	"published_at" timestamp with time zone NOT NULL,
	"tour_id" uuid NOT NULL,
	"eta" timestamp with time zone NOT NULL,
	CONSTRAINT "stop_eta_samples_tenant_id_stop_id_published_at_pk" PRIMARY KEY("tenant_id","stop_id","published_at")
);
--> statement-breakpoint
CREATE TABLE "tour_plans" (
	"tenant_id" uuid NOT NULL,
	"tour_id" uuid NOT NULL,
	"stops" integer NOT NULL,
	"distance_m" integer,
	"finish_at" timestamp with time zone,
	"applied_at" timestamp with time zone NOT NULL,
	CONSTRAINT "tour_plans_tenant_id_tour_id_pk" PRIMARY KEY("tenant_id","tour_id")
);
--> statement-breakpoint
CREATE INDEX "stops_completed_at_idx" ON "stops" USING btree ("tenant_id","completed_at") WHERE "completed_at" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "stops_failed_at_idx" ON "stops" USING btree ("tenant_id","failed_at") WHERE "failed_at" IS NOT NULL;
