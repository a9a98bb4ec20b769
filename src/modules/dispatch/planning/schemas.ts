// Planning wire schemas: optimise a tour, plan tours across drivers (docs/api-guide.md "Optimising tours and planning dispatch"; decisions 0955–0958).
import { Type, type Static } from '@sinclair/typebox';
import { component, StringEnum, withExample } from '../../../http/openapi-components.ts';
import { EXAMPLE_ID as ID } from '../../../http/openapi-examples.ts';
import { Nullable, Timestamp, Uuid } from '../../../http/schemas.ts';
import { Tour } from '../tours/schemas.ts';

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

const planOptions = {
  max_tours: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'At most this many tours (default: as many as needed, up to 100).' })),
  time_limit_ms: Type.Optional(TimeLimitMs(5000)),
  apply: Type.Optional(Type.Boolean({ description: 'Create the proposed tours (default false: only propose).' })),
};
export const PlanBody = withExample(Type.Union([
  Type.Object({ booking_ids: Type.Array(Uuid, { minItems: 1, maxItems: 100, uniqueItems: true }), ...planOptions }, { additionalProperties: false }),
  Type.Object({ stop_ids: Type.Array(Uuid, { minItems: 1, maxItems: 1000, uniqueItems: true }), ...planOptions }, { additionalProperties: false }),
]), { booking_ids: [ID.booking], max_tours: 3, time_limit_ms: 5000, apply: false });
export type PlanInput = Static<typeof PlanBody>;

export const PlanResponse = Type.Object({
  plan: component(
    'DispatchPlan',
    withExample(Type.Object({
      applied: Type.Boolean(),
      tours: Type.Array(
        Type.Object({
          tour_id: Nullable(Uuid),
          stop_ids: Type.Array(Uuid),
          booking_ids: Type.Array(Uuid),
          travel_seconds: Type.Integer(),
          etas: Type.Array(Timestamp, {
            description: "When each stop's service would begin, in `stop_ids` order, were the tour started at its first stop when planned (waiting for time windows, plus service durations).",
          }),
        }),
      ),
      travel_seconds: Type.Integer(),
      unplaced: Optimization.properties.unplaced,
    }), {
      applied: false,
      tours: [{ tour_id: null, stop_ids: [ID.pickupStop, ID.dropoffStop], booking_ids: [ID.booking], travel_seconds: 1420, etas: ['2026-11-22T13:05:00.000Z', '2026-11-22T13:31:40.000Z'] }],
      travel_seconds: 1420,
      unplaced: [],
    }),
  ),
  tours: Type.Array(Tour, { description: 'The created tours (empty unless applied).' }),
});
