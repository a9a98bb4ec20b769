-- The recipient's options through the tracking link (issue 40, decision 1788). First its delivery instructions: leave
-- at the door or with a neighbour, and a note, kept on each of its own open stops, which the driver reads.
ALTER TABLE "stops" ADD COLUMN "recipient_instructions" jsonb;
--> statement-breakpoint
-- Recipient-data retention erases them with the phone numbers (decision 1773): found without scanning every stop.
CREATE INDEX "stops_recipient_instructions_idx" ON "stops" ("tenant_id", "booking_id") WHERE "recipient_instructions" IS NOT NULL;
--> statement-breakpoint
-- A later day's window chosen by the recipient (decision 1788): how many days later an area's recipients may move a
-- delivery (0: not at all), and the day a booking's recipient moved it from (once per booking).
ALTER TABLE "service_areas" ADD COLUMN "recipient_reschedule_days" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "recipient_rescheduled_from" text;
