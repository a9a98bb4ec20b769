// Tours tables: tours (status, driver, executing organization, claim window) and the organizations that see each.
import { boolean, index, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { Money } from '../bookings/tables.ts';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export type TourStatus = 'to_be_dispatched' | 'scheduled' | 'pickable' | 'claimed' | 'en_route' | 'completed' | 'cancelled';

export const tours = pgTable(
  'tours',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid('id').notNull(),
    serviceId: uuid('service_id').notNull(),
    serviceAreaId: uuid('service_area_id').notNull(),
    status: text('status').$type<TourStatus>().notNull(),
    driverId: uuid('driver_id'),
    /** The driver's organization while it executes the tour; kept after completion or cancellation (SPEC visibility). */
    executingOrganizationId: uuid('executing_organization_id'),
    scheduledAt: ts('scheduled_at'),
    claimExpiresAt: ts('claim_expires_at'),
    optimized: boolean('optimized').notNull().default(false),
    preferredDriverIds: uuid('preferred_driver_ids').array().notNull().default([]),
    /** Union of the managing organizations of its bookings, refreshed whenever its stops or their bookings change. */
    managingOrganizationIds: uuid('managing_organization_ids').array().notNull().default([]),
    /** Deprecated legacy earnings, written only by the compensation module's legacy endpoint. */
    earnings: jsonb('earnings').$type<Money>(),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
    startedAt: ts('started_at'),
    completedAt: ts('completed_at'),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('tours_status_idx').on(t.tenantId, t.status, t.id),
    index('tours_driver_idx').on(t.tenantId, t.driverId, t.id),
  ],
);

/** The organizations whose managers see a tour, as decided by tourVisibility after every change. */
export const tourVisibility = pgTable(
  'tour_visibility',
  {
    tenantId: uuid('tenant_id').notNull(),
    organizationId: uuid('organization_id').notNull(),
    tourId: uuid('tour_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.organizationId, t.tourId] }), index('tour_visibility_tour_idx').on(t.tenantId, t.tourId)],
);
