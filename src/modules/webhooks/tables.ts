// Webhook tables: subscriptions, one delivery per (subscription, event), and a log row per delivery attempt.
import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export interface SubscriptionFilters {
  service_area_id?: string;
  customer_id?: string;
}

export const webhookSubscriptions = pgTable(
  'webhook_subscriptions',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid('id').notNull(),
    url: text('url').notNull(),
    /** Event types, or ['*'] for every event the tenant may receive. */
    events: text('events').array().notNull(),
    active: boolean('active').notNull(),
    description: text('description'),
    filters: jsonb('filters').$type<SubscriptionFilters>().notNull().default({}),
    secret: text('secret').notNull(),
    /** After a rotation the previous secret keeps signing alongside until previous_secret_expires_at. */
    previousSecret: text('previous_secret'),
    previousSecretExpiresAt: ts('previous_secret_expires_at'),
    /** Start of the current run of failures (null after any success): 5 days of it disables the subscription. */
    failingSince: ts('failing_since'),
    disabledReason: text('disabled_reason'),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.id] })],
);

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed' | 'exhausted';

export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid('id').notNull(),
    subscriptionId: uuid('subscription_id').notNull(),
    eventId: uuid('event_id').notNull(),
    eventType: text('event_type').notNull(),
    status: text('status').$type<DeliveryStatus>().notNull(),
    attemptCount: integer('attempt_count').notNull().default(0),
    /** When the next attempt is due; null once succeeded or exhausted. */
    nextAttemptAt: ts('next_attempt_at'),
    /** A worker holds the delivery while it POSTs; a killed worker's delivery comes back when the lease ends. */
    lockedUntil: ts('locked_until'),
    lockedBy: text('locked_by'),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    // Fan-out is idempotent: one delivery per subscription and event, however often it runs.
    uniqueIndex('webhook_deliveries_event_key').on(t.tenantId, t.subscriptionId, t.eventId),
    index('webhook_deliveries_subscription_idx').on(t.tenantId, t.subscriptionId, t.id),
    // The worker's cross-tenant scan for due work (like jobs_due_idx).
    index('webhook_deliveries_due_idx').on(t.nextAttemptAt).where(sql`status IN ('pending', 'failed')`),
  ],
);

export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid('id').notNull(),
    deliveryId: uuid('delivery_id').notNull(),
    at: ts('at').notNull(),
    statusCode: integer('status_code'),
    durationMs: integer('duration_ms').notNull(),
    error: text('error'),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.id] }), index('webhook_attempts_delivery_idx').on(t.tenantId, t.deliveryId, t.id)],
);
