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
CREATE TABLE "places" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"name" text NOT NULL,
	"is_hub" boolean DEFAULT false NOT NULL,
	"lat" double precision NOT NULL,
	"lng" double precision NOT NULL,
	"address" jsonb NOT NULL,
	"contact" jsonb NOT NULL,
	"service_area_id" uuid,
	"customer_id" uuid,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "places_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "scheduling_configs" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"name" text NOT NULL,
	"mode" text NOT NULL,
	"claim_window_seconds" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "scheduling_configs_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "services" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"name" text NOT NULL,
	"service_area_id" uuid NOT NULL,
	"dispatch_mode" text NOT NULL,
	"tip_distribution_strategy" text NOT NULL,
	"stop_types" text[] NOT NULL,
	"return_stop_type" text,
	"max_stops_per_booking" integer NOT NULL,
	"max_stops_per_tour" integer NOT NULL,
	"failure_outcomes" jsonb NOT NULL,
	"force_delivery_proof" text[] NOT NULL,
	"scheduling_config_id" uuid,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "services_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
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
CREATE TABLE "webhook_attempts" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"delivery_id" uuid NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"status_code" integer,
	"duration_ms" integer NOT NULL,
	"error" text,
	CONSTRAINT "webhook_attempts_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"subscription_id" uuid NOT NULL,
	"event_id" uuid NOT NULL,
	"event_type" text NOT NULL,
	"status" text NOT NULL,
	"attempt_count" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"locked_until" timestamp with time zone,
	"locked_by" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "webhook_deliveries_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "webhook_subscriptions" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"url" text NOT NULL,
	"events" text[] NOT NULL,
	"active" boolean NOT NULL,
	"description" text,
	"filters" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"secret" text NOT NULL,
	"previous_secret" text,
	"previous_secret_expires_at" timestamp with time zone,
	"failing_since" timestamp with time zone,
	"disabled_reason" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "webhook_subscriptions_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "busyness_levels" (
	"tenant_id" uuid NOT NULL,
	"service_area_id" uuid NOT NULL,
	"busyness" integer NOT NULL,
	"computed_at" timestamp with time zone NOT NULL,
	CONSTRAINT "busyness_levels_tenant_id_service_area_id_pk" PRIMARY KEY("tenant_id","service_area_id")
);
--> statement-breakpoint
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
CREATE TABLE "booking_visibility" (
	"tenant_id" uuid NOT NULL,
	"organization_id" uuid NOT NULL,
	"booking_id" uuid NOT NULL,
	CONSTRAINT "booking_visibility_tenant_id_organization_id_booking_id_pk" PRIMARY KEY("tenant_id","organization_id","booking_id")
);
--> statement-breakpoint
CREATE TABLE "bookings" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"external_id" text,
	"service_id" uuid NOT NULL,
	"service_area_id" uuid NOT NULL,
	"customer_id" uuid,
	"status" text NOT NULL,
	"scheduled_at" timestamp with time zone,
	"managing_organization_ids" uuid[] DEFAULT '{}' NOT NULL,
	"preferred_driver_ids" uuid[] DEFAULT '{}' NOT NULL,
	"tip" jsonb,
	"earnings" jsonb,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "bookings_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "package_history" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"package_id" uuid NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"event" text NOT NULL,
	"stop_id" uuid,
	"tour_id" uuid,
	"actor_id" uuid,
	"reason_key" text,
	"note" text,
	CONSTRAINT "package_history_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "packages" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"booking_id" uuid NOT NULL,
	"shortcode" text NOT NULL,
	"external_label" text,
	"status" text NOT NULL,
	"pickup_stop_id" uuid NOT NULL,
	"dropoff_stop_id" uuid NOT NULL,
	"description" text,
	"weight_grams" integer,
	"forced_delivery" jsonb,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "packages_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "stops" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"booking_id" uuid,
	"tour_id" uuid,
	"type" text NOT NULL,
	"status" text NOT NULL,
	"position" integer NOT NULL,
	"tour_position" integer,
	"place_id" uuid,
	"lat" double precision NOT NULL,
	"lng" double precision NOT NULL,
	"address" jsonb NOT NULL,
	"contact" jsonb,
	"group" text,
	"time_window_starts_at" timestamp with time zone,
	"time_window_ends_at" timestamp with time zone,
	"service_duration_seconds" integer NOT NULL,
	"notes" text,
	"eta" timestamp with time zone,
	"approached_at" timestamp with time zone,
	"arrived_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"failed_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"failure" jsonb,
	"recovery_of_stop_id" uuid,
	"recovery_kind" text,
	"proof" jsonb,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "stops_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "tour_visibility" (
	"tenant_id" uuid NOT NULL,
	"organization_id" uuid NOT NULL,
	"tour_id" uuid NOT NULL,
	CONSTRAINT "tour_visibility_tenant_id_organization_id_tour_id_pk" PRIMARY KEY("tenant_id","organization_id","tour_id")
);
--> statement-breakpoint
CREATE TABLE "tours" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"service_id" uuid NOT NULL,
	"service_area_id" uuid NOT NULL,
	"status" text NOT NULL,
	"driver_id" uuid,
	"executing_organization_id" uuid,
	"scheduled_at" timestamp with time zone,
	"claim_expires_at" timestamp with time zone,
	"optimized" boolean DEFAULT false NOT NULL,
	"preferred_driver_ids" uuid[] DEFAULT '{}' NOT NULL,
	"managing_organization_ids" uuid[] DEFAULT '{}' NOT NULL,
	"earnings" jsonb,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"started_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	CONSTRAINT "tours_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE UNIQUE INDEX "credentials_token_hash_key" ON "credentials" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "credentials_user_idx" ON "credentials" USING btree ("tenant_id","user_id");--> statement-breakpoint
