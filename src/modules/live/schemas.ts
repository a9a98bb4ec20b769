// Live tracking wire schemas: a driver's position in and out, the position history, stream tickets and filters.
import { Type, type Static } from '@sinclair/typebox';
import { withExample } from '../../http/openapi-components.ts';
import { EXAMPLE_ID as ID } from '../../http/openapi-examples.ts';
import { PaginationQuery } from '../../http/pagination.ts';
import { ListOf, Nullable, Timestamp, Uuid } from '../../http/schemas.ts';

export const LocationInput = Type.Object(
  {
    lat: Type.Number({ minimum: -90, maximum: 90 }),
    lng: Type.Number({ minimum: -180, maximum: 180 }),
    heading: Type.Optional(Nullable(Type.Number({ minimum: 0, maximum: 360, description: 'Degrees clockwise from north.' }))),
    speed: Type.Optional(Nullable(Type.Number({ minimum: 0, description: 'Metres per second, as the device reports it.' }))),
    accuracy: Type.Optional(Nullable(Type.Number({ minimum: 0, description: 'Metres.' }))),
    recorded_at: Type.String({ format: 'date-time', description: 'When the device took the fix; at most 5 minutes in the future.' }),
  },
  { additionalProperties: false },
);
export const DriverLocationBody = withExample(Type.Object({ location: LocationInput }, { additionalProperties: false }), {
  location: { lat: 52.5311, lng: 13.3467, heading: 92.5, speed: 8.3, accuracy: 6, recorded_at: '2026-11-22T13:12:04.000Z' },
});
export type DriverLocationBodyT = Static<typeof DriverLocationBody>;

/** Most fixes one batch takes: two hours at one per 10 s, what the driver app keeps while offline (decision 1207). */
export const MAX_LOCATIONS_PER_BATCH = 720;
export const DriverLocationsBody = withExample(
  Type.Object(
    {
      locations: Type.Array(LocationInput, {
        minItems: 1,
        maxItems: MAX_LOCATIONS_PER_BATCH,
        description: 'Fixes in any order; each is judged like one sent alone, and only the newest that qualifies becomes current.',
      }),
    },
    { additionalProperties: false },
  ),
  {
    locations: [
      { lat: 52.5302, lng: 13.3441, heading: 90, speed: 7.9, accuracy: 8, recorded_at: '2026-11-22T13:11:54.000Z' },
      { lat: 52.5311, lng: 13.3467, heading: 92.5, speed: 8.3, accuracy: 6, recorded_at: '2026-11-22T13:12:04.000Z' },
    ],
  },
);
export type DriverLocationsBodyT = Static<typeof DriverLocationsBody>;

export const Location = withExample(Type.Object({
  id: Uuid,
  lat: Type.Number(),
  lng: Type.Number(),
  heading: Nullable(Type.Number()),
  speed: Nullable(Type.Number()),
  accuracy: Nullable(Type.Number()),
  recorded_at: Timestamp,
  received_at: Timestamp,
  filtered: Nullable(Type.Union([Type.Literal('zero'), Type.Literal('duplicate'), Type.Literal('jump')])),
  /** Whether it became the tour's current position (false for filtered and for late, older uploads). */
  current: Type.Boolean(),
}), {
  id: ID.position,
  lat: 52.5311,
  lng: 13.3467,
  heading: 92.5,
  speed: 8.3,
  accuracy: 6,
  recorded_at: '2026-11-22T13:12:04.000Z',
  received_at: '2026-11-22T13:12:04.311Z',
  filtered: null,
  current: true,
});
export const LocationEnvelope = Type.Object({ location: Location });
/** The batch's fixes as stored, in the order sent. */
export const LocationsEnvelope = Type.Object({ locations: Type.Array(Location) });
export const PositionList = ListOf('positions', Location);
export const PositionListQuery = Type.Object({ ...PaginationQuery }, { additionalProperties: false });
export type PositionListQueryT = Static<typeof PositionListQuery>;

export const TicketEnvelope = withExample(Type.Object({
  ticket: Type.Object({ token: Type.String(), expires_at: Timestamp, url: Type.String({ description: 'Path of the stream with the ticket.' }) }),
}), { ticket: { token: 'tbl_W2xq8ZkR4mN7pV1c', expires_at: '2026-11-22T13:06:00.000Z', url: '/api/live?ticket=tbl_W2xq8ZkR4mN7pV1c' } });

export const LiveQuery = Type.Object(
  {
    ticket: Type.Optional(Type.String({ maxLength: 256 })),
    filters: Type.Optional(
      Type.Object(
        {
          tour_id: Type.Optional(Uuid),
          types: Type.Optional(Type.Union([Type.Array(Type.String({ maxLength: 64 }), { maxItems: 30 }), Type.String({ maxLength: 64 })])),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
export type LiveQueryT = Static<typeof LiveQuery>;
