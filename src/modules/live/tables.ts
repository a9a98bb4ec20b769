// Live tracking tables: the append-only position history, each tour's current position, stop ETAs, stream tickets.
import { boolean, doublePrecision, index, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { TravelSource } from '../../seams/index.ts';
import type { PositionFilter } from './ingestion.ts';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** Every uploaded position, filtered ones too (append-only; the retention job removes old rows). */
export const driverPositions = pgTable(
  'driver_positions',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid('id').notNull(),
    tourId: uuid('tour_id').notNull(),
    driverId: uuid('driver_id').notNull(),
    lat: doublePrecision('lat').notNull(),
    lng: doublePrecision('lng').notNull(),
    heading: doublePrecision('heading'),
    speed: doublePrecision('speed'),
    accuracy: doublePrecision('accuracy'),
    recordedAt: ts('recorded_at').notNull(),
    receivedAt: ts('received_at').notNull(),
    /** Why the position moved nothing (zero, duplicate, jump), or null. */
    filtered: text('filtered').$type<PositionFilter>(),
    /** Whether it became the tour's current position when it arrived (false for late, older uploads). */
    becameCurrent: boolean('became_current').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('driver_positions_tour_idx').on(t.tenantId, t.tourId, t.id),
    index('driver_positions_recorded_idx').on(t.tenantId, t.tourId, t.recordedAt),
    // The retention job deletes across tenants by age, like the outbox's undispatched index.
    index('driver_positions_received_idx').on(t.receivedAt),
  ],
);

/** One row per tracked tour: its current position and whom its positions belong to. Locked by every ETA update. */
export const tourTracking = pgTable(
  'tour_tracking',
  {
    tenantId: uuid('tenant_id').notNull(),
    tourId: uuid('tour_id').notNull(),
    serviceAreaId: uuid('service_area_id').notNull(),
    driverId: uuid('driver_id'),
    /** The driver's own organization: the only one whose managers receive the positions (docs/api-guide.md "Who sees what"). */
    driverOrganizationId: uuid('driver_organization_id'),
    positionId: uuid('position_id'),
    lat: doublePrecision('lat'),
    lng: doublePrecision('lng'),
    heading: doublePrecision('heading'),
    speed: doublePrecision('speed'),
    accuracy: doublePrecision('accuracy'),
    recordedAt: ts('recorded_at'),
    etasComputedAt: ts('etas_computed_at'),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.tourId] })],
);

/** The ETA of each open stop of a tracked tour, as last computed. */
export const stopEtas = pgTable(
  'stop_etas',
  {
    tenantId: uuid('tenant_id').notNull(),
    stopId: uuid('stop_id').notNull(),
    tourId: uuid('tour_id').notNull(),
    eta: ts('eta').notNull(),
    /** The ETA last told in *.etas_recalculated: "moved by ≥ 60 s" is measured against it, so slow drift adds up. */
    notifiedEta: ts('notified_eta'),
    computedAt: ts('computed_at').notNull(),
    /** The travel source of the matrix that computed `eta` (contract §15, decision 1702); null on ETAs stored before it was kept. */
    travelSource: text('travel_source').$type<TravelSource>(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.stopId] }), index('stop_etas_tour_idx').on(t.tenantId, t.tourId)],
);

/**
 * The ETAs as they were shown, for delivery analytics' ETA error (contract §17, decision 1740): at most one sample per
 * stop and minute (`published_at` is the minute), pruned when the stop leaves the tour's open stops to those the
 * "30 minutes before arrival" figure can still need.
 */
export const stopEtaSamples = pgTable(
  'stop_eta_samples',
  {
    tenantId: uuid('tenant_id').notNull(),
    stopId: uuid('stop_id').notNull(),
    publishedAt: ts('published_at').notNull(),
    tourId: uuid('tour_id').notNull(),
    eta: ts('eta').notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.stopId, t.publishedAt] })],
);

/** Single-use tickets for EventSource, which cannot send headers: they stand for the credential that made them. */
export const liveTickets = pgTable(
  'live_tickets',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid('id').notNull(),
    secretHash: text('secret_hash').notNull(),
    /** The SHA-256 of the credential's token (what the credentials table keeps), checked again at use. */
    credentialHash: text('credential_hash').notNull(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.id] }), index('live_tickets_expires_idx').on(t.expiresAt)],
);
