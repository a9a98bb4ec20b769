// Webhook SQL: subscriptions, deliveries and attempts, and the fan-out statements built around the outbox's claims.
import { and, asc, desc, eq, gte, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { queryRows } from '../../db/sql.ts';
import { claimUndispatchedEvents as claimEvents, markEventsDispatched } from '../../events/outbox-claims.ts';
import { tenantExtensionsRead } from '../identity/index.ts';
import type { MatchableSubscription } from './matching.ts';
import { webhookAttempts, webhookDeliveries, webhookSubscriptions, type DeliveryStatus } from './tables.ts';

export type SubscriptionRow = typeof webhookSubscriptions.$inferSelect;
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;
export type AttemptRow = typeof webhookAttempts.$inferSelect;

const subscriptionKey = (tenantId: string, id: string) => and(eq(webhookSubscriptions.tenantId, tenantId), eq(webhookSubscriptions.id, id));
const deliveryKey = (tenantId: string, id: string) => and(eq(webhookDeliveries.tenantId, tenantId), eq(webhookDeliveries.id, id));

const list = (values: string[]) => sql.join([...new Set(values)].map((v) => sql`${v}`), sql`, `);

/**
 * Rows by `(tenant_id, id)` keys, written as two IN lists the primary key index serves directly (a list of row
 * values can fall back to a sequential scan). Ids are UUIDv7, unique across tenants, so the lists pick no extra row.
 */
const byKeys = (keys: { tenant_id: string; id: string }[]) =>
  sql`tenant_id IN (${list(keys.map((k) => k.tenant_id))}) AND id IN (${list(keys.map((k) => k.id))})`;

export async function insertSubscription(q: Queryable, row: typeof webhookSubscriptions.$inferInsert): Promise<void> {
  await q.insert(webhookSubscriptions).values(row);
}

export async function findSubscription(q: Queryable, tenantId: string, id: string, options: { forUpdate?: boolean } = {}) {
  const query = q.select().from(webhookSubscriptions).where(subscriptionKey(tenantId, id));
  const [row] = options.forUpdate ? await query.for('update') : await query;
  return row ?? null;
}

export async function listSubscriptions(q: Queryable, tenantId: string, page: { limit: number; beforeId: string | null }) {
  return q
    .select()
    .from(webhookSubscriptions)
    .where(and(eq(webhookSubscriptions.tenantId, tenantId), page.beforeId ? lt(webhookSubscriptions.id, page.beforeId) : undefined))
    .orderBy(desc(webhookSubscriptions.id))
    .limit(page.limit + 1);
}

export async function updateSubscription(q: Queryable, tenantId: string, id: string, patch: Partial<SubscriptionRow>): Promise<void> {
  await q.update(webhookSubscriptions).set(patch).where(subscriptionKey(tenantId, id));
}

/** A subscription goes with its deliveries and their attempt log. */
/** Locks the subscription's deliveries in key order, the order the worker locks them in. */
export async function lockDeliveriesOfSubscription(q: Queryable, tenantId: string, subscriptionId: string): Promise<void> {
  await q
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.tenantId, tenantId), eq(webhookDeliveries.subscriptionId, subscriptionId)))
    .orderBy(asc(webhookDeliveries.tenantId), asc(webhookDeliveries.id))
    .for('update');
}

export async function deleteSubscription(q: Queryable, tenantId: string, id: string): Promise<void> {
  await q.execute(sql`DELETE FROM webhook_attempts a USING webhook_deliveries d
                       WHERE a.tenant_id = ${tenantId} AND d.tenant_id = ${tenantId}
                         AND a.delivery_id = d.id AND d.subscription_id = ${id}`);
  await q.delete(webhookDeliveries).where(and(eq(webhookDeliveries.tenantId, tenantId), eq(webhookDeliveries.subscriptionId, id)));
  await q.delete(webhookSubscriptions).where(subscriptionKey(tenantId, id));
}

/** Inserts deliveries; one that exists for the same (subscription, event) is left alone. */
export async function insertDeliveries(q: Queryable, rows: (typeof webhookDeliveries.$inferInsert)[]): Promise<void> {
  if (!rows.length) return;
  await q.insert(webhookDeliveries).values(rows).onConflictDoNothing();
}

