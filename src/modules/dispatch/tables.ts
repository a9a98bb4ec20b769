// Dispatch tables: bookings, their stops (tour-only stops too), packages and the append-only package history, tours,
// and the organizations that may see each booking and tour (kept by the visibility rule, read by list queries).
import { sql } from 'drizzle-orm';
import { boolean, doublePrecision, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { PlaceAddress, PlaceContact } from '../places/index.ts';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** Where an address-only stop's location came from: the geocoder's precision and source (contract §14). */
export interface StopGeocoding {
  precision: 'house' | 'street';
  source: string;
}

/**
 * What the recipient asked of the driver through the tracking link (decision 1788), kept on each of its own open stops:
 * where to leave the parcel when nobody answers, and a note. `updated_at` is when it was given.
 */
export interface RecipientInstructions {
  kind: 'none' | 'leave_at_door' | 'neighbour';
  /** Who and where, for `neighbour` (e.g. "Mme Rossi, 2nd floor"); null otherwise. */
  neighbour: string | null;
  note: string | null;
  updated_at: string;
}

export type BookingStatus = 'to_be_dispatched' | 'partially_dispatched' | 'dispatched' | 'completed' | 'cancelled';
export type StopStatus = 'to_be_dispatched' | 'scheduled' | 'approaching' | 'arrived' | 'completed' | 'failed' | 'cancelled';
export type PackageStatus = 'created' | 'awaiting_pickup' | 'in_transit' | 'delivered' | 'failed' | 'returned' | 'cancelled';

export type ProofFileKind = 'photo' | 'signature';

/**
 * A delivery proof as kept on its stop or package (decisions 0303, 1250): the texts as given, each image as its
 * `sha256:` fingerprint; `files` names the images also kept as files, `deleted_at` when retention removed them.
 */
export interface StoredProof {
  recipient_name?: string;
  note?: string;
  photo?: string;
  signature?: string;
  files?: ProofFileKind[];
  deleted_at?: string;
}

export interface Money {
  amount: number;
  currency: string;
}

export interface StopFailure {
  outcome: string;
  reason_key: string | null;
  note: string | null;
}

/** What auto-dispatch decided for a booking (decision 1350), stored on it and shown as `auto_dispatch`. */
export interface AutoDispatchDecision {
  status: 'dispatched' | 'skipped';
  tour_id: string | null;
  reason: string | null;
  /** The binding constraint of a `no_fit` skip (time_window, stop_limit, capacity, shift), else null. */
  constraint: string | null;
  decided_at: string;
}

export const bookings = pgTable(
  'bookings',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid('id').notNull(),
    externalId: text('external_id'),
    serviceId: uuid('service_id').notNull(),
    serviceAreaId: uuid('service_area_id').notNull(),
    customerId: uuid('customer_id'),
    status: text('status').$type<BookingStatus>().notNull(),
    scheduledAt: ts('scheduled_at'),
    /** The local day (YYYY-MM-DD) the recipient moved the delivery from through the tracking link (decision 1788); once. */
    recipientRescheduledFrom: text('recipient_rescheduled_from'),
    managingOrganizationIds: uuid('managing_organization_ids').array().notNull().default([]),
    preferredDriverIds: uuid('preferred_driver_ids').array().notNull().default([]),
    tip: jsonb('tip').$type<Money>(),
    /** Deprecated legacy earnings, written only by the compensation module's legacy endpoint. */
    earnings: jsonb('earnings').$type<Money>(),
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
    /** The service area's auto-dispatch decision on this booking (decision 1350); null when none was taken. */
    autoDispatch: jsonb('auto_dispatch').$type<AutoDispatchDecision>(),
    /** True for an older booking whose external id a newer open one held when the unique index came (decision 1560). */
    externalIdExempt: boolean('external_id_exempt'),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('bookings_status_idx').on(t.tenantId, t.status, t.id),
    index('bookings_external_id_idx').on(t.tenantId, t.externalId),
    // One open booking per tenant, customer and external id (contract §14, decision 1560): cancelling frees the id.
    uniqueIndex('bookings_open_external_id_key')
      .on(t.tenantId, sql`coalesce(${t.customerId}, '00000000-0000-0000-0000-000000000000'::uuid)`, t.externalId)
      .where(sql`external_id IS NOT NULL AND status <> 'cancelled' AND external_id_exempt IS NOT TRUE`),
    index('bookings_customer_idx').on(t.tenantId, t.customerId, t.id),
    index('bookings_service_area_idx').on(t.tenantId, t.serviceAreaId, t.id),
  ],
);

