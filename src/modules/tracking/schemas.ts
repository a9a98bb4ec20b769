// The public tracking read's wire shape (docs/tracking.md): exactly what a recipient needs, nothing else.
import { Type } from '@sinclair/typebox';
import { component, withExample } from '../../http/openapi-components.ts';
import { Nullable, Timestamp } from '../../http/schemas.ts';

const TimeWindow = Nullable(Type.Object({ starts_at: Timestamp, ends_at: Timestamp }));

const TrackedStop = Type.Object({
  kind: Type.Union([Type.Literal('pickup'), Type.Literal('dropoff')]),
  status: Type.String(),
  time_window: TimeWindow,
  eta: Nullable(Timestamp),
  eta_window: Nullable(Type.Object({ earliest: Timestamp, latest: Timestamp })),
  completed_at: Nullable(Timestamp),
  failure: Nullable(Type.Object({ reason: Type.String() })),
  next_attempt: Nullable(Type.Object({ time_window: TimeWindow })),
  proof: Nullable(Type.Object({ recipient_name: Nullable(Type.String()), photo_url: Nullable(Type.String()) })),
});

export const Tracking = component('Tracking', withExample(Type.Object({
  booking_status: Type.String(),
  stops: Type.Array(TrackedStop),
  driver: Nullable(Type.Object({
    first_name: Type.String(),
    position: Nullable(Type.Object({ lat: Type.Number(), lng: Type.Number(), recorded_at: Timestamp })),
  })),
  stops_before_yours: Nullable(Type.Integer({ minimum: 0 })),
  feedback: Nullable(Type.Object({ rating: Type.Integer({ minimum: 1, maximum: 5 }), comment: Nullable(Type.String()) })),
}), {
  booking_status: 'dispatched',
  stops: [
    {
      kind: 'pickup',
      status: 'completed',
      time_window: { starts_at: '2026-11-22T13:00:00.000Z', ends_at: '2026-11-22T15:00:00.000Z' },
      eta: null,
      eta_window: null,
      completed_at: '2026-11-22T13:12:00.000Z',
      failure: null,
      next_attempt: null,
      proof: null,
    },
    {
      kind: 'dropoff',
      status: 'approaching',
      time_window: { starts_at: '2026-11-22T14:00:00.000Z', ends_at: '2026-11-22T16:00:00.000Z' },
      eta: '2026-11-22T14:20:00.000Z',
      eta_window: { earliest: '2026-11-22T14:15:00.000Z', latest: '2026-11-22T14:25:00.000Z' },
      completed_at: null,
      failure: null,
      next_attempt: null,
      proof: null,
    },
  ],
  driver: { first_name: 'Carla', position: { lat: 52.5301, lng: 13.4071, recorded_at: '2026-11-22T14:08:30.000Z' } },
  stops_before_yours: null,
  feedback: null,
}));

export const TrackingEnvelope = Type.Object({ tracking: Tracking });

/** The token is opaque; anything longer than a token could be is refused by the schema (404-free 400 is not wanted). */
export const TokenParams = Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }) });

export const FeedbackBody = withExample(
  Type.Object(
    {
      feedback: Type.Object(
        { rating: Type.Integer({ minimum: 1, maximum: 5 }), comment: Type.Optional(Type.String({ maxLength: 2000 })) },
        { additionalProperties: false },
      ),
    },
    { additionalProperties: false },
  ),
  { feedback: { rating: 5, comment: 'Left with the neighbour, as asked — thank you!' } },
);

/** A tracked stop by its index in the tracking object's `stops` (decision 1250). */
export const ProofPhotoParams = Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }), index: Type.Integer({ minimum: 0, maximum: 999 }) });
