CREATE TABLE "driver_shifts" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"driver_id" uuid NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"start_place_id" uuid,
	"start_lat" double precision NOT NULL,
	"start_lng" double precision NOT NULL,
	"end_place_id" uuid,
	"end_lat" double precision,
	"end_lng" double precision,
	"vehicle" jsonb,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "driver_shifts_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE INDEX "driver_shifts_driver_idx" ON "driver_shifts" USING btree ("tenant_id","driver_id","starts_at","id");