export const stops = pgTable(
  'stops',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid('id').notNull(),
    /** Null for a tour-only stop. */
    bookingId: uuid('booking_id'),
    tourId: uuid('tour_id'),
    type: text('type').notNull(),
    status: text('status').$type<StopStatus>().notNull(),
    /** Order within the booking (tour-only stops: 0). */
    position: integer('position').notNull(),
    /** Order within the tour; null while not on a tour. */
    tourPosition: integer('tour_position'),
    placeId: uuid('place_id'),
    lat: doublePrecision('lat').notNull(),
    lng: doublePrecision('lng').notNull(),
    address: jsonb('address').$type<PlaceAddress>().notNull(),
    contact: jsonb('contact').$type<PlaceContact>(),
    /** How an address-only stop was located (contract §14); null when the stop came with its location or a place. */
    geocoding: jsonb('geocoding').$type<StopGeocoding>(),
    group: text('group'),
    timeWindowStartsAt: ts('time_window_starts_at'),
    timeWindowEndsAt: ts('time_window_ends_at'),
    serviceDurationSeconds: integer('service_duration_seconds').notNull(),
    /** Skills a vehicle needs to serve the stop (planning with shifts); null: none (decision 1301). */
    requiredSkills: jsonb('required_skills').$type<string[]>(),
    notes: text('notes'),
    /** The recipient's instructions through the tracking link (decision 1788); null until given. */
    recipientInstructions: jsonb('recipient_instructions').$type<RecipientInstructions>(),
    eta: ts('eta'),
    approachedAt: ts('approached_at'),
    arrivedAt: ts('arrived_at'),
    completedAt: ts('completed_at'),
    failedAt: ts('failed_at'),
    cancelledAt: ts('cancelled_at'),
    failure: jsonb('failure').$type<StopFailure>(),
    recoveryOfStopId: uuid('recovery_of_stop_id'),
    recoveryKind: text('recovery_kind').$type<'return' | 'reattempt'>(),
    /** Proof given at completion (images as fingerprints, their files in proof_files): evidence of the handover. */
    proof: jsonb('proof').$type<StoredProof>(),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('stops_booking_idx').on(t.tenantId, t.bookingId, t.position),
    index('stops_tour_idx').on(t.tenantId, t.tourId, t.tourPosition),
    // Delivery analytics count a stop in the period of its completion or failure (decision 1743).
    index('stops_completed_at_idx').on(t.tenantId, t.completedAt).where(sql`completed_at IS NOT NULL`),
    index('stops_failed_at_idx').on(t.tenantId, t.failedAt).where(sql`failed_at IS NOT NULL`),
    // Recipient-data retention looks only at stops still holding a phone number (decision 1773).
    index('stops_contact_phone_idx').on(t.tenantId, t.bookingId).where(sql`(contact->>'phone_number') IS NOT NULL`),
  ],
);

export const packages = pgTable(
  'packages',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid('id').notNull(),
    bookingId: uuid('booking_id').notNull(),
    shortcode: text('shortcode').notNull(),
    externalLabel: text('external_label'),
    status: text('status').$type<PackageStatus>().notNull(),
    pickupStopId: uuid('pickup_stop_id').notNull(),
    dropoffStopId: uuid('dropoff_stop_id').notNull(),
    description: text('description'),
    weightGrams: integer('weight_grams'),
    forcedDelivery: jsonb('forced_delivery').$type<{ at: string; by_user_id: string; proof: StoredProof }>(),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('packages_shortcode_key').on(t.tenantId, t.shortcode),
    // External labels are reused by carriers once a parcel is done: unique among open packages only.
    uniqueIndex('packages_open_external_label_key')
      .on(t.tenantId, t.externalLabel)
      .where(sql`external_label IS NOT NULL AND status IN ('created', 'awaiting_pickup', 'in_transit')`),
    index('packages_booking_idx').on(t.tenantId, t.bookingId),
    index('packages_pickup_stop_idx').on(t.tenantId, t.pickupStopId),
    index('packages_dropoff_stop_idx').on(t.tenantId, t.dropoffStopId),
  ],
);

/** Append-only: one row per thing that happened to a package, across tours. */
export const packageHistory = pgTable(
  'package_history',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid('id').notNull(),
    packageId: uuid('package_id').notNull(),
    at: ts('at').notNull(),
    event: text('event').notNull(),
    stopId: uuid('stop_id'),
    tourId: uuid('tour_id'),
    actorId: uuid('actor_id'),
    reasonKey: text('reason_key'),
    note: text('note'),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.id] }), index('package_history_package_idx').on(t.tenantId, t.packageId, t.id)],
);

