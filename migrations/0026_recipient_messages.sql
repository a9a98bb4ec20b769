-- Recipient messages (contract §18, decisions 1760–1763): one row per e-mail or SMS told to a drop-off's recipient,
-- with its delivery state; the SMS numbers that replied STOP, per tenant. A gateway's receipt names the message by
-- tenant and id (its callback URL carries both); an inbound reply names only the number, hence the index by number.
CREATE TABLE "recipient_messages" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"booking_id" uuid NOT NULL,
	"stop_id" uuid NOT NULL,
	"channel" text NOT NULL,
	"to" text NOT NULL,
	"moment" text NOT NULL,
	"status" text NOT NULL,
	"error" text,
	"provider_ref" text,
	"sending_until" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "recipient_messages_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE INDEX "recipient_messages_booking_idx" ON "recipient_messages" USING btree ("tenant_id","booking_id","created_at");--> statement-breakpoint
CREATE INDEX "recipient_messages_sms_to_idx" ON "recipient_messages" USING btree ("to","created_at") WHERE "channel" = 'sms';--> statement-breakpoint
CREATE TABLE "recipient_phones" (
	"tenant_id" uuid NOT NULL,
	"phone_number" text NOT NULL,
	"opted_out_at" timestamp with time zone NOT NULL,
	CONSTRAINT "recipient_phones_tenant_id_phone_number_pk" PRIMARY KEY("tenant_id","phone_number")
);
