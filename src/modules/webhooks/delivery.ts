// The worker's webhook work: fan events out into deliveries, then sign, POST and record each due delivery.
import type { Deps } from '../../deps.ts';
import { adminEmails, enqueueMail } from '../../mail/index.ts';
import type { Tx } from '../../db/client.ts';
import { toEnvelope } from '../../events/outbox.ts';
import { recordDeliveryOutcome } from '../../http/metrics.ts';
import { newId } from '../../shared/ids.ts';
import { postJson, type PostResult } from './http-client.ts';
import { subscriptionMatches } from './matching.ts';
import * as repo from './repository.ts';
import { MAX_ATTEMPTS, nextAttemptDelayMs, parseRetryAfter } from './retry-schedule.ts';
import { signatureHeader } from './signing.ts';

/** A subscription that has only failed for this long is disabled (CONTRACT.md §9). */
export const FAILING_DISABLE_MS = 5 * 24 * 3600 * 1000;
/** Longer than the 15 s timeout plus recording: an attempt is never started twice while one is in flight. */
export const DELIVERY_LEASE_MS = 60_000;
/** Deliveries leased and sent at once by one worker pass. */
export const DELIVERY_BATCH = 64;

/**
 * One transaction: claims undispatched events, creates one delivery per matching active subscription of the same
 * tenant, and marks the events dispatched. Returns how many events it handled.
 */
export async function fanOutEvents(deps: Deps, limit = 200): Promise<number> {
  return deps.db.transaction(async (tx) => {
    const events = await repo.claimUndispatchedEvents(tx, limit);
    if (!events.length) return 0;
    const now = deps.clock.now();
    const subscriptions = await repo.activeSubscriptionsOf(tx, [...new Set(events.map((e) => e.tenant_id))]);
    const deliveries = events.flatMap((event) =>
      subscriptions
        .filter((s) => s.tenantId === event.tenant_id && subscriptionMatches(s, event, event.tenant_extensions))
        .map((s) => ({
          tenantId: event.tenant_id,
          id: newId(),
          subscriptionId: s.id,
          eventId: event.id,
          eventType: event.type,
          status: 'pending' as const,
          attemptCount: 0,
          nextAttemptAt: now,
          createdAt: now,
          updatedAt: now,
        })),
    );
    await repo.insertDeliveries(tx, deliveries);
    await repo.markEventsDispatched(tx, events, now);
    return events.length;
  });
}

/** The exact bytes POSTed: the outbox's envelope of the event (CONTRACT.md §9). */
export const envelopeBody = (row: repo.ClaimedDelivery): string =>
  JSON.stringify(
    toEnvelope({
      tenantId: row.tenant_id,
      id: row.event_id,
      type: row.type,
      resourceType: row.resource_type,
      event: row.event,
      resourceId: row.resource_id,
      data: row.data,
      occurredAt: new Date(row.occurred_at),
      dispatchedAt: null,
    }),
  );

function signingSecrets(row: repo.ClaimedDelivery, now: Date): string[] {
  const previousValid = row.previous_secret && row.previous_secret_expires_at && new Date(row.previous_secret_expires_at) > now;
  return previousValid ? [row.secret, row.previous_secret!] : [row.secret];
}

async function attempt(deps: Deps, row: repo.ClaimedDelivery, timeoutMs: number | undefined): Promise<{ at: Date; result: PostResult }> {
  const at = deps.clock.now();
  const timestamp = Math.floor(at.getTime() / 1000);
  const body = envelopeBody(row);
  const headers = {
    'webhook-id': row.event_id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signatureHeader(signingSecrets(row, at), row.event_id, timestamp, body),
  };
  const result = await postJson(row.url, body, headers, { allowPrivate: deps.config.webhooksAllowPrivateTargets, timeoutMs });
  return { at, result };
}

const isSuccess = (status: number | null): boolean => status !== null && status >= 200 && status < 300;

interface Outcome {
  row: repo.ClaimedDelivery;
  at: Date;
  result: PostResult;
}

/**
 * Records a batch of attempts in one transaction: every attempt in the log, the successes in bulk, and each failure
 * with its consequences (next attempt, exhaustion, disabling the subscription).
 */
type DeliveryOutcome = 'succeeded' | 'failed' | 'exhausted';

