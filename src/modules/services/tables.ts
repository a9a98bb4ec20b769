// Tour services and scheduling configs: the per-service rules bookings, tours and failures follow.
import { integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { FailureOutcome } from '../../shared/domain-constants.ts';

export type { FailureOutcome };
export type FailureOutcomes = Record<'admin' | 'manager' | 'driver', FailureOutcome[]>;
export type DeliveryProofKind = 'signature' | 'photo' | 'recipient_name' | 'note';
export type TipDistributionStrategy = 'noop' | 'completed_dropoffs_on_tour';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const services = pgTable(
  'services',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid('id').notNull(),
    name: text('name').notNull(),
    serviceAreaId: uuid('service_area_id').notNull(),
    dispatchMode: text('dispatch_mode').$type<'manual' | 'auto'>().notNull(),
    tipDistributionStrategy: text('tip_distribution_strategy').$type<TipDistributionStrategy>().notNull(),
    stopTypes: text('stop_types').array().notNull(),
    returnStopType: text('return_stop_type'),
    maxStopsPerBooking: integer('max_stops_per_booking').notNull(),
    maxStopsPerTour: integer('max_stops_per_tour').notNull(),
    failureOutcomes: jsonb('failure_outcomes').$type<FailureOutcomes>().notNull(),
    forceDeliveryProof: text('force_delivery_proof').array().$type<DeliveryProofKind[]>().notNull(),
    schedulingConfigId: uuid('scheduling_config_id'),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.id] })],
);

/** gradual_rollout_frequency_seconds is deprecated and never stored (docs/api-guide.md "Tour services and scheduling configs": always null). */
export const schedulingConfigs = pgTable(
  'scheduling_configs',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid('id').notNull(),
    name: text('name').notNull(),
    mode: text('mode').$type<'instant' | 'scheduled'>().notNull(),
    claimWindowSeconds: integer('claim_window_seconds').notNull(),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.id] })],
);
