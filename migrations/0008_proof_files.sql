CREATE TABLE "proof_files" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"owner_kind" text NOT NULL,
	"owner_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"content_type" text NOT NULL,
	"size_bytes" integer NOT NULL,
	"sha256" text NOT NULL,
	"blob_key" text,
	"wrapped_key" text,
	"created_at" timestamp with time zone NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "proof_files_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE UNIQUE INDEX "proof_files_owner_key" ON "proof_files" USING btree ("tenant_id","owner_kind","owner_id","kind");--> statement-breakpoint
CREATE INDEX "proof_files_retention_idx" ON "proof_files" USING btree ("created_at") WHERE "proof_files"."deleted_at" IS NULL;