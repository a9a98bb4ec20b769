CREATE TABLE "credentials" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"name" text,
	"token_hash" text NOT NULL,
	"token_prefix" text NOT NULL,
	"expires_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "credentials_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "organization_members" (
	"tenant_id" uuid NOT NULL,
	"organization_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	CONSTRAINT "organization_members_tenant_id_organization_id_user_id_pk" PRIMARY KEY("tenant_id","organization_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "organizations" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"name" text NOT NULL,
	"service_area_ids" uuid[] DEFAULT '{}' NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "organizations_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "service_areas" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"name" text NOT NULL,
	"currency" text NOT NULL,
	"time_zone" text NOT NULL,
	"boundary" jsonb,
	"scheduling_config_id" uuid,
	"average_speed_kmh" integer DEFAULT 30 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "service_areas_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "tenants" (
	"id" uuid PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"extensions" text[] DEFAULT '{}' NOT NULL,
	"settings" jsonb DEFAULT '{"enforce_sunsets":false}'::jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"role" text NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"phone_number" text,
	"password_hash" text,
	"active_tour_id" uuid,
	"deactivated_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "users_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "events" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"type" text NOT NULL,
	"resource_type" text NOT NULL,
	"event" text NOT NULL,
	"resource_id" uuid,
	"data" jsonb NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL,
	"dispatched_at" timestamp with time zone,
	CONSTRAINT "events_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "jobs" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"kind" text NOT NULL,
	"dedupe_key" text,
	"payload" jsonb NOT NULL,
	"status" text NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"max_attempts" integer DEFAULT 10 NOT NULL,
	"locked_until" timestamp with time zone,
	"locked_by" text,
	"last_error" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "jobs_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "idempotency_keys" (
	"tenant_id" uuid NOT NULL,
	"credential_id" uuid NOT NULL,
	"key" text NOT NULL,
	"request_hash" text NOT NULL,
	"response_status" integer,
	"response_headers" jsonb,
	"response_body" text,
	"locked_until" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "idempotency_keys_tenant_id_credential_id_key_pk" PRIMARY KEY("tenant_id","credential_id","key")
);
--> statement-breakpoint
CREATE UNIQUE INDEX "credentials_token_hash_key" ON "credentials" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "credentials_user_idx" ON "credentials" USING btree ("tenant_id","user_id");--> statement-breakpoint
CREATE INDEX "organization_members_user_idx" ON "organization_members" USING btree ("tenant_id","user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_key" ON "users" USING btree ("tenant_id","email");--> statement-breakpoint
CREATE INDEX "users_role_idx" ON "users" USING btree ("tenant_id","role","id");--> statement-breakpoint
CREATE INDEX "events_type_idx" ON "events" USING btree ("tenant_id","type","id");--> statement-breakpoint
CREATE INDEX "events_resource_idx" ON "events" USING btree ("tenant_id","resource_id","id");--> statement-breakpoint
CREATE INDEX "events_undispatched_idx" ON "events" USING btree ("occurred_at") WHERE dispatched_at IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "jobs_dedupe_key" ON "jobs" USING btree ("tenant_id","kind","dedupe_key") WHERE status = 'pending' AND dedupe_key IS NOT NULL;--> statement-breakpoint
CREATE INDEX "jobs_due_idx" ON "jobs" USING btree ("due_at") WHERE status IN ('pending', 'running');