export async function findDelivery(q: Queryable, tenantId: string, subscriptionId: string, id: string, options: { forUpdate?: boolean } = {}) {
  const query = q
    .select()
    .from(webhookDeliveries)
    .where(and(deliveryKey(tenantId, id), eq(webhookDeliveries.subscriptionId, subscriptionId)));
  const [row] = options.forUpdate ? await query.for('update') : await query;
  return row ?? null;
}

export async function listDeliveries(
  q: Queryable,
  tenantId: string,
  subscriptionId: string,
  filter: { status?: DeliveryStatus | undefined; eventType?: string | undefined; limit: number; beforeId: string | null },
): Promise<DeliveryRow[]> {
  return q
    .select()
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.tenantId, tenantId),
        eq(webhookDeliveries.subscriptionId, subscriptionId),
        filter.status ? eq(webhookDeliveries.status, filter.status) : undefined,
        filter.eventType ? eq(webhookDeliveries.eventType, filter.eventType) : undefined,
        filter.beforeId ? lt(webhookDeliveries.id, filter.beforeId) : undefined,
      ),
    )
    .orderBy(desc(webhookDeliveries.id))
    .limit(filter.limit + 1);
}

export async function attemptsOf(q: Queryable, tenantId: string, deliveryIds: string[]): Promise<AttemptRow[]> {
  if (!deliveryIds.length) return [];
  return q
    .select()
    .from(webhookAttempts)
    .where(and(eq(webhookAttempts.tenantId, tenantId), inArray(webhookAttempts.deliveryId, deliveryIds)))
    .orderBy(webhookAttempts.id);
}

export async function requeueDelivery(q: Queryable, tenantId: string, id: string, now: Date): Promise<void> {
  await q
    .update(webhookDeliveries)
    .set({ status: 'pending', nextAttemptAt: now, lockedUntil: null, lockedBy: null, updatedAt: now })
    .where(deliveryKey(tenantId, id));
}

/** Re-queues every failed or exhausted delivery of a subscription created since `since` and not in flight; returns how many. */
export async function requeueFailedSince(q: Queryable, tenantId: string, subscriptionId: string, since: Date, now: Date): Promise<number> {
  const rows = await q
    .update(webhookDeliveries)
    .set({ status: 'pending', nextAttemptAt: now, lockedUntil: null, lockedBy: null, updatedAt: now })
    .where(
      and(
        eq(webhookDeliveries.tenantId, tenantId),
        eq(webhookDeliveries.subscriptionId, subscriptionId),
        inArray(webhookDeliveries.status, ['failed', 'exhausted']),
        gte(webhookDeliveries.createdAt, since),
        // A retry in flight is left to its worker.
        or(isNull(webhookDeliveries.lockedUntil), lt(webhookDeliveries.lockedUntil, now)),
      ),
    )
    .returning({ id: webhookDeliveries.id });
  return rows.length;
}

// ── The worker's side ────────────────────────────────────────────────────────────────────────────

/** Claimed outbox events of one tenant, with what fan-out matches them against. */
export interface UndispatchedTenantEvents {
  tenant_id: string;
  extensions: string[];
  events: { id: string; type: string; data: Record<string, unknown> }[];
  /** The tenant's active subscriptions, as much of them as matching reads. */
  subscriptions: MatchableSubscription[];
}

/**
 * Claims undispatched outbox events (the webhook module is the outbox's consumer, docs/architecture.md "The outbox and the worker"; the claim is the
 * events' own SQL) and reads, in the same statement, the extensions (identity's read) and active subscriptions of
 * their tenants: one row per tenant.
 */
export async function claimUndispatchedEvents(q: Queryable, limit: number): Promise<UndispatchedTenantEvents[]> {
  return queryRows<UndispatchedTenantEvents>(
    q,
    sql`WITH claimed AS (${claimEvents(limit)}),
             tenant AS (${tenantExtensionsRead(sql`SELECT tenant_id FROM claimed`)})
        SELECT t.id AS tenant_id, t.extensions,
               (SELECT json_agg(json_build_object('id', c.id, 'type', c.type, 'data', c.data) ORDER BY c.occurred_at)
                  FROM claimed c WHERE c.tenant_id = t.id) AS events,
               (SELECT coalesce(json_agg(json_build_object('id', s.id, 'active', s.active, 'events', s.events, 'filters', s.filters)), '[]')
                  FROM webhook_subscriptions s WHERE s.tenant_id = t.id AND s.active) AS subscriptions
          FROM tenant t`,
  );
}

