// Webhook wire schemas: subscriptions, deliveries with their attempts, redelivery and recovery.
import { component, StringEnum, withExample } from '../../http/openapi-components.ts';
import { EXAMPLE_AT, EXAMPLE_ID as ID } from '../../http/openapi-examples.ts';
import { EventTypeText } from '../../events/schemas.ts';
import { Type, type Static } from '@sinclair/typebox';
import { PaginationQuery } from '../../http/pagination.ts';
import { ListOf, Nullable, Timestamp, Uuid } from '../../http/schemas.ts';

const Filters = component('WebhookFilters', Type.Object(
  {
    service_area_id: Type.Optional(Uuid),
    customer_id: Type.Optional(Uuid),
  },
  { additionalProperties: false, description: 'Only events whose data carries these ids are delivered.' },
));

const EventList = Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
  minItems: 1,
  maxItems: 100,
  uniqueItems: true,
  description: 'Event types, or ["*"] for every event.',
});

const Url = Type.String({ minLength: 1, maxLength: 2048, description: 'An http or https URL.' });
const Description = Type.String({ maxLength: 500 });

const WEBHOOK_EXAMPLE = {
  url: 'https://shop.example/hooks/tourbook',
  events: ['booking.created', 'booking.transition', 'tour.active_status_changed'],
  active: true,
  description: 'Order status in the shop',
  filters: { service_area_id: ID.serviceArea },
};

export const WebhookCreateBody = withExample(Type.Object(
  {
    webhook: Type.Object(
    {
      url: Url,
      events: EventList,
      active: Type.Optional(Type.Boolean({ default: true })),
      description: Type.Optional(Nullable(Description)),
      filters: Type.Optional(Filters),
    },
    { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
), { webhook: WEBHOOK_EXAMPLE });
export type WebhookCreateInput = Static<typeof WebhookCreateBody>['webhook'];

export const WebhookUpdateBody = withExample(Type.Object(
  {
    webhook: Type.Object(
    {
      url: Type.Optional(Url),
      events: Type.Optional(EventList),
      active: Type.Optional(Type.Boolean()),
      description: Type.Optional(Nullable(Description)),
      filters: Type.Optional(Filters),
    },
    { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
), { webhook: { events: ['*'], active: false } });
export type WebhookUpdateInput = Static<typeof WebhookUpdateBody>['webhook'];

const WEBHOOK_READ = { id: ID.webhook, ...WEBHOOK_EXAMPLE, disabled_reason: null, created_at: EXAMPLE_AT, updated_at: EXAMPLE_AT };
export const Webhook = component('Webhook', withExample(Type.Object({
  id: Uuid,
  url: Type.String(),
  events: Type.Array(Type.String()),
  active: Type.Boolean(),
  description: Nullable(Type.String()),
  filters: Filters,
  disabled_reason: Nullable(Type.String({ description: 'Why the service disabled the subscription (gone, failing).' })),
  created_at: Timestamp,
  updated_at: Timestamp,
}), WEBHOOK_READ));

/** The secret is shown on create and on rotation only. */
export const WebhookWithSecret = component('WebhookWithSecret', withExample(
  Type.Composite([Webhook, Type.Object({ secret: Type.String({ description: 'whsec_…' }) })]),
  { ...WEBHOOK_READ, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' },
));

export const WebhookResponse = Type.Object({ webhook: Webhook });
export const WebhookSecretResponse = Type.Object({ webhook: WebhookWithSecret });
export const WebhookList = ListOf('webhooks', Webhook);

export const WebhookParams = Type.Object({ id: Uuid });
export const DeliveryParams = Type.Object({ id: Uuid, delivery_id: Uuid });

export const DeliveryStatus = component('DeliveryStatus', StringEnum(['pending', 'succeeded', 'failed', 'exhausted']));

export const Attempt = component('DeliveryAttempt', Type.Object({
  at: Timestamp,
  status_code: Nullable(Type.Integer()),
  duration_ms: Type.Integer(),
  error: Nullable(Type.String()),
}));

export const Delivery = component('Delivery', withExample(Type.Object({
  id: Uuid,
  event_id: Uuid,
  event_type: EventTypeText,
  status: DeliveryStatus,
  attempts: Type.Array(Attempt),
  next_attempt_at: Nullable(Timestamp),
  created_at: Timestamp,
}), {
  id: ID.delivery,
  event_id: ID.event,
  event_type: 'booking.created',
  status: 'failed',
  attempts: [{ at: EXAMPLE_AT, status_code: 503, duration_ms: 412, error: null }],
  next_attempt_at: '2026-11-22T13:05:30.000Z',
  created_at: EXAMPLE_AT,
}));

export const DeliveryResponse = Type.Object({ delivery: Delivery });
export const DeliveryList = ListOf('deliveries', Delivery);

export const DeliveryListQuery = Type.Object(
  {
    ...PaginationQuery,
    filters: Type.Optional(
      Type.Object({ status: Type.Optional(DeliveryStatus), event_type: Type.Optional(Type.String({ maxLength: 100 })) }, { additionalProperties: false }),
    ),
  },
  { additionalProperties: false },
);
export type DeliveryListInput = Static<typeof DeliveryListQuery>;

export const ListQuery = Type.Object(PaginationQuery, { additionalProperties: false });

export const RecoverBody = withExample(Type.Object({ since: Timestamp }, { additionalProperties: false }), { since: '2026-11-22T12:00:00.000Z' });
export const RecoveryResponse = withExample(Type.Object({ recovery: Type.Object({ since: Timestamp, requeued: Type.Integer() }) }), {
  recovery: { since: '2026-11-22T12:00:00.000Z', requeued: 14 },
});