async function recordOutcomes(deps: Deps, workerId: string, outcomes: Outcome[]): Promise<DeliveryOutcome[]> {
  if (!outcomes.length) return [];
  return deps.db.transaction(async (tx) => {
    const now = deps.clock.now();
    // Deliveries deleted meanwhile (with their subscription) are gone from this map and leave no attempt behind.
    const current = new Map((await repo.lockDeliveries(tx, outcomes.map((o) => o.row))).map((d) => [d.id, d]));
    const present = outcomes.filter((o) => current.has(o.row.id));
    await repo.insertAttempts(
      tx,
      present.map(({ row, at, result }) => ({
        tenantId: row.tenant_id,
        id: newId(),
        deliveryId: row.id,
        at,
        statusCode: result.statusCode,
        durationMs: result.durationMs,
        error: result.error ?? (isSuccess(result.statusCode) ? null : `HTTP ${result.statusCode}`),
      })),
    );
    // Someone re-queued or re-leased a delivery meanwhile (redeliver, an expired lease): the log keeps the attempt,
    // the newer holder decides the status.
    const ours = present.filter((o) => current.get(o.row.id)!.locked_by === workerId);
    const successes = ours.filter((o) => isSuccess(o.result.statusCode)).map((o) => o.row);
    await repo.markDeliveriesSucceeded(tx, successes, now);
    // Touches (and so locks) a subscription only when it was failing: concurrent successes do not queue on it.
    await repo.clearFailingSince(tx, successes.map((r) => ({ tenant_id: r.tenant_id, id: r.subscription_id })));
    const recorded: DeliveryOutcome[] = successes.map(() => 'succeeded');
    for (const outcome of ours.filter((o) => !isSuccess(o.result.statusCode))) {
      recorded.push(await recordFailure(tx, outcome, current.get(outcome.row.id)!.attempt_count + 1, now));
    }
    return recorded;
  });
}

async function recordFailure(tx: Tx, { row, at, result }: Outcome, attemptCount: number, now: Date): Promise<'failed' | 'exhausted'> {
  const delay = attemptCount >= MAX_ATTEMPTS ? null : nextAttemptDelayMs(attemptCount, parseRetryAfter(result.retryAfter, now), Math.random());
  await repo.updateDelivery(tx, row.tenant_id, row.id, {
    status: delay === null ? 'exhausted' : 'failed',
    attemptCount,
    nextAttemptAt: delay === null ? null : new Date(now.getTime() + delay),
    lockedUntil: null,
    lockedBy: null,
    updatedAt: now,
  });
  const status = delay === null ? 'exhausted' : 'failed';
  const subscription = await repo.findSubscription(tx, row.tenant_id, row.subscription_id, { forUpdate: true });
  if (!subscription?.active) return status;
  const failingSince = subscription.failingSince ?? at;
  const reason = result.statusCode === 410 ? 'gone' : now.getTime() - failingSince.getTime() >= FAILING_DISABLE_MS ? 'failing' : null;
  if (reason) await disableSubscription(tx, subscription, reason, now);
  else if (!subscription.failingSince) await repo.updateSubscription(tx, row.tenant_id, row.subscription_id, { failingSince });
  return status;
}

async function disableSubscription(tx: Tx, subscription: repo.SubscriptionRow, reason: 'gone' | 'failing', now: Date): Promise<void> {
  await repo.updateSubscription(tx, subscription.tenantId, subscription.id, { active: false, disabledReason: reason, updatedAt: now });
  const why =
    reason === 'gone'
      ? 'its endpoint answered 410 Gone'
      : 'every delivery to it has failed for 5 days';
  await enqueueMail(tx, {
    tenantId: subscription.tenantId,
    to: await adminEmails(tx, subscription.tenantId),
    subject: `Webhook disabled: ${subscription.url}`,
    text:
      `Tourbook disabled the webhook subscription ${subscription.id} (${subscription.url}) because ${why}.\n\n` +
      'Fix the endpoint, re-enable the subscription (PATCH /api/admin/webhooks/{id} with "active": true) and ' +
      're-queue what it missed with POST /api/admin/webhooks/{id}/recover.\n',
    now,
  });
}

/** Leases a batch of due deliveries, sends them concurrently and records the batch; returns how many were attempted. */
export async function deliverDue(deps: Deps, workerId: string, options: { limit?: number; timeoutMs?: number } = {}): Promise<number> {
  const claimed = await repo.claimDueDeliveries(deps.db, deps.clock.now(), workerId, DELIVERY_LEASE_MS, options.limit ?? DELIVERY_BATCH);
  const outcomes = await Promise.all(claimed.map(async (row) => ({ row, ...(await attempt(deps, row, options.timeoutMs)) })));
  try {
    // Counted after the commit, so the metric never shows an attempt the log does not have.
    for (const outcome of await recordOutcomes(deps, workerId, outcomes)) recordDeliveryOutcome(outcome);
  } catch (err) {
    // The leases run out and the deliveries are attempted again: at-least-once.
    deps.log.error({ err, deliveries: claimed.length }, 'recording webhook attempts failed');
  }
  return claimed.length;
}