/** A delivery fan-out creates: pending, due now. */
export interface NewDelivery {
  tenant_id: string;
  id: string;
  subscription_id: string;
  event_id: string;
  event_type: string;
}

/**
 * Inserts the deliveries of claimed events and marks the events dispatched, in one statement; a delivery that exists
 * for the same (subscription, event) is left alone. Both lists travel as JSON parameters.
 */
export async function dispatchEvents(q: Queryable, deliveries: NewDelivery[], events: { tenant_id: string; id: string }[], now: Date): Promise<void> {
  if (!events.length) return;
  await q.execute(sql`WITH inserted AS (
                         INSERT INTO webhook_deliveries (tenant_id, id, subscription_id, event_id, event_type, status, attempt_count,
                                                         next_attempt_at, created_at, updated_at)
                         SELECT d.tenant_id, d.id, d.subscription_id, d.event_id, d.event_type, 'pending', 0, ${now}, ${now}, ${now}
                           FROM json_to_recordset(${JSON.stringify(deliveries)}::json)
                             AS d(tenant_id uuid, id uuid, subscription_id uuid, event_id uuid, event_type text)
                         ON CONFLICT DO NOTHING),
                       dispatched AS (
                         SELECT * FROM json_to_recordset(${JSON.stringify(events)}::json) AS e(tenant_id uuid, id uuid))
                       ${markEventsDispatched(sql`dispatched`, now)}`);
}

export interface ClaimedDelivery {
  tenant_id: string;
  id: string;
  subscription_id: string;
  attempt_count: number;
  url: string;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Date | string | null;
  event_id: string;
  type: string;
  resource_type: string;
  event: string;
  resource_id: string | null;
  occurred_at: Date | string;
  data: Record<string, unknown>;
  actor_type: 'user' | 'system' | null;
  actor_id: string | null;
  actor_api_key_id: string | null;
}

/**
 * Leases up to `limit` due deliveries of active subscriptions: while the lease runs no other worker takes them,
 * and a killed worker's deliveries come back when it ends.
 */
export async function claimDueDeliveries(q: Queryable, now: Date, workerId: string, leaseMs: number, limit: number) {
  const until = new Date(now.getTime() + leaseMs);
  return queryRows<ClaimedDelivery>(
    q,
    sql`WITH claimed AS (
          UPDATE webhook_deliveries d SET locked_until = ${until}, locked_by = ${workerId}, updated_at = ${now}
           WHERE (d.tenant_id, d.id) IN (
             SELECT d2.tenant_id, d2.id FROM webhook_deliveries d2
               JOIN webhook_subscriptions s2 ON s2.tenant_id = d2.tenant_id AND s2.id = d2.subscription_id
              WHERE d2.status IN ('pending', 'failed') AND d2.next_attempt_at <= ${now}
                AND (d2.locked_until IS NULL OR d2.locked_until < ${now}) AND s2.active
              ORDER BY d2.next_attempt_at
              LIMIT ${limit}
              FOR UPDATE OF d2 SKIP LOCKED)
          RETURNING d.tenant_id, d.id, d.subscription_id, d.attempt_count, d.event_id)
        SELECT c.tenant_id, c.id, c.subscription_id, c.attempt_count, s.url, s.secret, s.previous_secret,
               s.previous_secret_expires_at, e.id AS event_id, e.type, e.resource_type, e.event, e.resource_id, e.occurred_at, e.data,
               e.actor_type, e.actor_id, e.actor_api_key_id
          FROM claimed c
          JOIN webhook_subscriptions s ON s.tenant_id = c.tenant_id AND s.id = c.subscription_id
          JOIN events e ON e.tenant_id = c.tenant_id AND e.id = c.event_id`,
  );
}

/** Locks a batch's failed deliveries in key order (no deadlock between workers) and reads who holds them. */
export async function lockDeliveries(q: Queryable, keys: { tenant_id: string; id: string }[]) {
  if (!keys.length) return [];
  return queryRows<{ tenant_id: string; id: string; locked_by: string | null; attempt_count: number }>(
    q,
    sql`SELECT tenant_id, id, locked_by, attempt_count FROM webhook_deliveries
         WHERE ${byKeys(keys)}
         ORDER BY tenant_id, id
           FOR UPDATE`,
  );
}