/**
 * The organizations whose managers see a booking, as decided by bookingVisibility (visibility.ts) after every
 * change; list queries join it so the rule runs in SQL on an index instead of per row.
 */
export const bookingVisibility = pgTable(
  'booking_visibility',
  {
    tenantId: uuid('tenant_id').notNull(),
    organizationId: uuid('organization_id').notNull(),
    bookingId: uuid('booking_id').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.organizationId, t.bookingId] }),
    index('booking_visibility_booking_idx').on(t.tenantId, t.bookingId),
  ],
);

// --- tours

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
    /** The driver's organization while it executes the tour; kept after completion or cancellation (docs/api-guide.md "Who sees what"). */
    executingOrganizationId: uuid('executing_organization_id'),
    scheduledAt: ts('scheduled_at'),
    claimExpiresAt: ts('claim_expires_at'),
    optimized: boolean('optimized').notNull().default(false),
    /** The dispatcher's name for the tour (≤ 80 characters); null: pages show the driver's name and day (decision 1643). */
    label: text('label'),
    /** Plans never add, remove or reorder a locked tour's stops (decision 1643). */
    locked: boolean('locked').notNull().default(false),
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

// --- tracking links

/**
 * A booking's recipient tracking link (decision 1100): only the hash of its token is stored, looked up before the
 * tenant is known (the one global index, as credentials'); the token itself is derived from `nonce` under the master
 * key whenever the booking is rendered. Rotation replaces nonce and hash. Feedback is one per booking, kept here.
 */
export const bookingTrackingLinks = pgTable(
  'booking_tracking_links',
  {
    tenantId: uuid('tenant_id').notNull(),
    bookingId: uuid('booking_id').notNull(),
    nonce: text('nonce').notNull(),
    tokenHash: text('token_hash').notNull(),
    createdAt: ts('created_at').notNull(),
    feedbackRating: integer('feedback_rating'),
    feedbackComment: text('feedback_comment'),
    feedbackAt: ts('feedback_at'),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.bookingId] }), uniqueIndex('booking_tracking_links_token_hash_key').on(t.tokenHash)],
);

/** Plans run as a job (decision 1302): who asked, what, and the answer once done. */
export const dispatchPlans = pgTable(
  'dispatch_plans',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid('id').notNull(),
    status: text('status').$type<'running' | 'done' | 'failed'>().notNull(),
    /** The caller, as the job acts for it (its visibility, its events). */
    actor: jsonb('actor').$type<Record<string, unknown>>().notNull(),
    input: jsonb('input').$type<Record<string, unknown>>().notNull(),
    result: jsonb('result').$type<Record<string, unknown>>(),
    error: jsonb('error').$type<{ error_code: string; detail: string }>(),
    /** What a done plan proposed, as apply needs it (planning/stored-proposal.ts); never shown. Decision 1645. */
    proposal: jsonb('proposal').$type<Record<string, unknown>>(),
    createdAt: ts('created_at').notNull(),
    finishedAt: ts('finished_at'),
    /** When POST …/plans/{id}/apply created its tours (or the job did, with `apply`): a plan is applied once. */
    appliedAt: ts('applied_at'),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.id] })],
);

/** What an applied plan promised for each tour it created (delivery analytics' planned against actual, decision 1744). */
export const tourPlans = pgTable(
  'tour_plans',
  {
    tenantId: uuid('tenant_id').notNull(),
    tourId: uuid('tour_id').notNull(),
    stops: integer('stops').notNull(),
    /** Null when the plan did not measure it (a plan without drivers counts travel time only). */
    distanceM: integer('distance_m'),
    finishAt: ts('finish_at'),
    appliedAt: ts('applied_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.tourId] })],
);

/**
 * Proof images kept as files (decision 1250): one row per stop or package and kind, sealed in the blob store like
 * report files. A group's stops completed together share one blob. Retention clears the keys and sets `deleted_at`.
 */
export const proofFiles = pgTable(
  'proof_files',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid('id').notNull(),
    ownerKind: text('owner_kind').$type<'stop' | 'package'>().notNull(),
    ownerId: uuid('owner_id').notNull(),
    kind: text('kind').$type<ProofFileKind>().notNull(),
    contentType: text('content_type').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    sha256: text('sha256').notNull(),
    blobKey: text('blob_key'),
    wrappedKey: text('wrapped_key'),
    createdAt: ts('created_at').notNull(),
    deletedAt: ts('deleted_at'),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('proof_files_owner_key').on(t.tenantId, t.ownerKind, t.ownerId, t.kind),
    // Retention reads the oldest files still kept, across tenants.
    index('proof_files_retention_idx').on(t.createdAt).where(sql`${t.deletedAt} IS NULL`),
  ],
);
