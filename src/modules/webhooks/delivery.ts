// The worker's webhook work: fan events out into deliveries, then sign, POST and record each due delivery.
import type { Deps } from '../../deps.ts';
import { adminEmails, enqueueMail } from '../../mail/index.ts';
import type { Tx } from '../../db/client.ts';
import { toLoggedEnvelope } from '../../events/outbox.ts';
import { recordDeliveryOutcome } from '../../http/metrics.ts';
import { newId } from '../../shared/ids.ts';
import { postJson, type PostResult } from './http-client.ts';
import { subscriptionMatches } from './matching.ts';
import * as repo from './repository.ts';
import { MAX_ATTEMPTS, nextAttemptDelayMs, parseRetryAfter } from './retry-schedule.ts';
import { openSecret } from './secret-sealing.ts';
import { signatureHeader } from './signing.ts';

/** A subscription that has only failed for this long is disabled (docs/api-guide.md "Events and webhooks"). */
export const FAILING_DISABLE_MS = 5 * 24 * 3600 * 1000;
/** Longer than the 15 s timeout plus recording: an attempt is never started twice while one is in flight. */
export const DELIVERY_LEASE_MS = 60_000;
/** Deliveries leased and sent at once by one worker pass. */
export const DELIVERY_BATCH = 64;

/**
 * One transaction of two statements: claims undispatched events with their tenants' active subscriptions, then
 * creates one delivery per matching subscription and marks the events dispatched. Returns how many events it handled.
 */
export async function fanOutEvents(deps: Deps, limit = 200): Promise<number> {
  return deps.db.transaction(async (tx) => {
    const tenants = await repo.claimUndispatchedEvents(tx, limit);
    if (!tenants.length) return 0;
    const events = tenants.flatMap((tenant) => tenant.events.map((event) => ({ tenant_id: tenant.tenant_id, id: event.id })));
    const deliveries = tenants.flatMap((tenant) =>
      tenant.events.flatMap((event) =>
        tenant.subscriptions
          .filter((s) => subscriptionMatches(s, event, tenant.extensions))
          .map((s) => ({ tenant_id: tenant.tenant_id, id: newId(), subscription_id: s.id, event_id: event.id, event_type: event.type })),
      ),
    );
    await repo.dispatchEvents(tx, deliveries, events, deps.clock.now());
    return events.length;
  });
}

/** The exact bytes POSTed: the outbox's envelope of the event (docs/api-guide.md "Events and webhooks") with its actor (decision 0106). */
export const envelopeBody = (row: repo.ClaimedDelivery): string =>
  JSON.stringify(
    toLoggedEnvelope({
      tenantId: row.tenant_id,
      id: row.event_id,
      type: row.type,
      resourceType: row.resource_type,
      event: row.event,
      resourceId: row.resource_id,
      data: row.data,
      occurredAt: new Date(row.occurred_at),
      dispatchedAt: null,
      actorType: row.actor_type,
      actorId: row.actor_id,
      actorApiKeyId: row.actor_api_key_id,
    }),
  );

function signingSecrets(deps: Deps, row: repo.ClaimedDelivery, now: Date): string[] {
  const previousValid = row.previous_secret && row.previous_secret_expires_at && new Date(row.previous_secret_expires_at) > now;
  const stored = previousValid ? [row.secret, row.previous_secret!] : [row.secret];
  return stored.map((value) => openSecret(deps.config, row.tenant_id, row.subscription_id, value));
}

async function attempt(deps: Deps, row: repo.ClaimedDelivery, timeoutMs: number | undefined): Promise<{ at: Date; result: PostResult }> {
  const at = deps.clock.now();
  const timestamp = Math.floor(at.getTime() / 1000);
  const body = envelopeBody(row);
  let secrets: string[];
  try {
    secrets = signingSecrets(deps, row, at);
  } catch (err) {
    // A process without the master key that sealed the secret (decision 0702): a failed attempt in the log, retried.
    deps.log.error({ err, subscription_id: row.subscription_id }, 'webhook secret cannot be opened: is REPORTS_MASTER_KEY the same on every process?');
    return { at, result: { statusCode: null, retryAfter: undefined, durationMs: 0, error: 'signing secret unavailable on this worker' } };
  }
  const headers = {
    'webhook-id': row.event_id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signatureHeader(secrets, row.event_id, timestamp, body),
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

type DeliveryOutcome = 'succeeded' | 'failed' | 'exhausted';

/**
 * Records the successes of a batch (nearly all of it) in one statement, without a transaction around it: every
 * attempt in the log, the deliveries this worker still holds marked succeeded, the failure clock of their
 * subscriptions stopped. Returns how many it marked succeeded.
 */
async function recordSuccesses(deps: Deps, workerId: string, outcomes: Outcome[]): Promise<number> {
  return repo.recordSuccessfulAttempts(
    deps.db,
    workerId,
    outcomes.map(({ row, at, result }) => ({
      tenant_id: row.tenant_id,
      id: newId(),
      delivery_id: row.id,
      subscription_id: row.subscription_id,
      at,
      status_code: result.statusCode!,
      duration_ms: result.durationMs,
    })),
    deps.clock.now(),
  );
}

/** Records the failures of a batch in one transaction, each with its consequences (next attempt, exhaustion, disabling). */
async function recordFailures(deps: Deps, workerId: string, outcomes: Outcome[]): Promise<DeliveryOutcome[]> {
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
        error: result.error ?? `HTTP ${result.statusCode}`,
      })),
    );
    // Someone re-queued or re-leased a delivery meanwhile (redeliver, an expired lease): the log keeps the attempt,
    // the newer holder decides the status.
    const recorded: DeliveryOutcome[] = [];
    for (const outcome of present.filter((o) => current.get(o.row.id)!.locked_by === workerId)) {
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
  const successes = outcomes.filter((o) => isSuccess(o.result.statusCode));
  const failures = outcomes.filter((o) => !isSuccess(o.result.statusCode));
  try {
    // Counted after each commit, so the metric never shows an attempt the log does not have.
    const succeeded = await recordSuccesses(deps, workerId, successes);
    for (let i = 0; i < succeeded; i++) recordDeliveryOutcome('succeeded');
    if (failures.length) for (const outcome of await recordFailures(deps, workerId, failures)) recordDeliveryOutcome(outcome);
  } catch (err) {
    // The leases run out and the deliveries are attempted again: at-least-once.
    deps.log.error({ err, deliveries: claimed.length }, 'recording webhook attempts failed');
  }
  return claimed.length;
}
