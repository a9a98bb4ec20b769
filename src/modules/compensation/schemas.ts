// Compensation wire schemas: the compensation object, its writes, its history (CONTRACT.md §7), legacy earnings.
import { Type, type Static } from '@sinclair/typebox';
import { Nullable, Timestamp, Uuid } from '../../http/schemas.ts';
import { MAX_AMOUNT } from './compensation-total.ts';

export const Amount = Type.Integer({ minimum: 0, maximum: MAX_AMOUNT });
export const Currency = Type.String({ pattern: '^[A-Z]{3}$' });

export const TourIdParams = Type.Object({ id: Uuid });
/** The key's format is checked by the operation, after the tour's visibility: a bad key is 422 on PUT, 404 on DELETE. */
export const BonusParams = Type.Object({ id: Uuid, key: Type.String() });

/** SPEC.md: `{amount, currency, label}`, not wrapped (CONTRACT.md §1); the label may be left out (decision 0602). */
export const ComponentBody = Type.Object(
  { amount: Amount, currency: Currency, label: Type.Optional(Nullable(Type.String({ maxLength: 200 }))) },
  { additionalProperties: false },
);
export type ComponentInput = Static<typeof ComponentBody>;

const Labelled = Type.Object({ amount: Type.Integer(), label: Nullable(Type.String()) });

export const TipDistributionOfTour = Type.Object({ status: Type.Union([Type.Literal('active'), Type.Literal('paused')]), paused_reason: Nullable(Type.String()) });

export const Compensation = Type.Object({
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
});
export const CompensationEnvelope = Type.Object({ compensation: Compensation });

export const HistoryEnvelope = Type.Object({
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
});

/** A booking's `tip_distribution` (CONTRACT.md §7). */
export const TipDistributionOfBooking = Type.Object({
  tour_id: Nullable(Uuid),
  status: Type.Union([Type.Literal('awarded'), Type.Literal('not_eligible'), Type.Literal('pending'), Type.Literal('paused')]),
  reason: Type.String(),
});

export const EarningsBody = Type.Object({ earnings: Type.Object({ amount: Amount, currency: Currency }, { additionalProperties: false }) }, { additionalProperties: false });
export type EarningsInput = Static<typeof EarningsBody>['earnings'];
