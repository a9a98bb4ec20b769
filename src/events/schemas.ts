// Event log wire schemas: the envelope of CONTRACT.md §9 and the GET /api/admin/events query.
import { Type, type Static } from '@sinclair/typebox';
import { PaginationQuery } from '../http/pagination.ts';
import { ListOf, Timestamp, Uuid } from '../http/schemas.ts';
import { EVENT_TYPES } from './catalog.ts';

export const EventTypeName = Type.Union(EVENT_TYPES.map((type) => Type.Literal(type)));

export const EventEnvelope = Type.Object({
  id: Uuid,
  type: Type.String(),
  resource_type: Type.String(),
  event: Type.String(),
  timestamp: Timestamp,
  data: Type.Record(Type.String(), Type.Unknown()),
});

export const EventLogQuery = Type.Object(
  {
    ...PaginationQuery,
    filters: Type.Optional(
      Type.Object(
        {
          type: Type.Optional(Type.Array(EventTypeName, { minItems: 1, maxItems: 20 })),
          resource_id: Type.Optional(Uuid),
          since: Type.Optional(Timestamp),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
export type EventLogQuery = Static<typeof EventLogQuery>;

export const EventList = ListOf('events', EventEnvelope);
