CREATE TABLE "booking_tracking_links" (
	"tenant_id" uuid NOT NULL,
	"booking_id" uuid NOT NULL,
	"nonce" text NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"feedback_rating" integer,
	"feedback_comment" text,
	"feedback_at" timestamp with time zone,
	CONSTRAINT "booking_tracking_links_tenant_id_booking_id_pk" PRIMARY KEY("tenant_id","booking_id")
);
--> statement-breakpoint
CREATE UNIQUE INDEX "booking_tracking_links_token_hash_key" ON "booking_tracking_links" USING btree ("token_hash");