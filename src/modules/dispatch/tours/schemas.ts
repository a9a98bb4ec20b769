// Tours wire schemas: tours, dispatch bodies, transitions, visibility explanation (docs/api-guide.md "Who sees what").
import { component, EnumText, StringEnum, withExample } from '../../../http/openapi-components.ts';
import { EXAMPLE_AT, EXAMPLE_ID as ID } from '../../../http/openapi-examples.ts';
import { deprecatedItem } from '../../../http/openapi.ts';
import { Type, type Static } from '@sinclair/typebox';
import { PaginationQuery } from '../../../http/pagination.ts';
import { ListOf, Nullable, Timestamp, Uuid } from '../../../http/schemas.ts';
import { DROPOFF_EXAMPLE, Stop, STOP_EXAMPLE, View } from '../bookings/index.ts';

export const TourStatus = component('TourStatus', StringEnum(['to_be_dispatched', 'scheduled', 'pickable', 'claimed', 'en_route', 'completed', 'cancelled']));

export const Tour = component('Tour', withExample(Type.Object({
  id: Uuid,
  service_id: Uuid,
  service_area_id: Uuid,
  status: EnumText(TourStatus),
  driver_id: Nullable(Uuid),
  executing_organization_id: Nullable(Uuid),
  scheduled_at: Nullable(Timestamp),
  claim_expires_at: Nullable(Timestamp),
  optimized: Type.Boolean(),
  label: Nullable(Type.String({ maxLength: 80, description: "The dispatcher's name for the tour; pages show the driver's name and day when null." })),
  locked: Type.Boolean({ description: "Plans never add, remove or reorder a locked tour's stops." }),
  managing_organization_ids: Type.Array(Uuid),
  preferred_driver_ids: Type.Array(Uuid),
  stops: Type.Optional(Type.Array(Stop)),
  earnings: Type.Optional(deprecatedItem('legacy_earnings', Nullable(component('Money', Type.Object({ amount: Type.Integer(), currency: Type.String() }))))),
  created_at: Timestamp,
  started_at: Nullable(Timestamp),
  completed_at: Nullable(Timestamp),
}), {
  id: ID.tour,
  service_id: ID.service,
  service_area_id: ID.serviceArea,
  status: 'en_route',
  driver_id: ID.driver,
  executing_organization_id: ID.organization,
  scheduled_at: '2026-11-22T13:00:00.000Z',
  claim_expires_at: null,
  optimized: true,
  label: 'North route',
  locked: false,
  managing_organization_ids: [ID.organization],
  preferred_driver_ids: [],
  stops: [STOP_EXAMPLE, DROPOFF_EXAMPLE],
  earnings: null,
  created_at: EXAMPLE_AT,
  started_at: '2026-11-22T13:10:00.000Z',
  completed_at: null,
}));
export const TourEnvelope = Type.Object({ tour: Tour });
export const TourList = ListOf('tours', Tour);

export const TourListQuery = Type.Object(
  {
    ...PaginationQuery,
    view: Type.Optional(View),
    filters: Type.Optional(
      Type.Object(
        {
          status: Type.Optional(Type.Array(TourStatus)),
          service_area_id: Type.Optional(Uuid),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
export type TourListQueryT = Static<typeof TourListQuery>;

export const MergeBody = withExample(Type.Union([
  Type.Object(
    {
      stop_ids: Type.Array(Uuid, { minItems: 1, maxItems: 1000, uniqueItems: true }),
      optimize: Type.Optional(Type.Boolean()),
      scheduled_at: Type.Optional(Nullable(Timestamp)),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      booking_ids: Type.Array(Uuid, { minItems: 1, maxItems: 100, uniqueItems: true }),
      optimize: Type.Optional(Type.Boolean()),
      scheduled_at: Type.Optional(Nullable(Timestamp)),
    },
    { additionalProperties: false },
  ),
]), { booking_ids: [ID.booking], optimize: true, scheduled_at: '2026-11-22T13:00:00Z' });
export type MergeInput = Static<typeof MergeBody>;

// `booking_ids` moves every open stop (waiting or scheduled) of the bookings together (decision 1640).
export const InsertStopsBody = withExample(Type.Union([
  Type.Object(
    { stop_ids: Type.Array(Uuid, { minItems: 1, maxItems: 1000, uniqueItems: true }), position: Type.Optional(Type.Integer({ minimum: 0 })) },
    { additionalProperties: false },
  ),
  Type.Object(
    { booking_ids: Type.Array(Uuid, { minItems: 1, maxItems: 100, uniqueItems: true }), position: Type.Optional(Type.Integer({ minimum: 0 })) },
    { additionalProperties: false },
  ),
]), { stop_ids: [ID.pickupStop, ID.dropoffStop], position: 2 });
export type InsertStopsInput = Static<typeof InsertStopsBody>;

export const TourPatchBody = withExample(Type.Object({
  tour: Type.Object(
    {
      label: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 80 }))),
      locked: Type.Optional(Type.Boolean()),
    },
    { additionalProperties: false },
  ),
}, { additionalProperties: false }), { tour: { label: 'North route', locked: true } });
export type TourPatchInput = Static<typeof TourPatchBody>['tour'];

export const ForceAssignBody = withExample(Type.Object({ driver_id: Uuid, start: Type.Optional(Type.Boolean()) }, { additionalProperties: false }), { driver_id: ID.driver, start: true });

export const TourVisibilityEnvelope = withExample(Type.Object({
  visibility: Type.Object({
    tour_id: Uuid,
    reason: Type.Union([Type.Literal('executing_driver'), Type.Literal('managing_organization'), Type.Literal('no_managing_organizations')]),
    organizations: Type.Array(Type.Object({ organization_id: Uuid, reason: Type.String() })),
    drivers_of_all_organizations: Type.Boolean(),
  }),
}), {
  visibility: {
    tour_id: ID.tour,
    reason: 'managing_organization',
    organizations: [{ organization_id: ID.organization, reason: 'managing_organization' }],
    drivers_of_all_organizations: false,
  },
});
