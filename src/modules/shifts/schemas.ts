// Shifts wire schemas (docs/api-guide.md "Optimising tours and planning dispatch"; decision 1300).
import { Type, type Static } from '@sinclair/typebox';
import { component, withExample } from '../../http/openapi-components.ts';
import { EXAMPLE_ID as ID } from '../../http/openapi-examples.ts';
import { PaginationQuery } from '../../http/pagination.ts';
import { IdParams, ListOf, Nullable, Timestamp, Uuid } from '../../http/schemas.ts';
import { Location } from '../places/index.ts';

const strict = { additionalProperties: false };

export const MAX_SKILLS = 50;
const Skill = Type.String({ minLength: 1, maxLength: 50 });

export const VehicleSchema = Type.Object(
  {
    capacity: Type.Optional(
      Type.Object(
        {
          packages: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000, description: 'Packages on board at once.' })),
          weight_kg: Type.Optional(Type.Number({ minimum: 0, maximum: 100_000, description: 'Kilograms on board at once (packages’ `weight_grams`).' })),
          volume_l: Type.Optional(Type.Number({ minimum: 0, maximum: 1_000_000, description: 'Litres on board at once (recorded; not planned with yet).' })),
        },
        strict,
      ),
    ),
    skills: Type.Optional(Type.Array(Skill, { maxItems: MAX_SKILLS, uniqueItems: true, description: "What the vehicle and driver can do; a stop's `required_skills` must all be here." })),
  },
  { ...strict, description: 'Absent members are constraints not applied.' },
);

const where = {
  start_place_id: Type.Optional(Uuid),
  start_location: Type.Optional(Location),
  end_place_id: Type.Optional(Nullable(Uuid)),
  end_location: Type.Optional(Nullable(Location)),
};

export const ShiftCreate = Type.Object(
  { starts_at: Timestamp, ends_at: Timestamp, ...where, vehicle: Type.Optional(VehicleSchema) },
  { ...strict, description: 'Exactly one of `start_place_id` and `start_location`; at most one of `end_place_id` and `end_location` (neither: the tour ends at its last stop).' },
);
export const ShiftUpdate = Type.Object(
  { starts_at: Type.Optional(Timestamp), ends_at: Type.Optional(Timestamp), ...where, vehicle: Type.Optional(Nullable(VehicleSchema)) },
  strict,
);
export type ShiftCreateInput = Static<typeof ShiftCreate>;
export type ShiftUpdateInput = Static<typeof ShiftUpdate>;

const EXAMPLE = {
  id: '0193b2e4-0c1d-7a2e-8f30-000000000020',
  driver_id: ID.driver,
  starts_at: '2026-11-23T07:00:00.000Z',
  ends_at: '2026-11-23T15:00:00.000Z',
  start_place_id: ID.pickupPlace,
  start_location: { lat: 52.5163, lng: 13.3777 },
  end_place_id: ID.pickupPlace,
  end_location: { lat: 52.5163, lng: 13.3777 },
  vehicle: { capacity: { packages: 120, weight_kg: 800 }, skills: ['cooling'] },
  created_at: '2026-11-22T13:05:00.000Z',
  updated_at: '2026-11-22T13:05:00.000Z',
};

export const Shift = component(
  'Shift',
  withExample(
    Type.Object({
      id: Uuid,
      driver_id: Uuid,
      starts_at: Timestamp,
      ends_at: Timestamp,
      start_place_id: Nullable(Uuid),
      start_location: Location,
      end_place_id: Nullable(Uuid),
      end_location: Nullable(Location),
      vehicle: Nullable(VehicleSchema),
      created_at: Timestamp,
      updated_at: Timestamp,
    }),
    EXAMPLE,
  ),
);

export const ShiftCreateBody = withExample(Type.Object({ shift: ShiftCreate }, strict), {
  shift: { starts_at: EXAMPLE.starts_at, ends_at: EXAMPLE.ends_at, start_place_id: ID.pickupPlace, end_place_id: ID.pickupPlace, vehicle: EXAMPLE.vehicle },
});
export const ShiftUpdateBody = withExample(Type.Object({ shift: ShiftUpdate }, strict), { shift: { ends_at: '2026-11-23T16:00:00.000Z' } });
export const ShiftResponse = Type.Object({ shift: Shift });
export const ShiftList = ListOf('shifts', Shift);
export { IdParams };

export const ShiftListQuery = Type.Object(
  {
    ...PaginationQuery,
    filters: Type.Optional(
      Type.Object(
        {
          from: Type.Optional(Timestamp),
          to: Type.Optional(Timestamp),
        },
        { ...strict, description: '`from`/`to`: shifts that overlap [from, to).' },
      ),
    ),
  },
  strict,
);
export type ShiftListFilters = NonNullable<Static<typeof ShiftListQuery>['filters']>;
