// Every event type's `data` (docs/api-guide.md "Events and webhooks") and the OpenAPI 3.1 `webhooks` section built from them.
import { Type, type TSchema } from '@sinclair/typebox';
import { deprecatedItem } from '../http/openapi.ts';
import { component } from '../http/openapi-components.ts';
import { Nullable } from '../http/schemas.ts';
import { BookingStatusSchema as BookingStatus, TourStatusSchema as TourStatus } from '../modules/dispatch/index.ts';
import { FailureOutcomeName } from '../modules/services/index.ts';
import { EVENT_TYPES, EXTENSION_EVENTS, splitType, type EventType } from './catalog.ts';
import { EnvelopeActor } from './schemas.ts';

const Id = Type.String({ format: 'uuid' });
const Timestamp = Type.String({ format: 'date-time' });
const Money = Type.Object({ amount: Type.Integer(), currency: Type.String() });

const booking = {
  booking_id: Id,
  customer_id: Nullable(Id),
  external_id: Nullable(Type.String()),
  service_area_id: Id,
};
const tour = { tour_id: Id, service_area_id: Id };

const Outcome = FailureOutcomeName;

const unfinishedStops = Type.Array(
  Type.Object({ id: Id, position: Type.Integer(), type: Type.String(), eta: Nullable(Timestamp) }),
  { description: 'Open stops in tour order with their new ETAs.' },
);

/** `data` of each event type: what subscribers may rely on (more members may be added, never removed). */
export const EVENT_PAYLOADS: Record<EventType, TSchema> = {
  'booking.created': Type.Object({ ...booking, status: BookingStatus }),
  'booking.etas_recalculated': Type.Object({ ...booking, unfinished_stops_info: unfinishedStops }),
  'booking.modified': Type.Object(booking),
  'booking.route_changed': Type.Object({ ...booking, tour_id: Type.Optional(Nullable(Id)) }),
  'booking.transition': Type.Object({ ...booking, from: BookingStatus, to: BookingStatus, event: Type.String({ description: 'What caused it.' }) }),
  'booking.stop_failed': Type.Object({
    ...booking,
    stop_id: Id,
    tour_id: Nullable(Id),
    outcome: Outcome,
    failure_reason: Type.Object({ key: Nullable(Type.String()), label: Nullable(Type.String()), note: Nullable(Type.String()) }),
    recovery_stop_id: Nullable(Id),
  }),
  'booking.return_started': Type.Object({ ...booking, stop_id: Nullable(Id), tour_id: Nullable(Id) }),
  'booking.feedback_received': Type.Object({ ...booking, rating: Type.Integer({ minimum: 1, maximum: 5 }), comment: Nullable(Type.String()) }),
  'booking.recipient_instructions_updated': Type.Object({
    ...booking,
    stop_ids: Type.Array(Id, { description: "The recipient's open stops that now carry the instructions." }),
    instructions: Type.Object({
      kind: Type.Union([Type.Literal('none'), Type.Literal('leave_at_door'), Type.Literal('neighbour')]),
      neighbour: Nullable(Type.String()),
      note: Nullable(Type.String()),
    }),
  }),
  'booking.delivery_date_changed': Type.Object({
    ...booking,
    from_date: Type.String({ format: 'date', description: "The day (the service area's) the recipient moved the delivery from." }),
    to_date: Type.String({ format: 'date', description: 'The day it moved to: its open stops keep their wall-clock windows there and wait for dispatch.' }),
  }),
  'booking.auto_dispatched': Type.Object({ ...booking, tour_id: Id }),
  'booking.auto_dispatch_skipped': Type.Object({
    ...booking,
    reason: Type.String({ description: '`no_open_tour`, `no_fit` or `budget_exceeded` (decision 1350).' }),
    constraint: Nullable(Type.String({ description: 'With `no_fit`: the binding constraint — `stop_limit`, `time_window`, `capacity` or `shift`.' })),
  }),
  'booking.recipient_notification_due': Type.Object({
    ...booking,
    stop_id: Id,
    moment: Type.Union([Type.Literal('dispatched'), Type.Literal('on_its_way'), Type.Literal('approaching'), Type.Literal('delivered'), Type.Literal('failed')]),
    locale: Type.Union([Type.Literal('en'), Type.Literal('de')]),
    recipient: Type.Object({ name: Nullable(Type.String()), email: Nullable(Type.String()), phone_number: Nullable(Type.String()) }),
    subject: Type.String(),
    text: Type.String({ description: 'The message for any channel (an SMS provider sends it as it is), with the tracking link.' }),
    tracking_url: Nullable(Type.String()),
    email_sent: Type.Boolean({ description: 'Whether Tourbook e-mailed it (false: see `email_not_sent`).' }),
    email_not_sent: Nullable(
      Type.Union([Type.Literal('no_address'), Type.Literal('invalid_address'), Type.Literal('unsubscribed'), Type.Literal('no_tracking_link')], {
        description: 'Why it was not e-mailed: no address, an address that is not one valid mailbox, the address unsubscribed, or no master key for the links (decision 1622); null when sent.',
      }),
    ),
  }),
  'tour.created': Type.Object({ ...tour, status: TourStatus, dispatched_booking_ids: Type.Array(Id) }),
  'tour.active_status_changed': Type.Object({
    ...tour,
    from: TourStatus,
    to: TourStatus,
    event: Type.String({ description: 'The action or automatic cause: `claim`, `start`, `claim_expired`, …' }),
    driver_id: Nullable(Id),
    affected_user_ids: Type.Array(Id),
  }),
  'tour.driver_location_updated': Type.Object({
    ...tour,
    driver_id: Id,
    location: Type.Object({
      lat: Type.Number(),
      lng: Type.Number(),
      heading: Nullable(Type.Number()),
      speed: Nullable(Type.Number()),
      accuracy: Nullable(Type.Number()),
      recorded_at: Timestamp,
    }),
  }),
  'tour.etas_recalculated': Type.Object({ ...tour, unfinished_stops_info: unfinishedStops }),
  'tour.force_assigned': Type.Object({ ...tour, driver_id: Id }),
  'tour.force_unassigned': Type.Object({ ...tour, driver_id: Nullable(Id) }),
  'tour.modified': Type.Object(tour),
  'tour.compensation_updated': Type.Object({
    ...tour,
    compensation: Type.Object({ currency: Type.String(), total_amount: Type.Integer() }, { additionalProperties: true }),
  }),
  'tour.earnings_updated': deprecatedItem('legacy_earnings', Type.Object({ ...tour, earnings: Nullable(Money) })),
  'busyness.place_changed': Type.Object({
    place_id: Id,
    service_area_id: Id,
    busyness: Type.Integer({ minimum: 0, maximum: 100 }),
    previous_busyness: Nullable(Type.Integer({ minimum: 0, maximum: 100 })),
    computed_at: Timestamp,
  }),
  'webhook.test': Type.Object({ subscription_id: Id }),
  'dispatch.plan_ready': Type.Object({ plan_id: Id, status: Type.Union([Type.Literal('done'), Type.Literal('failed')]), applied: Type.Boolean(), tour_ids: Type.Array(Id), unplaced_count: Type.Integer() }),
};

