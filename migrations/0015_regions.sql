-- Regions (issue 37, decision 1501): imported OpenStreetMap extracts, installation-wide (no tenant_id: the operator
-- imports them and every tenant reads them; reference tables on Citus, docs/scaling.md). Every import step's rows
-- are keyed by region_id; a re-import inserts a new region and deletes the old one in the same transaction.
CREATE TABLE "regions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"min_lat" double precision NOT NULL,
	"min_lng" double precision NOT NULL,
	"max_lat" double precision NOT NULL,
	"max_lng" double precision NOT NULL,
	"source" text NOT NULL,
	"imported_at" timestamp with time zone NOT NULL,
	"counts" jsonb DEFAULT '{}'::jsonb NOT NULL,
	CONSTRAINT "regions_name_key" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "region_addresses" (
	"region_id" uuid NOT NULL,
	"id" integer NOT NULL,
	"street" text NOT NULL,
	"street_key" text NOT NULL,
	"number" text NOT NULL,
	"number_key" text NOT NULL,
	"zip_code" text,
	"city" text,
	"country" text,
	"lat" double precision NOT NULL,
	"lng" double precision NOT NULL,
	"origin" text NOT NULL,
	CONSTRAINT "region_addresses_pkey" PRIMARY KEY("region_id","id")
);
--> statement-breakpoint
CREATE INDEX "region_addresses_street_idx" ON "region_addresses" USING btree ("street_key","number_key");
--> statement-breakpoint
CREATE TABLE "region_streets" (
	"region_id" uuid NOT NULL,
	"id" integer NOT NULL,
	"name" text NOT NULL,
	"street_key" text NOT NULL,
	"zip_code" text,
	"city" text,
	"country" text,
	"lat" double precision NOT NULL,
	"lng" double precision NOT NULL,
	CONSTRAINT "region_streets_pkey" PRIMARY KEY("region_id","id")
);
--> statement-breakpoint
CREATE INDEX "region_streets_key_idx" ON "region_streets" USING btree ("street_key");
--> statement-breakpoint
CREATE TABLE "region_localities" (
	"region_id" uuid NOT NULL,
	"id" integer NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"name_key" text NOT NULL,
	"zip_code" text,
	"city" text,
	"country" text,
	"lat" double precision NOT NULL,
	"lng" double precision NOT NULL,
	CONSTRAINT "region_localities_pkey" PRIMARY KEY("region_id","id")
);
--> statement-breakpoint
CREATE INDEX "region_localities_key_idx" ON "region_localities" USING btree ("name_key");
--> statement-breakpoint
-- Place de-duplication (contract §14, decision 1505): the normalized address as the places operations compute it
-- (addressKey() in src/shared/address.ts), unique per tenant and customer scope. A migration cannot run that code:
-- existing rows start NULL (outside the index) and the service fills them in at start, keeping older duplicates.
ALTER TABLE "places" ADD COLUMN "address_key" text;
--> statement-breakpoint
CREATE UNIQUE INDEX "places_address_key_idx" ON "places" USING btree ("tenant_id","customer_id","address_key") NULLS NOT DISTINCT WHERE "address_key" IS NOT NULL;
