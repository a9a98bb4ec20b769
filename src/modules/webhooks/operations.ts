// Webhook operations: subscriptions (admin), secret rotation, the delivery log, redelivery, recovery and test pings.
import type { Deps } from '../../deps.ts';
import { isEventType } from '../../events/catalog.ts';
import { recordEvent } from '../../events/outbox.ts';
import type { Actor } from '../../http/actor.ts';
import { conflict, invalidFields, notFound, type FieldError } from '../../http/errors.ts';
import { t, type Messages } from '../../http/i18n.ts';
import { decodeCursor, toPage } from '../../http/pagination.ts';
import { newId } from '../../shared/ids.ts';
import { iso, isoOrNull } from '../../shared/time.ts';
import { findServiceArea, findUser } from '../identity/index.ts';
import { requireWebhookEndpoint } from './access.ts';
import { webhookPermissions } from './permissions.ts';
import * as repo from './repository.ts';
import type { DeliveryListInput, WebhookCreateInput, WebhookUpdateInput } from './schemas.ts';
import { sealSecret } from './secret-sealing.ts';
import { generateSecret } from './signing.ts';
import { checkTarget, type TargetProblem } from './targets.ts';

/** How long a rotated-out secret keeps signing alongside the new one. */
export const PREVIOUS_SECRET_GRACE_MS = 24 * 3600 * 1000;

export const messages: Messages = {
  'webhooks.unknown_event_type': { en: '{type} is not an event type Tourbook emits.', de: '{type} ist kein Ereignistyp, den Tourbook sendet.' },
  'webhooks.wildcard_alone': { en: '"*" stands for every event and cannot be combined with types.', de: '"*" steht für alle Ereignisse und lässt sich nicht mit Typen kombinieren.' },
  'webhooks.invalid_url': { en: 'Give an absolute http or https URL without credentials.', de: 'Geben Sie eine absolute http- oder https-URL ohne Zugangsdaten an.' },
  'webhooks.private_target': { en: 'The URL points to a private, loopback or link-local address.', de: 'Die URL zeigt auf eine private, Loopback- oder Link-Local-Adresse.' },
  'webhooks.delivery_in_flight': { en: 'The delivery is being attempted right now; try again in a minute.', de: 'Die Zustellung wird gerade versucht; versuchen Sie es in einer Minute erneut.' },
  'webhooks.unresolvable_host': { en: 'The host name of the URL does not resolve.', de: 'Der Hostname der URL lässt sich nicht auflösen.' },
};

export function toWebhookView(row: repo.SubscriptionRow) {
  return {
    id: row.id,
    url: row.url,
    events: row.events,
    active: row.active,
    description: row.description,
    filters: row.filters,
    disabled_reason: row.disabledReason,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
  };
}

/** Every problem with url and events at once, as 422 field errors. */
async function validateSubscription(
  deps: Deps,
  actor: Actor,
  input: { url?: string | undefined; events?: string[] | undefined; filters?: { service_area_id?: string; customer_id?: string } | undefined },
) {
  const errors: FieldError[] = [];
  // A filter on an id no event of this tenant can carry would silently match nothing, forever.
  const filters = input.filters ?? {};
  if (filters.service_area_id !== undefined && !(await findServiceArea(deps.db, actor.tenantId, filters.service_area_id))) {
    errors.push({ pointer: '/webhook/filters/service_area_id', code: 'unknown_reference', detail: 'No service area with this id is visible to you.' });
  }
  if (filters.customer_id !== undefined && (await findUser(deps.db, actor.tenantId, filters.customer_id))?.role !== 'customer') {
    errors.push({ pointer: '/webhook/filters/customer_id', code: 'unknown_reference', detail: 'No customer with this id is visible to you.' });
  }
  if (input.events) {
    if (input.events.includes('*') && input.events.length > 1) {
      errors.push({ pointer: '/webhook/events', code: 'invalid_value', detail: t(actor.lang, 'webhooks.wildcard_alone') });
    }
    input.events.forEach((type, i) => {
      if (type !== '*' && !isEventType(type)) {
        errors.push({ pointer: `/webhook/events/${i}`, code: 'unknown_event_type', detail: t(actor.lang, 'webhooks.unknown_event_type', { type }) });
      }
    });
  }
  if (input.url !== undefined) {
    const problem: TargetProblem | null = await checkTarget(input.url, deps.config.webhooksAllowPrivateTargets);
    if (problem) errors.push({ pointer: '/webhook/url', code: problem, detail: t(actor.lang, `webhooks.${problem}`) });
  }
  if (errors.length) throw invalidFields(errors);
}

