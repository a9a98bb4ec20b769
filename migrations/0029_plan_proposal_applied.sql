-- A plan run as a job keeps what it proposed, so that POST /api/hailing/dispatch/plans/{id}/apply creates exactly
-- that in one transaction, once (applied_at): decision 1645.
ALTER TABLE "dispatch_plans" ADD COLUMN "proposal" jsonb;--> statement-breakpoint
ALTER TABLE "dispatch_plans" ADD COLUMN "applied_at" timestamp with time zone;
