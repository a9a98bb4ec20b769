CREATE TABLE "compensation_history" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"tour_id" uuid NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"actor_id" uuid,
	"component" text NOT NULL,
	"key" text,
	"from" jsonb,
	"to" jsonb,
	CONSTRAINT "compensation_history_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "tip_outcomes" (
	"tenant_id" uuid NOT NULL,
	"booking_id" uuid NOT NULL,
	"tour_id" uuid,
	"status" text NOT NULL,
	"reason" text NOT NULL,
	"amount" integer NOT NULL,
	"evaluated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "tip_outcomes_tenant_id_booking_id_pk" PRIMARY KEY("tenant_id","booking_id")
);
--> statement-breakpoint
CREATE TABLE "tour_compensations" (
	"tenant_id" uuid NOT NULL,
	"tour_id" uuid NOT NULL,
	"service_area_id" uuid NOT NULL,
	"currency" text NOT NULL,
	"base_amount" integer,
	"base_label" text,
	"bonuses" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"tips_amount" integer DEFAULT 0 NOT NULL,
	"tips_paused" boolean DEFAULT false NOT NULL,
	"tips_paused_reason" text,
	"updated_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "tour_compensations_tenant_id_tour_id_pk" PRIMARY KEY("tenant_id","tour_id")
);
--> statement-breakpoint
CREATE INDEX "compensation_history_tour_idx" ON "compensation_history" USING btree ("tenant_id","tour_id","id");--> statement-breakpoint
CREATE INDEX "tip_outcomes_tour_idx" ON "tip_outcomes" USING btree ("tenant_id","tour_id");