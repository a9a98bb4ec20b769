// Planning wire schemas: optimise a tour, plan tours across drivers (docs/api-guide.md "Optimising tours and planning dispatch"; decisions 0955–0958).
import { Type, type Static } from '@sinclair/typebox';
import { component, StringEnum, withExample } from '../../../http/openapi-components.ts';
import { EXAMPLE_ID as ID } from '../../../http/openapi-examples.ts';
import { Nullable, Timestamp, Uuid } from '../../../http/schemas.ts';
import { TravelRoute, TravelSource } from '../../../http/travel-schemas.ts';
import { Tour } from '../tours/index.ts';

/** Search budgets: bounded so no request holds a core for long (decision 0956). */
const TimeLimitMs = (defaultMs: number) =>
  Type.Integer({ minimum: 1, maximum: 30_000, default: defaultMs, description: `Search budget in milliseconds (1–30000, default ${defaultMs}).` });

export const Optimization = component(
  'Optimization',
  withExample(Type.Object({
    before_seconds: Type.Integer({ description: 'Travel seconds of the open part of the tour in its previous order.' }),
    after_seconds: Type.Integer({ description: 'Travel seconds of the open part in the new order.' }),
    unplaced: Type.Array(
      Type.Object({
        stop_id: Uuid,
        reason: StringEnum(['time_window', 'precedence', 'capacity']),
      }),
      { description: "Stops served outside their time window (`time_window`, `precedence`): still on the tour, where they cost least. In a plan, `capacity`: a stop no proposed tour had room for under the service's max_stops_per_tour (within max_tours); it is on no tour and keeps waiting." },
    ),
  }), { before_seconds: 2710, after_seconds: 2135, unplaced: [] }),
);

export const OptimizeTourBody = withExample(Type.Object({ time_limit_ms: Type.Optional(TimeLimitMs(1000)) }, { additionalProperties: false }), { time_limit_ms: 2000 });
export type OptimizeTourInput = Static<typeof OptimizeTourBody>;
export const OptimizeTourResponse = Type.Object({ tour: Tour, optimization: Optimization });

/** Merge's answer: the tour, and with `optimize: true` what the optimisation did (decision 0958). */
export const MergeResponse = Type.Object({ tour: Tour, optimization: Type.Optional(Optimization) });

/** Plans with drivers may run as a job past this many bookings (decision 1302). */
export const SYNC_PLAN_MAX_BOOKINGS = 200;

const planOptions = {
  max_tours: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'At most this many tours (default: as many as needed, up to 100). Without `drivers` only.' })),
  time_limit_ms: Type.Optional(TimeLimitMs(5000)),
  apply: Type.Optional(Type.Boolean({ description: 'Create the proposed tours (default false: only propose); with `drivers` or `shift_ids`, each is force-assigned to its driver, and the stops planned into a tour under way are inserted into it.' })),
  drivers: Type.Optional(Type.Array(Uuid, { minItems: 1, maxItems: 100, uniqueItems: true, description: "Plan with these drivers' shifts that overlap the stops' windows: one tour per shift at most (decision 1301). A driver's tour under way is re-planned from where it stands (decision 1303). Not with `shift_ids`." })),
  shift_ids: Type.Optional(Type.Array(Uuid, { minItems: 1, maxItems: 100, uniqueItems: true, description: 'Plan with exactly these shifts (of drivers you may dispatch to), as `drivers` plans with theirs (decision 1304). Not with `drivers`.' })),
  objective: Type.Optional(StringEnum(['fewest_tours', 'least_driving', 'balanced'], { description: 'Default `fewest_tours` without drivers, `balanced` (one compact area per driver with an even share of stops and time, then the earliest finish of the longest shift, then driving) with them.' })),
  replan: Type.Optional(StringEnum(['only_new'], { description: "`only_new` (with `drivers` or `shift_ids`): put the bookings into the drivers' tours under way where they add least driving, each tour's stops kept in their order; a booking that fits no such tour goes to a free shift's new tour where that costs least, else stays unplaced (decision 1646). Locked tours are left alone. Default: the drivers' open stops are re-planned with the bookings." })),
  async: Type.Optional(Type.Boolean({ description: `Answer 202 at once with a plan to poll (GET /api/hailing/dispatch/plans/{id}); implied with drivers (or shift_ids) past ${SYNC_PLAN_MAX_BOOKINGS} bookings.` })),
};
export const PlanBody = withExample(Type.Union([
  Type.Object({ booking_ids: Type.Array(Uuid, { minItems: 1, maxItems: 1000, uniqueItems: true }), ...planOptions }, { additionalProperties: false }),
  Type.Object({ stop_ids: Type.Array(Uuid, { minItems: 1, maxItems: 2000, uniqueItems: true }), ...planOptions }, { additionalProperties: false }),
]), { booking_ids: [ID.booking], max_tours: 3, time_limit_ms: 5000, apply: false });
export type PlanInput = Static<typeof PlanBody>;

const PlanUnplaced = Type.Array(
  Type.Object({
    stop_id: Uuid,
    booking_id: Type.Optional(Nullable(Uuid)),
    reason: StringEnum(['time_window', 'precedence', 'capacity', 'shift_too_short', 'skills', 'no_driver_available']),
    detail: Type.Optional(Type.String({ description: 'With drivers: the binding constraint (which shift, which window).' })),
  }),
  { description: 'Without drivers: as in `Optimization`. With drivers: stops on no tour (`shift_too_short`, `capacity`, `skills`, `time_window`, `no_driver_available`), every stop of the booking named, with `detail`.' },
);

