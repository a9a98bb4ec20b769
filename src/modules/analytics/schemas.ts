// Delivery analytics wire schemas (contract §17, docs/api-guide.md "Delivery analytics").
import { Type, type Static } from '@sinclair/typebox';
import { component, withExample } from '../../http/openapi-components.ts';
import { EXAMPLE_ID as ID } from '../../http/openapi-examples.ts';
import { IdParams, Nullable, Timestamp, Uuid } from '../../http/schemas.ts';

const strict = { additionalProperties: false };
const Rate = Nullable(Type.Number({ minimum: 0, maximum: 1, description: 'A share from 0 to 1; null without stops.' }));

export const DeliveriesQuery = Type.Object(
  {
    from: Type.String({ format: 'date-time', description: 'The period starts here (included).' }),
    to: Type.String({ format: 'date-time', description: 'The period ends here (excluded); at most 400 days after `from`.' }),
    service_area_id: Type.Optional(Uuid),
    organization_id: Type.Optional(Type.String({ format: 'uuid', description: 'Only stops of tours this organization sees.' })),
    filters: Type.Optional(Type.Object({ stop_type: Type.Optional(Type.Union([Type.Literal('pickup'), Type.Literal('dropoff')])) }, strict)),
  },
  strict,
);
export type DeliveriesQuery = Static<typeof DeliveriesQuery>;

// Named components so the typed client (and the console's Analytics page) reads them by name.
export const DeliveryAnalytics = component('DeliveryAnalytics', withExample(
  Type.Object({
    from: Timestamp,
    to: Timestamp,
    stops: Type.Object({ completed: Type.Integer(), failed: Type.Integer(), on_time: Type.Integer(), late: Type.Integer() }),
    on_time_rate: Rate,
    first_attempt_success_rate: Rate,
    eta_error_s: Nullable(Type.Object({ mae: Type.Integer(), p90: Type.Integer(), samples: Type.Integer() })),
    stops_per_hour: Nullable(Type.Number()),
    distance_km: Nullable(Type.Number()),
    by_driver: Type.Array(
      Type.Object({ driver_id: Uuid, name: Nullable(Type.String()), stops_completed: Type.Integer(), on_time_rate: Rate, stops_per_hour: Nullable(Type.Number()) }),
    ),
    by_failure_reason: Type.Array(Type.Object({ reason_key: Nullable(Type.String()), count: Type.Integer() })),
    by_day: Type.Array(
      Type.Object({
        date: Type.String({ format: 'date', description: "The day in the stop's service area's time zone." }),
        completed: Type.Integer(),
        on_time: Type.Integer({ description: 'Completed at or before the window’s end (or without a window).' }),
        late: Type.Integer({ description: '`completed` − `on_time`.' }),
        failed: Type.Integer(),
        on_time_rate: Rate,
      }),
    ),
    by_driver_day: Type.Array(
      Type.Object({
        driver_id: Uuid,
        name: Nullable(Type.String()),
        date: Type.String({ format: 'date', description: "The day of the tours' first finished stop in the service area's time zone." }),
        tours: Type.Integer({ description: 'Tours of the driver that day made by an applied plan.' }),
        planned: Type.Object({ stops: Type.Integer(), distance_m: Nullable(Type.Integer()), finish_at: Nullable(Timestamp) }, { description: 'What the applied plans promised for these tours.' }),
        actual: Type.Object(
          { stops_completed: Type.Integer(), stops_failed: Type.Integer(), distance_m: Nullable(Type.Integer()), finish_at: Nullable(Timestamp) },
          { description: 'What their stops did in the period: finished stops, metres by the kept positions, the last finished stop.' },
        ),
      }),
      { description: 'Planned against actual per driver and day, for the tours an applied plan made (decision 1749).' },
    ),
  }),
  {
    from: '2026-11-21T23:00:00.000Z',
    to: '2026-11-22T23:00:00.000Z',
    stops: { completed: 46, failed: 2, on_time: 43, late: 3 },
    on_time_rate: 0.9348,
    first_attempt_success_rate: 0.9583,
    eta_error_s: { mae: 212, p90: 540, samples: 40 },
    stops_per_hour: 6.13,
    distance_km: 84.2,
    by_driver: [{ driver_id: ID.driver, name: 'Dana Driver', stops_completed: 46, on_time_rate: 0.9348, stops_per_hour: 6.13 }],
    by_failure_reason: [{ reason_key: 'recipient_absent', count: 2 }],
    by_day: [{ date: '2026-11-22', completed: 46, on_time: 43, late: 3, failed: 2, on_time_rate: 0.9348 }],
    by_driver_day: [{
      driver_id: ID.driver,
      name: 'Dana Driver',
      date: '2026-11-22',
      tours: 1,
      planned: { stops: 48, distance_m: 82500, finish_at: '2026-11-22T15:30:00.000Z' },
      actual: { stops_completed: 46, stops_failed: 2, distance_m: 84200, finish_at: '2026-11-22T15:52:00.000Z' },
    }],
  },
));
export type DeliveryAnalytics = Static<typeof DeliveryAnalytics>;
export const DeliveryAnalyticsResponse = Type.Object({ analytics: DeliveryAnalytics });

export const TourAnalytics = component('TourAnalytics', withExample(
  Type.Object({
    planned: Nullable(Type.Object({ stops: Type.Integer(), distance_m: Nullable(Type.Integer()), finish_at: Nullable(Timestamp) })),
    actual: Type.Object({ stops_completed: Type.Integer(), stops_failed: Type.Integer(), distance_m: Nullable(Type.Integer()), finish_at: Nullable(Timestamp) }),
  }),
  {
    planned: { stops: 12, distance_m: 38400, finish_at: '2026-11-22T15:30:00.000Z' },
    actual: { stops_completed: 11, stops_failed: 1, distance_m: 40125, finish_at: '2026-11-22T15:52:00.000Z' },
  },
));
export type TourAnalytics = Static<typeof TourAnalytics>;
export const TourAnalyticsResponse = Type.Object({ tour_analytics: TourAnalytics });
export { IdParams };
