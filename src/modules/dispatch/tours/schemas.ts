// Tours wire schemas: tours, dispatch bodies, transitions, visibility explanation (CONTRACT.md §4–5).
import { component, EnumText, StringEnum } from '../../../http/openapi-components.ts';
import { deprecatedItem } from '../../../http/openapi.ts';
import { Type, type Static } from '@sinclair/typebox';
import { PaginationQuery } from '../../../http/pagination.ts';
import { ListOf, Nullable, Timestamp, Uuid } from '../../../http/schemas.ts';
import { Stop, View } from '../bookings/schemas.ts';

export const TourStatus = component('TourStatus', StringEnum(['to_be_dispatched', 'scheduled', 'pickable', 'claimed', 'en_route', 'completed', 'cancelled']));

export const Tour = component('Tour', Type.Object({
  id: Uuid,
  service_id: Uuid,
  service_area_id: Uuid,
  status: EnumText(TourStatus),
  driver_id: Nullable(Uuid),
  executing_organization_id: Nullable(Uuid),
  scheduled_at: Nullable(Timestamp),
  claim_expires_at: Nullable(Timestamp),
  optimized: Type.Boolean(),
  managing_organization_ids: Type.Array(Uuid),
  preferred_driver_ids: Type.Array(Uuid),
  stops: Type.Optional(Type.Array(Stop)),
  earnings: deprecatedItem('legacy_earnings', Nullable(component('Money', Type.Object({ amount: Type.Integer(), currency: Type.String() })))),
  created_at: Timestamp,
  started_at: Nullable(Timestamp),
  completed_at: Nullable(Timestamp),
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

export const MergeBody = Type.Union([
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
]);
export type MergeInput = Static<typeof MergeBody>;

export const InsertStopsBody = Type.Object(
  { stop_ids: Type.Array(Uuid, { minItems: 1, maxItems: 1000, uniqueItems: true }), position: Type.Optional(Type.Integer({ minimum: 0 })) },
  { additionalProperties: false },
);
export type InsertStopsInput = Static<typeof InsertStopsBody>;

export const ForceAssignBody = Type.Object({ driver_id: Uuid, start: Type.Optional(Type.Boolean()) }, { additionalProperties: false });

export const TourVisibilityEnvelope = Type.Object({
  visibility: Type.Object({
    tour_id: Uuid,
    reason: Type.Union([Type.Literal('executing_driver'), Type.Literal('managing_organization'), Type.Literal('no_managing_organizations')]),
    organizations: Type.Array(Type.Object({ organization_id: Uuid, reason: Type.String() })),
    drivers_of_all_organizations: Type.Boolean(),
  }),
});
