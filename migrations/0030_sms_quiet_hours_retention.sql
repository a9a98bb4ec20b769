-- A service area's SMS quiet hours (contract §18, decision 1772): {from, to} as "HH:MM" on the area's clock, or null
-- for none. An SMS due inside them waits until they end.
ALTER TABLE "service_areas" ADD COLUMN "sms_quiet_hours" jsonb;--> statement-breakpoint
-- Recipient-data retention (decision 1773): the stops still holding a phone number, the messages oldest first.
CREATE INDEX "stops_contact_phone_idx" ON "stops" ("tenant_id", "booking_id") WHERE (contact->>'phone_number') IS NOT NULL;--> statement-breakpoint
CREATE INDEX "recipient_messages_created_idx" ON "recipient_messages" ("created_at", "tenant_id", "booking_id");