const planMembers = {
  applied: Type.Boolean(),
  objective: Type.Optional(StringEnum(['fewest_tours', 'least_driving', 'balanced'])),
  tours: Type.Array(
    Type.Object({
      tour_id: Nullable(Uuid),
      running: Type.Optional(Type.Boolean({ description: "With drivers: true when this is the driver's tour under way (claimed or en_route), re-planned (decision 1303): `tour_id` is its id also in a proposal, `kept_stop_ids` stay where they are, `stop_ids` are its open stops and the plan's stops joining it, in the planned order. Otherwise a new tour: `tour_id` is null until applied." })),
      kept_stop_ids: Type.Optional(Type.Array(Uuid, { description: 'A running tour\'s stops done or under way, in tour order: they keep their positions.' })),
      driver_id: Type.Optional(Uuid),
      shift_id: Type.Optional(Uuid),
      starts_at: Type.Optional(Timestamp),
      ends_at: Type.Optional(Timestamp),
      stop_ids: Type.Array(Uuid),
      booking_ids: Type.Array(Uuid),
      travel_seconds: Type.Integer(),
      etas: Type.Array(Timestamp, {
        description: "When each stop's service would begin, in `stop_ids` order: without drivers, were the tour started at its first stop when planned; with drivers, leaving the shift's start when it must (`starts_at`: no earlier than the shift's start, later when the first stop's window opens later; a running tour: where the driver is, once the stop under way is served), waiting for time windows, plus service durations.",
      }),
      stops_count: Type.Optional(Type.Integer({ description: 'With drivers: the stops of the tour the plan places (a running tour: its open stops and the new ones).' })),
      driving_s: Type.Optional(Type.Integer({ description: 'With drivers: seconds driving, start to end (as travel_seconds).' })),
      waiting_s: Type.Optional(Type.Integer({ description: 'With drivers: seconds waited at or before stops for a time window to open, after the tour has left.' })),
      working_s: Type.Optional(Type.Integer({ description: 'With drivers: seconds from leaving the start (`starts_at`) to arriving at the end (`ends_at`).' })),
      distance_m: Type.Optional(Type.Integer({ description: 'With drivers: metres along the route, start to end, from the same source as the times: the road network\'s or the engine\'s, or with `travel_source` straight_line the great-circle metres.' })),
      travel_source: TravelSource,
      route: TravelRoute,
    }),
  ),
  travel_seconds: Type.Integer(),
  travel_source: TravelSource,
  unplaced: PlanUnplaced,
};

export const PlanResponse = Type.Object({
  plan: component(
    'DispatchPlan',
    withExample(Type.Object(planMembers), {
      applied: false,
      tours: [{
        tour_id: null,
        stop_ids: [ID.pickupStop, ID.dropoffStop],
        booking_ids: [ID.booking],
        travel_seconds: 1420,
        etas: ['2026-11-22T13:05:00.000Z', '2026-11-22T13:31:40.000Z'],
        travel_source: 'road_network',
        route: { geometry: { type: 'LineString', coordinates: [[7.42752, 43.739611], [7.424112, 43.736527], [7.419733, 43.731101]] }, distance_m: 11840.5, duration_s: 1420.2, travel_source: 'road_network' },
      }],
      travel_seconds: 1420,
      travel_source: 'road_network',
      unplaced: [],
    }),
  ),
  tours: Type.Array(Tour, { description: 'When applied, the tours created and the running tours re-planned (empty otherwise).' }),
});

export type PlanWire = Static<typeof PlanResponse>['plan'];

export const PLAN_STATUSES = ['running', 'done', 'failed'] as const;
/** A plan run as a job (decision 1302): its status, and once done the plan's members. */
export const PlanJob = component(
  'DispatchPlanJob',
  withExample(
    Type.Composite([
      Type.Object({
        id: Uuid,
        status: StringEnum(PLAN_STATUSES),
        created_at: Timestamp,
        finished_at: Nullable(Timestamp),
        error: Type.Optional(Type.Object({ error_code: Type.String(), detail: Type.String() })),
        tour_ids: Type.Optional(Type.Array(Uuid, { description: 'The created tours, when applied.' })),
      }),
      Type.Partial(Type.Object(planMembers)),
    ]),
    { id: '0193b2e4-0c1d-7a2e-8f30-000000000021', status: 'running', created_at: '2026-11-22T13:05:00.000Z', finished_at: null },
  ),
);
export const PlanJobResponse = Type.Object({ plan: PlanJob });

/** Which proposed tours of a plan run as a job to apply, and with which drivers (decision 1645). */
export const ApplyPlanBody = withExample(
  Type.Object(
    {
      tours: Type.Optional(
        Type.Array(
          Type.Object(
            {
              index: Type.Integer({ minimum: 0, description: "The proposed tour, by its place in the plan's `tours` (from 0)." }),
              driver_id: Type.Optional({ ...Nullable(Uuid), description: "Force-assign the new tour to this driver (one you may dispatch to) instead of the planned shift's; null: no driver. Not for a driver's tour under way." }),
            },
            { additionalProperties: false },
          ),
          { minItems: 1, maxItems: 100, description: "The proposed tours to apply, each at most once (default: all of them); the stops of those left out keep waiting." },
        ),
      ),
    },
    { additionalProperties: false },
  ),
  { tours: [{ index: 0 }, { index: 1, driver_id: ID.driver }] },
);
export type ApplyPlanInput = Static<typeof ApplyPlanBody>;
export const AppliedPlanResponse = Type.Object({ plan: PlanJob, tours: Type.Array(Tour, { description: 'The tours created and the running tours re-planned, in the order of the plan\'s tours applied.' }) });
