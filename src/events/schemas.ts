// Event log wire schemas: the envelope of docs/api-guide.md "Events and webhooks" and the GET /api/admin/events query.
import { component, StringEnum, withExample } from '../http/openapi-components.ts';
import { EXAMPLE_AT, EXAMPLE_ID as ID } from '../http/openapi-examples.ts';
import { Type, type Static } from '@sinclair/typebox';
import { PaginationQuery } from '../http/pagination.ts';
import { ListOf, Nullable, Timestamp, Uuid } from '../http/schemas.ts';
import { EVENT_TYPES } from './catalog.ts';

export const EventTypeName = component('EventType', StringEnum(EVENT_TYPES));
/** The same enum on responses, typed as the plain string the event log stores. */
export const EventTypeText = Type.Unsafe<string>(EventTypeName);

/** Who caused an event (decision 0106): a user through a session or an API key, or the worker on its own. */
export const EventActor = component(
  'EventActor',
  Type.Object(
    {
      type: StringEnum(['user', 'system'] as const),
      id: Nullable(Type.String({ format: 'uuid', description: 'The user who acted, whatever the credential; null for `system`. `filters[actor_id]` matches it.' })),
      api_key_id: Nullable(Type.String({ format: 'uuid', description: 'The API key the user acted through; null for a sign-in session and for `system`.' })),
    },
    { description: 'Who caused the event: `user` for a request, `system` for what the worker does on its own (claim expiry, debounced events, ticks).' },
  ),
);
/** The actor as the envelope carries it: null on events recorded before the audit trail existed. */
export const EnvelopeActor = Nullable(EventActor);

export const EventEnvelope = component('Event', withExample(Type.Object({
  id: Uuid,
  type: EventTypeText,
  resource_type: Type.String(),
  event: Type.String(),
  timestamp: Timestamp,
  data: Type.Record(Type.String(), Type.Unknown(), { description: 'The payload of the type: see the `webhooks` section.' }),
  actor: EnvelopeActor,
}), {
  id: ID.event,
  type: 'booking.created',
  resource_type: 'booking',
  event: 'created',
  timestamp: EXAMPLE_AT,
  data: { booking_id: ID.booking, service_area_id: ID.serviceArea, customer_id: ID.customer, external_id: 'SHOP-1042' },
  actor: { type: 'user', id: ID.admin, api_key_id: ID.apiKey },
}));

export const EventLogQuery = Type.Object(
  {
    ...PaginationQuery,
    filters: Type.Optional(
      Type.Object(
        {
          // No minItems: a query string cannot send an empty list, and a deepObject reader (Prism) that fills an absent
          // `filters[type]` with [] must not be told the request is invalid (decision 0161).
          type: Type.Optional(Type.Array(EventTypeName, { maxItems: 20 })),
          resource_id: Type.Optional(Uuid),
          actor_id: Type.Optional(Uuid),
          since: Type.Optional(Timestamp),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
export type EventLogQuery = Static<typeof EventLogQuery>;

/** One resource's events (a booking's timeline): pages only, the resource is the path's. */
export const EventPageQuery = Type.Object({ ...PaginationQuery }, { additionalProperties: false });
export type EventPageQuery = Static<typeof EventPageQuery>;

export const EventList = ListOf('events', EventEnvelope);
