-- A tenant's sender identity towards its recipients (issue 40, decision 1784): the name, colour and logo the tracking
-- page and the e-mails show, the e-mails' From and Reply-To, the SMS sender id. One row per tenant, none until set.
CREATE TABLE "recipient_senders" (
	"tenant_id" uuid PRIMARY KEY NOT NULL,
	"name" text,
	"color" text,
	"reply_to" text,
	"email_from" text,
	"sms_sender_id" text,
	"logo" bytea,
	"logo_type" text,
	"logo_sha256" text,
	"updated_at" timestamp with time zone NOT NULL
);--> statement-breakpoint
-- A gateway's receipt names the message by the gateway's own id (Twilio's SID, an SMSC's message_id; decisions 1782,
-- 1783): found by it without scanning every SMS.
CREATE INDEX "recipient_messages_provider_ref_idx" ON "recipient_messages" ("provider_ref") WHERE "provider_ref" IS NOT NULL;
