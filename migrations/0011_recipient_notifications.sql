CREATE TABLE "recipient_addresses" (
	"tenant_id" uuid NOT NULL,
	"email" text NOT NULL,
	"token_hash" text NOT NULL,
	"unsubscribed_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "recipient_addresses_tenant_id_email_pk" PRIMARY KEY("tenant_id","email")
);
--> statement-breakpoint
CREATE TABLE "recipient_notifications" (
	"tenant_id" uuid NOT NULL,
	"stop_id" uuid NOT NULL,
	"moment" text NOT NULL,
	"booking_id" uuid NOT NULL,
	"email" text,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "recipient_notifications_tenant_id_stop_id_moment_pk" PRIMARY KEY("tenant_id","stop_id","moment")
);
--> statement-breakpoint
ALTER TABLE "service_areas" ADD COLUMN "recipient_notifications" text[] DEFAULT '{}' NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "recipient_addresses_token_hash_key" ON "recipient_addresses" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "recipient_notifications_booking_idx" ON "recipient_notifications" USING btree ("tenant_id","booking_id");