// Compensation tables: one row of components per tour, the append-only history of every change, and each booking's
// tip distribution outcome.
import { boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { Bonus, Labelled } from './compensation-total.ts';
import type { TipReason, TipStatus } from './tip-eligibility.ts';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * The components of a tour's compensation. The row is the lock every write takes (`FOR UPDATE`); the total is not a
 * column: it is always base + bonuses + tips of this one row, so it cannot drift from them (decision 0601).
 */
export const tourCompensations = pgTable(
  'tour_compensations',
  {
    tenantId: uuid('tenant_id').notNull(),
    tourId: uuid('tour_id').notNull(),
    /** The tour's service area (never changes), for the webhook payload. */
    serviceAreaId: uuid('service_area_id').notNull(),
    /** The service area's currency when the row was made; every amount of the row is in it. */
    currency: text('currency').notNull(),
    baseAmount: integer('base_amount'),
    baseLabel: text('base_label'),
    /** At most five, sorted by key. */
    bonuses: jsonb('bonuses').$type<Bonus[]>().notNull().default([]),
    tipsAmount: integer('tips_amount').notNull().default(0),
    tipsPaused: boolean('tips_paused').notNull().default(false),
    tipsPausedReason: text('tips_paused_reason').$type<'currency_mismatch'>(),
    /** The time of the last change of any component (null until the first); `compensation_updated_at`. */
    updatedAt: ts('updated_at'),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.tourId] })],
);

/** Every write, delete and tip change, the system's included; rows are only ever inserted. */
export const compensationHistory = pgTable(
  'compensation_history',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid('id').notNull(),
    tourId: uuid('tour_id').notNull(),
    at: ts('at').notNull(),
    /** Null for the system (tip distribution). */
    actorId: uuid('actor_id'),
    component: text('component').$type<'base' | 'bonus' | 'tips'>().notNull(),
    key: text('key'),
    from: jsonb('from').$type<Labelled>(),
    to: jsonb('to').$type<Labelled>(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.id] }), index('compensation_history_tour_idx').on(t.tenantId, t.tourId, t.id)],
);

/** Why a booking's tip was or was not distributed, as last evaluated; a booking never evaluated has no row. */
export const tipOutcomes = pgTable(
  'tip_outcomes',
  {
    tenantId: uuid('tenant_id').notNull(),
    bookingId: uuid('booking_id').notNull(),
    tourId: uuid('tour_id'),
    status: text('status').$type<TipStatus>().notNull(),
    reason: text('reason').$type<TipReason>().notNull(),
    amount: integer('amount').notNull(),
    evaluatedAt: ts('evaluated_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.bookingId] }), index('tip_outcomes_tour_idx').on(t.tenantId, t.tourId)],
);
