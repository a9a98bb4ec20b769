CREATE TABLE "package_failure_reasons" (
	"tenant_id" uuid NOT NULL,
	"key" text NOT NULL,
	"label_en" text NOT NULL,
	"label_de" text NOT NULL,
	"stop_types" text[] NOT NULL,
	"package_interactions" text[] NOT NULL,
	"note_required" boolean NOT NULL,
	"triggers_reattempt" boolean NOT NULL,
	"position" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "package_failure_reasons_tenant_id_key_pk" PRIMARY KEY("tenant_id","key")
);
--> statement-breakpoint
CREATE INDEX "package_failure_reasons_position_idx" ON "package_failure_reasons" USING btree ("tenant_id","position");