/** A 2xx attempt, as the worker hands it to `recordSuccessfulAttempts`. */
export interface SuccessfulAttempt {
  tenant_id: string;
  /** The attempt row's id. */
  id: string;
  delivery_id: string;
  subscription_id: string;
  at: Date;
  status_code: number;
  duration_ms: number;
}

/**
 * Records a batch of successful attempts in one statement (statement-atomic, one round trip): locks the deliveries
 * still present in key order, as `lockDeliveries` does; logs an attempt for each of them (a delivery deleted
 * meanwhile, with its subscription, leaves none); marks `succeeded` only those this worker still holds (a re-queued or
 * re-leased one keeps the attempt, the newer holder decides its status); and stops the failure clock of their
 * subscriptions where it runs (touching, and so locking, only those). The batch travels as one JSON parameter.
 * Returns how many deliveries it marked succeeded.
 */
export async function recordSuccessfulAttempts(q: Queryable, workerId: string, attempts: SuccessfulAttempt[], now: Date): Promise<number> {
  if (!attempts.length) return 0;
  const [row] = await queryRows<{ succeeded: number }>(
    q,
    sql`WITH batch AS (
          SELECT * FROM json_to_recordset(${JSON.stringify(attempts)}::json)
            AS x(tenant_id uuid, id uuid, delivery_id uuid, subscription_id uuid, at timestamptz, status_code int, duration_ms int)),
        held AS (
          SELECT d.tenant_id, d.id, d.locked_by FROM webhook_deliveries d
           WHERE d.tenant_id = ANY (ARRAY(SELECT DISTINCT tenant_id FROM batch))
             AND d.id = ANY (ARRAY(SELECT delivery_id FROM batch))
           ORDER BY d.tenant_id, d.id
             FOR UPDATE),
        logged AS (
          INSERT INTO webhook_attempts (tenant_id, id, delivery_id, at, status_code, duration_ms, error)
          SELECT b.tenant_id, b.id, b.delivery_id, b.at, b.status_code, b.duration_ms, NULL
            FROM batch b JOIN held h ON h.tenant_id = b.tenant_id AND h.id = b.delivery_id),
        succeeded AS (
          UPDATE webhook_deliveries d
             SET status = 'succeeded', attempt_count = d.attempt_count + 1, next_attempt_at = NULL,
                 locked_until = NULL, locked_by = NULL, updated_at = ${now}
            FROM held h
           WHERE d.tenant_id = h.tenant_id AND d.id = h.id AND h.locked_by = ${workerId}
          RETURNING d.tenant_id, d.subscription_id),
        cleared AS (
          UPDATE webhook_subscriptions s SET failing_since = NULL
           WHERE s.tenant_id = ANY (ARRAY(SELECT DISTINCT tenant_id FROM succeeded))
             AND s.id = ANY (ARRAY(SELECT DISTINCT subscription_id FROM succeeded))
             AND s.failing_since IS NOT NULL)
        SELECT count(*)::int AS succeeded FROM succeeded`,
  );
  return row!.succeeded;
}

export async function insertAttempts(q: Queryable, rows: (typeof webhookAttempts.$inferInsert)[]): Promise<void> {
  if (rows.length) await q.insert(webhookAttempts).values(rows);
}

export async function updateDelivery(q: Queryable, tenantId: string, id: string, patch: Partial<DeliveryRow>): Promise<void> {
  await q.update(webhookDeliveries).set(patch).where(deliveryKey(tenantId, id));
}

/** Subscriptions (every tenant) with a secret not sealed under `keyId` (null: with a plain secret), after a key. */
export async function subscriptionsToReseal(q: Queryable, keyId: string | null, after: { tenantId: string; id: string } | null, limit: number) {
  const sealed = keyId ? `tbk1.${keyId}.%` : 'tbk1.%';
  return queryRows<{ tenant_id: string; id: string }>(
    q,
    sql`SELECT tenant_id, id FROM webhook_subscriptions
         WHERE (secret NOT LIKE ${sealed} OR (previous_secret IS NOT NULL AND previous_secret NOT LIKE ${sealed}))
           ${after ? sql`AND (tenant_id, id) > (${after.tenantId}::uuid, ${after.id}::uuid)` : sql``}
         ORDER BY tenant_id, id
         LIMIT ${limit}`,
  );
}
