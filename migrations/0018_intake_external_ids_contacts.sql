-- Intake (contract §14, decisions 1560–1562): external ids unique among a tenant's (and customer's) bookings that are
-- not cancelled, a service area's country for reading phone numbers, and how an address-only stop was located.

-- identity: the service area's country (ISO 3166-1 alpha-2), read by phone numbers written without "+".
ALTER TABLE "service_areas" ADD COLUMN "country_code" text;
--> statement-breakpoint
-- dispatch: bookings whose external id was already taken by a newer open booking when the index came (decision 1560)
-- keep their id and stay readable, outside the unique index. Nullable, no default: a process of the previous version
-- writes bookings through insert_new_booking's json_populate_recordset, which leaves a column it does not name null.
ALTER TABLE "bookings" ADD COLUMN "external_id_exempt" boolean;
--> statement-breakpoint
UPDATE "bookings" b SET "external_id_exempt" = true
 WHERE b.external_id IS NOT NULL AND b.status <> 'cancelled'
   AND EXISTS (SELECT 1 FROM "bookings" n
                WHERE n.tenant_id = b.tenant_id AND n.external_id = b.external_id
                  AND n.customer_id IS NOT DISTINCT FROM b.customer_id AND n.status <> 'cancelled'
                  AND (n.created_at, n.id) > (b.created_at, b.id));
--> statement-breakpoint
-- One open booking per tenant, customer (none: the nil uuid) and external id; cancelling frees the id.
CREATE UNIQUE INDEX "bookings_open_external_id_key" ON "bookings" USING btree
  ("tenant_id", coalesce("customer_id", '00000000-0000-0000-0000-000000000000'::uuid), "external_id")
  WHERE "external_id" IS NOT NULL AND "status" <> 'cancelled' AND "external_id_exempt" IS NOT TRUE;
--> statement-breakpoint
-- dispatch: an address-only stop's geocoding {precision, source} (contract §14); null for a stop given its location.
ALTER TABLE "stops" ADD COLUMN "geocoding" jsonb;
