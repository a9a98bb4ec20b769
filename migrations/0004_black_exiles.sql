CREATE TABLE "booking_visibility" (
	"tenant_id" uuid NOT NULL,
	"organization_id" uuid NOT NULL,
	"booking_id" uuid NOT NULL,
	CONSTRAINT "booking_visibility_tenant_id_organization_id_booking_id_pk" PRIMARY KEY("tenant_id","organization_id","booking_id")
);
--> statement-breakpoint
CREATE TABLE "bookings" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"external_id" text,
	"service_id" uuid NOT NULL,
	"service_area_id" uuid NOT NULL,
	"customer_id" uuid,
	"status" text NOT NULL,
	"scheduled_at" timestamp with time zone,
	"managing_organization_ids" uuid[] DEFAULT '{}' NOT NULL,
	"preferred_driver_ids" uuid[] DEFAULT '{}' NOT NULL,
	"tip" jsonb,
	"earnings" jsonb,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "bookings_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "package_history" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"package_id" uuid NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"event" text NOT NULL,
	"stop_id" uuid,
	"tour_id" uuid,
	"actor_id" uuid,
	"reason_key" text,
	"note" text,
	CONSTRAINT "package_history_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "packages" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"booking_id" uuid NOT NULL,
	"shortcode" text NOT NULL,
	"external_label" text,
	"status" text NOT NULL,
	"pickup_stop_id" uuid NOT NULL,
	"dropoff_stop_id" uuid NOT NULL,
	"description" text,
	"weight_grams" integer,
	"forced_delivery" jsonb,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "packages_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "stops" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"booking_id" uuid,
	"tour_id" uuid,
	"type" text NOT NULL,
	"status" text NOT NULL,
	"position" integer NOT NULL,
	"tour_position" integer,
	"place_id" uuid,
	"lat" double precision NOT NULL,
	"lng" double precision NOT NULL,
	"address" jsonb NOT NULL,
	"contact" jsonb,
	"group" text,
	"time_window_starts_at" timestamp with time zone,
	"time_window_ends_at" timestamp with time zone,
	"service_duration_seconds" integer NOT NULL,
	"notes" text,
	"eta" timestamp with time zone,
	"approached_at" timestamp with time zone,
	"arrived_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"failed_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"failure" jsonb,
	"recovery_of_stop_id" uuid,
	"recovery_kind" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "stops_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "tour_visibility" (
	"tenant_id" uuid NOT NULL,
	"organization_id" uuid NOT NULL,
	"tour_id" uuid NOT NULL,
	CONSTRAINT "tour_visibility_tenant_id_organization_id_tour_id_pk" PRIMARY KEY("tenant_id","organization_id","tour_id")
);
--> statement-breakpoint
CREATE TABLE "tours" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"service_id" uuid NOT NULL,
	"service_area_id" uuid NOT NULL,
	"status" text NOT NULL,
	"driver_id" uuid,
	"executing_organization_id" uuid,
	"scheduled_at" timestamp with time zone,
	"claim_expires_at" timestamp with time zone,
	"optimized" boolean DEFAULT false NOT NULL,
	"preferred_driver_ids" uuid[] DEFAULT '{}' NOT NULL,
	"managing_organization_ids" uuid[] DEFAULT '{}' NOT NULL,
	"earnings" jsonb,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"started_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	CONSTRAINT "tours_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE INDEX "booking_visibility_booking_idx" ON "booking_visibility" USING btree ("tenant_id","booking_id");--> statement-breakpoint
CREATE INDEX "bookings_status_idx" ON "bookings" USING btree ("tenant_id","status","id");--> statement-breakpoint
CREATE INDEX "bookings_external_id_idx" ON "bookings" USING btree ("tenant_id","external_id");--> statement-breakpoint
CREATE INDEX "bookings_customer_idx" ON "bookings" USING btree ("tenant_id","customer_id","id");--> statement-breakpoint
CREATE INDEX "bookings_service_area_idx" ON "bookings" USING btree ("tenant_id","service_area_id","id");--> statement-breakpoint
CREATE INDEX "package_history_package_idx" ON "package_history" USING btree ("tenant_id","package_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "packages_shortcode_key" ON "packages" USING btree ("tenant_id","shortcode");--> statement-breakpoint
CREATE UNIQUE INDEX "packages_open_external_label_key" ON "packages" USING btree ("tenant_id","external_label") WHERE external_label IS NOT NULL AND status IN ('created', 'awaiting_pickup', 'in_transit');--> statement-breakpoint
CREATE INDEX "packages_booking_idx" ON "packages" USING btree ("tenant_id","booking_id");--> statement-breakpoint
CREATE INDEX "stops_booking_idx" ON "stops" USING btree ("tenant_id","booking_id","position");--> statement-breakpoint
CREATE INDEX "stops_tour_idx" ON "stops" USING btree ("tenant_id","tour_id","tour_position");--> statement-breakpoint
CREATE INDEX "tour_visibility_tour_idx" ON "tour_visibility" USING btree ("tenant_id","tour_id");--> statement-breakpoint
CREATE INDEX "tours_status_idx" ON "tours" USING btree ("tenant_id","status","id");--> statement-breakpoint
CREATE INDEX "tours_driver_idx" ON "tours" USING btree ("tenant_id","driver_id","id");