export async function createWebhook(deps: Deps, actor: Actor, input: WebhookCreateInput) {
  webhookPermissions.require(actor, 'manage');
  await validateSubscription(deps, actor, input);
  const now = deps.clock.now();
  const secret = generateSecret();
  const id = newId();
  const row = {
    tenantId: actor.tenantId,
    id,
    url: input.url,
    events: input.events,
    active: input.active ?? true,
    description: input.description ?? null,
    filters: input.filters ?? {},
    secret: sealSecret(deps.config, actor.tenantId, id, secret),
    previousSecret: null,
    previousSecretExpiresAt: null,
    failingSince: null,
    disabledReason: null,
    createdAt: now,
    updatedAt: now,
  };
  await deps.db.transaction(async (tx) => repo.insertSubscription(tx, row));
  return { ...toWebhookView(row), secret };
}

export async function listWebhooks(deps: Deps, actor: Actor, query: { limit?: number | undefined; cursor?: string | undefined }) {
  webhookPermissions.require(actor, 'manage');
  const limit = query.limit ?? 25;
  const [beforeId] = decodeCursor(query.cursor) ?? [null];
  const rows = await repo.listSubscriptions(deps.db, actor.tenantId, { limit, beforeId: beforeId as string | null });
  const page = toPage(rows, limit, (row) => [row.id]);
  return { webhooks: page.items.map(toWebhookView), meta: page.meta };
}

export async function getWebhook(deps: Deps, actor: Actor, id: string) {
  webhookPermissions.require(actor, 'manage');
  return toWebhookView(await requireWebhookEndpoint(deps.db, actor, id));
}

export async function updateWebhook(deps: Deps, actor: Actor, id: string, input: WebhookUpdateInput) {
  webhookPermissions.require(actor, 'manage');
  await validateSubscription(deps, actor, input);
  return deps.db.transaction(async (tx) => {
    const row = await requireWebhookEndpoint(tx, actor, id, { forUpdate: true });
    const now = deps.clock.now();
    const patch: Partial<repo.SubscriptionRow> = { updatedAt: now };
    if (input.url !== undefined) patch.url = input.url;
    if (input.events !== undefined) patch.events = input.events;
    if (input.description !== undefined) patch.description = input.description;
    if (input.filters !== undefined) patch.filters = input.filters;
    if (input.active !== undefined) {
      patch.active = input.active;
      // Re-enabling starts afresh: the failure clock and the reason it was disabled are gone.
      if (input.active && !row.active) Object.assign(patch, { disabledReason: null, failingSince: null });
    }
    await repo.updateSubscription(tx, actor.tenantId, id, patch);
    return toWebhookView({ ...row, ...patch });
  });
}

export async function deleteWebhook(deps: Deps, actor: Actor, id: string): Promise<void> {
  webhookPermissions.require(actor, 'manage');
  await deps.db.transaction(async (tx) => {
    await requireWebhookEndpoint(tx, actor, id);
    // The worker locks deliveries before their subscription (recording a batch clears its failure clock): so does this,
    // or the two would deadlock.
    await repo.lockDeliveriesOfSubscription(tx, actor.tenantId, id);
    await requireWebhookEndpoint(tx, actor, id, { forUpdate: true });
    await repo.deleteSubscription(tx, actor.tenantId, id);
  });
}

export async function rotateWebhookSecret(deps: Deps, actor: Actor, id: string) {
  webhookPermissions.require(actor, 'manage');
  return deps.db.transaction(async (tx) => {
    const row = await requireWebhookEndpoint(tx, actor, id, { forUpdate: true });
    const now = deps.clock.now();
    const secret = generateSecret();
    const patch = {
      secret: sealSecret(deps.config, actor.tenantId, id, secret),
      // Sealed values share one context per subscription, so the old value moves over as it is.
      previousSecret: row.secret,
      previousSecretExpiresAt: new Date(now.getTime() + PREVIOUS_SECRET_GRACE_MS),
      updatedAt: now,
    };
    await repo.updateSubscription(tx, actor.tenantId, id, patch);
    return { ...toWebhookView({ ...row, ...patch }), secret };
  });
}