CREATE INDEX "organization_members_user_idx" ON "organization_members" USING btree ("tenant_id","user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_key" ON "users" USING btree ("tenant_id","email");--> statement-breakpoint
CREATE INDEX "users_sign_in_email_idx" ON "users" USING btree ("email");--> statement-breakpoint
CREATE INDEX "users_role_idx" ON "users" USING btree ("tenant_id","role","id");--> statement-breakpoint
CREATE INDEX "places_customer_idx" ON "places" USING btree ("tenant_id","customer_id","id");--> statement-breakpoint
CREATE INDEX "places_service_area_idx" ON "places" USING btree ("tenant_id","service_area_id","id");--> statement-breakpoint
CREATE INDEX "events_type_idx" ON "events" USING btree ("tenant_id","type","id");--> statement-breakpoint
CREATE INDEX "events_resource_idx" ON "events" USING btree ("tenant_id","resource_id","id");--> statement-breakpoint
CREATE INDEX "events_undispatched_idx" ON "events" USING btree ("occurred_at") WHERE dispatched_at IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "jobs_dedupe_key" ON "jobs" USING btree ("tenant_id","kind","dedupe_key") WHERE status = 'pending' AND dedupe_key IS NOT NULL;--> statement-breakpoint
CREATE INDEX "jobs_due_idx" ON "jobs" USING btree ("due_at") WHERE status IN ('pending', 'running');--> statement-breakpoint
CREATE INDEX "webhook_attempts_delivery_idx" ON "webhook_attempts" USING btree ("tenant_id","delivery_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_deliveries_event_key" ON "webhook_deliveries" USING btree ("tenant_id","subscription_id","event_id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_subscription_idx" ON "webhook_deliveries" USING btree ("tenant_id","subscription_id","id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" USING btree ("next_attempt_at") WHERE status IN ('pending', 'failed');--> statement-breakpoint
CREATE INDEX "package_failure_reasons_position_idx" ON "package_failure_reasons" USING btree ("tenant_id","position");--> statement-breakpoint
CREATE INDEX "booking_visibility_booking_idx" ON "booking_visibility" USING btree ("tenant_id","booking_id");--> statement-breakpoint
CREATE INDEX "bookings_status_idx" ON "bookings" USING btree ("tenant_id","status","id");--> statement-breakpoint
CREATE INDEX "bookings_external_id_idx" ON "bookings" USING btree ("tenant_id","external_id");--> statement-breakpoint
CREATE INDEX "bookings_customer_idx" ON "bookings" USING btree ("tenant_id","customer_id","id");--> statement-breakpoint
CREATE INDEX "bookings_service_area_idx" ON "bookings" USING btree ("tenant_id","service_area_id","id");--> statement-breakpoint
CREATE INDEX "package_history_package_idx" ON "package_history" USING btree ("tenant_id","package_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "packages_shortcode_key" ON "packages" USING btree ("tenant_id","shortcode");--> statement-breakpoint
CREATE UNIQUE INDEX "packages_open_external_label_key" ON "packages" USING btree ("tenant_id","external_label") WHERE external_label IS NOT NULL AND status IN ('created', 'awaiting_pickup', 'in_transit');--> statement-breakpoint
CREATE INDEX "packages_booking_idx" ON "packages" USING btree ("tenant_id","booking_id");--> statement-breakpoint
CREATE INDEX "packages_pickup_stop_idx" ON "packages" USING btree ("tenant_id","pickup_stop_id");--> statement-breakpoint
CREATE INDEX "packages_dropoff_stop_idx" ON "packages" USING btree ("tenant_id","dropoff_stop_id");--> statement-breakpoint
CREATE INDEX "stops_booking_idx" ON "stops" USING btree ("tenant_id","booking_id","position");--> statement-breakpoint
CREATE INDEX "stops_tour_idx" ON "stops" USING btree ("tenant_id","tour_id","tour_position");--> statement-breakpoint
CREATE INDEX "tour_visibility_tour_idx" ON "tour_visibility" USING btree ("tenant_id","tour_id");--> statement-breakpoint
CREATE INDEX "tours_status_idx" ON "tours" USING btree ("tenant_id","status","id");--> statement-breakpoint
CREATE INDEX "tours_driver_idx" ON "tours" USING btree ("tenant_id","driver_id","id");