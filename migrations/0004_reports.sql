CREATE TABLE "report_activity" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"report_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"action" text NOT NULL,
	"outcome" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	CONSTRAINT "report_activity_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "reports" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"title" text NOT NULL,
	"description" text,
	"tags" text[] DEFAULT '{}' NOT NULL,
	"status" text NOT NULL,
	"failure_reason" text,
	"notify_by_email" boolean DEFAULT false NOT NULL,
	"grants" jsonb NOT NULL,
	"file_name" text,
	"file_content_type" text,
	"file_size_bytes" bigint,
	"file_sha256" text,
	"blob_key" text,
	"wrapped_key" text,
	"expires_at" timestamp with time zone NOT NULL,
	"created_by_id" uuid NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"ready_at" timestamp with time zone,
	"expired_at" timestamp with time zone,
	CONSTRAINT "reports_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE INDEX "report_activity_report_idx" ON "report_activity" USING btree ("tenant_id","report_id","id");--> statement-breakpoint
CREATE INDEX "reports_wrapped_key_idx" ON "reports" USING btree ("tenant_id","id") WHERE "reports"."wrapped_key" IS NOT NULL;