function toDeliveryView(row: repo.DeliveryRow, attempts: repo.AttemptRow[]) {
  return {
    id: row.id,
    event_id: row.eventId,
    event_type: row.eventType,
    status: row.status,
    attempts: attempts.map((a) => ({ at: iso(a.at), status_code: a.statusCode, duration_ms: a.durationMs, error: a.error })),
    next_attempt_at: isoOrNull(row.nextAttemptAt),
    created_at: iso(row.createdAt),
  };
}

async function withAttempts(deps: Deps, tenantId: string, rows: repo.DeliveryRow[]) {
  const attempts = await repo.attemptsOf(deps.db, tenantId, rows.map((r) => r.id));
  return rows.map((row) => toDeliveryView(row, attempts.filter((a) => a.deliveryId === row.id)));
}

export async function listDeliveries(deps: Deps, actor: Actor, id: string, query: DeliveryListInput) {
  webhookPermissions.require(actor, 'manage');
  await requireWebhookEndpoint(deps.db, actor, id);
  const limit = query.limit ?? 25;
  const [beforeId] = decodeCursor(query.cursor) ?? [null];
  const rows = await repo.listDeliveries(deps.db, actor.tenantId, id, {
    status: query.filters?.status,
    eventType: query.filters?.event_type,
    limit,
    beforeId: beforeId as string | null,
  });
  const page = toPage(rows, limit, (row) => [row.id]);
  return { deliveries: await withAttempts(deps, actor.tenantId, page.items), meta: page.meta };
}

/** Sends a delivery again now, whatever its status (unless an attempt is in flight); its log grows, its event id stays. */
export async function redeliver(deps: Deps, actor: Actor, id: string, deliveryId: string) {
  webhookPermissions.require(actor, 'manage');
  const row = await deps.db.transaction(async (tx) => {
    const delivery = await repo.findDelivery(tx, actor.tenantId, id, deliveryId, { forUpdate: true });
    if (!delivery) throw notFound('delivery');
    const now = deps.clock.now();
    // A second attempt must not start while one is in flight (its worker still holds the lease).
    if (delivery.lockedUntil && delivery.lockedUntil > now) throw conflict('delivery_in_flight', { key: 'webhooks.delivery_in_flight' });
    await repo.requeueDelivery(tx, actor.tenantId, deliveryId, now);
    return { ...delivery, status: 'pending' as const, nextAttemptAt: now };
  });
  const [view] = await withAttempts(deps, actor.tenantId, [row]);
  return view!;
}

export async function recoverDeliveries(deps: Deps, actor: Actor, id: string, since: string) {
  webhookPermissions.require(actor, 'manage');
  return deps.db.transaction(async (tx) => {
    await requireWebhookEndpoint(tx, actor, id, { forUpdate: true });
    const requeued = await repo.requeueFailedSince(tx, actor.tenantId, id, new Date(since), deps.clock.now());
    return { since: iso(new Date(since)), requeued };
  });
}

/** A webhook.test event, recorded in the event log and delivered to this one subscription only. */
export async function sendTestEvent(deps: Deps, actor: Actor, id: string) {
  webhookPermissions.require(actor, 'manage');
  const delivery = await deps.db.transaction(async (tx) => {
    await requireWebhookEndpoint(tx, actor, id);
    const now = deps.clock.now();
    const eventId = await recordEvent(tx, {
      tenantId: actor.tenantId,
      actor,
      type: 'webhook.test',
      resourceId: id,
      data: { subscription_id: id },
      at: now,
    });
    const row = {
      tenantId: actor.tenantId,
      id: newId(),
      subscriptionId: id,
      eventId,
      eventType: 'webhook.test',
      status: 'pending' as const,
      attemptCount: 0,
      nextAttemptAt: now,
      lockedUntil: null,
      lockedBy: null,
      createdAt: now,
      updatedAt: now,
    };
    await repo.insertDeliveries(tx, [row]);
    return row;
  });
  return toDeliveryView(delivery, []);
}
