CREATE TABLE "places" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"name" text NOT NULL,
	"is_hub" boolean DEFAULT false NOT NULL,
	"lat" double precision NOT NULL,
	"lng" double precision NOT NULL,
	"address" jsonb NOT NULL,
	"contact" jsonb NOT NULL,
	"service_area_id" uuid,
	"customer_id" uuid,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "places_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "scheduling_configs" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"name" text NOT NULL,
	"mode" text NOT NULL,
	"claim_window_seconds" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "scheduling_configs_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "services" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"name" text NOT NULL,
	"service_area_id" uuid NOT NULL,
	"dispatch_mode" text NOT NULL,
	"tip_distribution_strategy" text NOT NULL,
	"stop_types" text[] NOT NULL,
	"return_stop_type" text,
	"max_stops_per_booking" integer NOT NULL,
	"max_stops_per_tour" integer NOT NULL,
	"failure_outcomes" jsonb NOT NULL,
	"force_delivery_proof" text[] NOT NULL,
	"scheduling_config_id" uuid,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "services_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE INDEX "places_customer_idx" ON "places" USING btree ("tenant_id","customer_id","id");--> statement-breakpoint
CREATE INDEX "places_service_area_idx" ON "places" USING btree ("tenant_id","service_area_id","id");