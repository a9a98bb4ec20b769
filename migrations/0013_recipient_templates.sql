CREATE TABLE "recipient_templates" (
	"tenant_id" uuid NOT NULL,
	"moment" text NOT NULL,
	"locale" text NOT NULL,
	"subject" text NOT NULL,
	"body" text NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "recipient_templates_tenant_id_moment_locale_pk" PRIMARY KEY("tenant_id","moment","locale")
);
--> statement-breakpoint
ALTER TABLE "service_areas" ADD COLUMN "recipient_approaching_minutes" integer DEFAULT 10 NOT NULL;
