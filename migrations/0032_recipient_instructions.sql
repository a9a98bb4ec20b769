-- The recipient's delivery instructions (issue 40, decision 1788): leave at the door or with a neighbour, and a note,
-- given through the tracking link and kept on each of the recipient's own open stops, which the driver reads.
ALTER TABLE "stops" ADD COLUMN "recipient_instructions" jsonb;
--> statement-breakpoint
-- Recipient-data retention erases them with the phone numbers (decision 1773): found without scanning every stop.
CREATE INDEX "stops_recipient_instructions_idx" ON "stops" ("tenant_id", "booking_id") WHERE "recipient_instructions" IS NOT NULL;
