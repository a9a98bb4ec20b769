// Compensation wire schemas: the compensation object, its writes, its history (docs/api-guide.md "Tour compensation, tips and legacy earnings"), legacy earnings.
import { Type, type Static } from '@sinclair/typebox';
import { withExample } from '../../http/openapi-components.ts';
import { EXAMPLE_AT, EXAMPLE_ID as ID } from '../../http/openapi-examples.ts';
import { Nullable, Timestamp, Uuid } from '../../http/schemas.ts';
import { MAX_AMOUNT } from './compensation-total.ts';

export const Amount = Type.Integer({ minimum: 0, maximum: MAX_AMOUNT });
export const Currency = Type.String({ pattern: '^[A-Z]{3}$' });

export const TourIdParams = Type.Object({ id: Uuid });
/** The key's format is checked by the operation, after the tour's visibility: a bad key is 422 on PUT, 404 on DELETE. */
export const BonusParams = Type.Object({ id: Uuid, key: Type.String() });

/** docs/api-guide.md "Tour compensation, tips and legacy earnings": `{amount, currency, label}`, not wrapped (docs/api-guide.md "Conventions"); the label may be left out (decision 0602). */
export const ComponentBody = withExample(Type.Object(
  { amount: Amount, currency: Currency, label: Type.Optional(Nullable(Type.String({ maxLength: 200 }))) },
  { additionalProperties: false },
), { amount: 2500, currency: 'EUR', label: 'Evening shift' });
export type ComponentInput = Static<typeof ComponentBody>;

const Labelled = Type.Object({ amount: Type.Integer(), label: Nullable(Type.String()) });

export const TipDistributionOfTour = Type.Object({ status: Type.Union([Type.Literal('active'), Type.Literal('paused')]), paused_reason: Nullable(Type.String()) });

export const Compensation = withExample(Type.Object({
  tour_id: Uuid,
  currency: Type.String(),
  total_amount: Type.Integer(),
  breakdown: Type.Object({
    base_earnings: Labelled,
    bonuses: Type.Array(Type.Object({ key: Type.String(), amount: Type.Integer(), label: Nullable(Type.String()) })),
    tips: Type.Object({ amount: Type.Integer() }),
  }),
  tip_distribution: TipDistributionOfTour,
  compensation_updated_at: Nullable(Timestamp),
}), {
  tour_id: ID.tour,
  currency: 'EUR',
  total_amount: 3300,
  breakdown: { base_earnings: { amount: 2500, label: 'Base' }, bonuses: [{ key: 'rain', amount: 500, label: 'Rain bonus' }], tips: { amount: 300 } },
  tip_distribution: { status: 'active', paused_reason: null },
  compensation_updated_at: EXAMPLE_AT,
});
export const CompensationEnvelope = Type.Object({ compensation: Compensation });

export const HistoryEnvelope = withExample(Type.Object({
  history: Type.Array(
    Type.Object({
      at: Timestamp,
      actor_id: Nullable(Uuid),
      component: Type.Union([Type.Literal('base'), Type.Literal('bonus'), Type.Literal('tips')]),
      key: Nullable(Type.String()),
      from: Nullable(Labelled),
      to: Nullable(Labelled),
    }),
  ),
}), {
  history: [
    { at: EXAMPLE_AT, actor_id: ID.manager, component: 'base', key: null, from: null, to: { amount: 2500, label: 'Base' } },
    { at: '2026-11-22T13:07:00.000Z', actor_id: ID.manager, component: 'bonus', key: 'rain', from: null, to: { amount: 500, label: 'Rain bonus' } },
  ],
});

/** A booking's `tip_distribution` (docs/api-guide.md "Tour compensation, tips and legacy earnings"). */
export const TipDistributionOfBooking = Type.Object({
  tour_id: Nullable(Uuid),
  status: Type.Union([Type.Literal('awarded'), Type.Literal('not_eligible'), Type.Literal('pending'), Type.Literal('paused')]),
  reason: Type.String(),
});

export const EarningsBody = withExample(
  Type.Object({ earnings: Type.Object({ amount: Amount, currency: Currency }, { additionalProperties: false }) }, { additionalProperties: false }),
  { earnings: { amount: 1200, currency: 'EUR' } },
);
export type EarningsInput = Static<typeof EarningsBody>['earnings'];
