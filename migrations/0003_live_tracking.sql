CREATE TABLE "driver_positions" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"tour_id" uuid NOT NULL,
	"driver_id" uuid NOT NULL,
	"lat" double precision NOT NULL,
	"lng" double precision NOT NULL,
	"heading" double precision,
	"speed" double precision,
	"accuracy" double precision,
	"recorded_at" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	"filtered" text,
	"became_current" boolean NOT NULL,
	CONSTRAINT "driver_positions_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "live_tickets" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"secret_hash" text NOT NULL,
	"credential_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "live_tickets_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "stop_etas" (
	"tenant_id" uuid NOT NULL,
	"stop_id" uuid NOT NULL,
	"tour_id" uuid NOT NULL,
	"eta" timestamp with time zone NOT NULL,
	"notified_eta" timestamp with time zone,
	"computed_at" timestamp with time zone NOT NULL,
	CONSTRAINT "stop_etas_tenant_id_stop_id_pk" PRIMARY KEY("tenant_id","stop_id")
);
--> statement-breakpoint
CREATE TABLE "tour_tracking" (
	"tenant_id" uuid NOT NULL,
	"tour_id" uuid NOT NULL,
	"service_area_id" uuid NOT NULL,
	"driver_id" uuid,
	"driver_organization_id" uuid,
	"position_id" uuid,
	"lat" double precision,
	"lng" double precision,
	"heading" double precision,
	"speed" double precision,
	"accuracy" double precision,
	"recorded_at" timestamp with time zone,
	"etas_computed_at" timestamp with time zone,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "tour_tracking_tenant_id_tour_id_pk" PRIMARY KEY("tenant_id","tour_id")
);
--> statement-breakpoint
CREATE INDEX "driver_positions_tour_idx" ON "driver_positions" USING btree ("tenant_id","tour_id","id");--> statement-breakpoint
CREATE INDEX "driver_positions_recorded_idx" ON "driver_positions" USING btree ("tenant_id","tour_id","recorded_at");--> statement-breakpoint
CREATE INDEX "driver_positions_received_idx" ON "driver_positions" USING btree ("received_at");--> statement-breakpoint
CREATE INDEX "live_tickets_expires_idx" ON "live_tickets" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "stop_etas_tour_idx" ON "stop_etas" USING btree ("tenant_id","tour_id");