/** The envelope every delivery carries, with this type's data. */
export const envelopeOf = (type: EventType) => {
  const { resourceType, event } = splitType(type);
  return Type.Object({
    id: Type.String({ format: 'uuid', description: 'The event id; also the `webhook-id` header, stable across retries.' }),
    type: Type.Literal(type),
    resource_type: Type.Literal(resourceType),
    event: Type.Literal(event),
    timestamp: Timestamp,
    data: EVENT_PAYLOADS[type],
    actor: EnvelopeActor,
  });
};

const signatureHeaders = {
  'webhook-id': { description: 'The event id (Standard Webhooks).', required: true, schema: { type: 'string' } },
  'webhook-timestamp': { description: 'Unix seconds of this attempt.', required: true, schema: { type: 'string' } },
  'webhook-signature': {
    description: '`v1,<base64 HMAC-SHA256 of "id.timestamp.body">`; during a secret rotation, one signature per secret, space-separated.',
    required: true,
    schema: { type: 'string' },
  },
};

const pascal = (type: string) => type.split(/[._]/).map((part) => part.charAt(0).toUpperCase() + part.slice(1)).join('');

/** OpenAPI 3.1 `webhooks`: one POST per event type, as delivered to a subscription's URL. */
export function webhooksDocument(): Record<string, unknown> {
  return Object.fromEntries(
    EVENT_TYPES.map((type) => {
      const extension = EXTENSION_EVENTS[type];
      const deprecated = type === 'tour.earnings_updated';
      return [
        type,
        {
          post: {
            operationId: `on${pascal(type)}`,
            summary: `${type} delivered to a subscription`,
            description: [
              'At least once, no ordering promise: order by `timestamp`, deduplicate by `id`. Answer 2xx within 15 s; 410 disables the subscription.',
              extension ? `Only for tenants with the \`${extension}\` extension.` : '',
            ].filter(Boolean).join(' '),
            tags: ['webhooks'],
            ...(deprecated ? { deprecated: true } : {}),
            security: [],
            parameters: Object.entries(signatureHeaders).map(([name, header]) => ({ name, in: 'header', ...header })),
            requestBody: { required: true, content: { 'application/json': { schema: component(`${pascal(type)}Event`, envelopeOf(type)) } } },
            responses: {
              '200': { description: 'Received (any 2xx).' },
              '410': { description: 'Gone: the subscription is disabled.' },
            },
          },
        },
      ];
    }),
  );
}
