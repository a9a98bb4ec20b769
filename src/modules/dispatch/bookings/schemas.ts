// Bookings wire schemas: bookings, stops, packages and their request bodies (docs/api-guide.md "Bookings, stops and tours").
import { component, EnumText, StringEnum, withExample } from '../../../http/openapi-components.ts';
import { EXAMPLE_AT, EXAMPLE_ID as ID } from '../../../http/openapi-examples.ts';
import { deprecatedItem } from '../../../http/openapi.ts';
import { FailureOutcomeName } from '../../services/index.ts';
import { Type, type Static } from '@sinclair/typebox';
import { PaginationQuery } from '../../../http/pagination.ts';
import { ListOf, Nullable, Timestamp, Uuid } from '../../../http/schemas.ts';
import { TravelSource } from '../../../http/travel-schemas.ts';
import { FAILURE_OUTCOMES, type FailureOutcome } from '../../services/index.ts';
import { AddressInput, ContactInput, Location, Metadata } from '../../places/index.ts';

const Address = Type.Object({
  street: Type.String(),
  number: Nullable(Type.String()),
  zip_code: Nullable(Type.String()),
  city: Type.String(),
  country: Nullable(Type.String()),
  additional_line: Nullable(Type.String()),
});
const Contact = Type.Object({ name: Nullable(Type.String()), phone_number: Nullable(Type.String()), email: Nullable(Type.String()), locale: Type.Optional(Nullable(Type.String())) });
export const Money = Type.Object({ amount: Type.Integer({ minimum: 0, maximum: 100_000_000 }), currency: Type.String({ pattern: '^[A-Z]{3}$' }) }, { additionalProperties: false });
const TimeWindow = Type.Object({ starts_at: Timestamp, ends_at: Timestamp }, { additionalProperties: false });

export const StopStatus = component('StopStatus', StringEnum(['to_be_dispatched', 'scheduled', 'approaching', 'arrived', 'completed', 'failed', 'cancelled']));
export const BookingStatus = component('BookingStatus', StringEnum(['to_be_dispatched', 'partially_dispatched', 'dispatched', 'completed', 'cancelled']));
const PackageStatus = component('PackageStatus', StringEnum(['created', 'awaiting_pickup', 'in_transit', 'delivered', 'failed', 'returned', 'cancelled']));
const RecoveryKind = component('RecoveryKind', StringEnum(['return', 'reattempt']));
export const View = component('View', StringEnum(['standard', 'compact'], { description: '`compact` leaves out stops and packages.' }));
const LegacyEarnings = deprecatedItem('legacy_earnings', Nullable(component('Money', Type.Object({ amount: Type.Integer(), currency: Type.String() }))));

const OutcomeOption = component('FailureOutcomeOption', Type.Object({
  allowed: Type.Boolean(),
  reason: Nullable(Type.String({ description: 'Localized; null when allowed.' })),
  reason_key: Nullable(Type.String({ description: 'Stable key of the first failing check; null when allowed.' })),
}));

/** failure_options of a stop under way: decided by the failures module (hooks.ts FailureRules), rendered here. */
export const FailureOptions = component('FailureOptions', Type.Object({
  outcomes: Type.Object(Object.fromEntries(FAILURE_OUTCOMES.map((outcome) => [outcome, OutcomeOption])) as Record<FailureOutcome, typeof OutcomeOption>),
}));

export const CompletionRequirements = Type.Object({
  fail: Type.Boolean({ description: 'failure_options.outcomes.skip_recovery.allowed' }),
});

/**
 * A proof as read back (decision 1250): the texts as given, each image as its `sha256:` fingerprint, and a link to
 * the image file while it is kept (null once retention deleted it, then `deleted_at` says when).
 */
export const DeliveryProofView = component('DeliveryProofView', withExample(Type.Object({
  recipient_name: Type.Optional(Type.String()),
  note: Type.Optional(Type.String()),
  photo: Type.Optional(Type.String({ description: '`sha256:` fingerprint of the photo' })),
  signature: Type.Optional(Type.String({ description: '`sha256:` fingerprint of the signature image' })),
  photo_url: Nullable(Type.String({ description: 'the decrypted photo, for whoever may see the stop or package' })),
  signature_url: Nullable(Type.String()),
  deleted_at: Nullable(Timestamp),
}), {
  recipient_name: 'A. Lovelace',
  photo: 'sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
  photo_url: `/api/stops/${ID.dropoffStop}/proof/photo`,
  signature_url: null,
  deleted_at: null,
}));

/** Examples of a pickup and a drop-off on a tour under way: bookings and tours show the same stops. */
export const STOP_EXAMPLE = {
  id: ID.pickupStop,
  booking_id: ID.booking,
  tour_id: ID.tour,
  type: 'pickup',
  status: 'approaching',
  position: 0,
  tour_position: 0,
  place_id: ID.pickupPlace,
  location: { lat: 52.5303, lng: 13.3295 },
  address: { street: 'Beusselstraße', number: '44', zip_code: '10553', city: 'Berlin', country: 'DE', additional_line: null },
  contact: { name: 'Front desk', phone_number: '+49 30 555 0100', email: null },
  group: `A-pickup-${ID.pickupPlace}`,
  time_window: { starts_at: '2026-11-22T13:00:00.000Z', ends_at: '2026-11-22T15:00:00.000Z' },
  service_duration_seconds: 120,
  notes: null,
  package_ids: [ID.package],
  eta: '2026-11-22T13:20:00.000Z',
  travel_source: 'road_network' as const,
  completed_at: null,
  failed_at: null,
  failure: null,
  recovery_of_stop_id: null,
  recovery_kind: null,
  proof: null,
  completion_requirements: { fail: false },
};
export const DROPOFF_EXAMPLE = {
  ...STOP_EXAMPLE,
  id: ID.dropoffStop,
  type: 'dropoff',
  status: 'scheduled',
  position: 1,
  tour_position: 1,
  place_id: null,
  location: { lat: 52.5378, lng: 13.4093 },
  address: { street: 'Kastanienallee', number: '12', zip_code: '10435', city: 'Berlin', country: 'DE', additional_line: 'Hinterhaus, 3rd floor' },
  contact: { name: 'Ada Lovelace', phone_number: '+49 151 2345678', email: null },
  group: null,
  time_window: null,
  notes: 'Ring twice',
  eta: '2026-11-22T13:41:00.000Z',
};

export const Stop = component('Stop', withExample(Type.Object({
  id: Uuid,
  booking_id: Nullable(Uuid),
  tour_id: Nullable(Uuid),
  type: Type.String(),
  status: EnumText(StopStatus),
  position: Type.Integer(),
  tour_position: Nullable(Type.Integer()),
  place_id: Nullable(Uuid),
  location: Type.Object({ lat: Type.Number(), lng: Type.Number() }),
  address: Address,
  contact: Nullable(Contact),
  geocoding: Type.Optional(Type.Object(
    { precision: StringEnum(['house', 'street']), source: Type.String({ description: 'places, region, nominatim or photon.' }) },
    { description: 'Present on a stop located from its address (contract §14): how precisely, and by which source.' },
  )),
  group: Nullable(Type.String()),
  time_window: Nullable(Type.Object({ starts_at: Timestamp, ends_at: Timestamp })),
  service_duration_seconds: Type.Integer(),
  notes: Nullable(Type.String()),
  recipient_instructions: Type.Optional(Type.Object(
    {
      kind: StringEnum(['none', 'leave_at_door', 'neighbour']),
      neighbour: Nullable(Type.String()),
      note: Nullable(Type.String()),
      updated_at: Timestamp,
    },
    { description: "Present once the recipient gave instructions through the tracking link (decision 1788): for the driver, beside the dispatcher's `notes`." },
  )),
  required_skills: Type.Optional(Type.Array(Type.String(), { description: 'Present when the stop needs skills of the vehicle.' })),
  package_ids: Type.Array(Uuid),
  eta: Nullable(Timestamp),
  travel_source: Type.Union([TravelSource, Type.Null()], {
    description: 'Which travel source computed `eta` (contract §15): null when there is no ETA, or one stored before the source was kept.',
  }),
  completed_at: Nullable(Timestamp),
  failed_at: Nullable(Timestamp),
  failure: Nullable(Type.Object({ outcome: EnumText(FailureOutcomeName), reason_key: Nullable(Type.String()), note: Nullable(Type.String()) })),
  recovery_of_stop_id: Nullable(Uuid),
  recovery_kind: Nullable(EnumText(RecoveryKind)),
  /** The proof given when the stop was completed (decisions 0303, 1250). */
  proof: Nullable(DeliveryProofView),
  // Deprecated; omitted once its sunset (2026-10-07) is enforced for the tenant.
  completion_requirements: Type.Optional(deprecatedItem('completion_requirements.fail', CompletionRequirements)),
  failure_options: Type.Optional(FailureOptions),
}), STOP_EXAMPLE));

export const PackageHistoryEntry = component('PackageHistoryEntry', Type.Object({
  at: Timestamp,
  event: Type.String(),
  stop_id: Nullable(Uuid),
  tour_id: Nullable(Uuid),
  actor_id: Nullable(Uuid),
  reason_key: Nullable(Type.String()),
  note: Nullable(Type.String()),
}));

const PACKAGE_EXAMPLE = {
  id: ID.package,
  booking_id: ID.booking,
  shortcode: 'EPHW4MQK',
  external_label: 'SHOP-1042-1',
  status: 'awaiting_pickup',
  pickup_stop_id: ID.pickupStop,
  dropoff_stop_id: ID.dropoffStop,
  description: 'Parcel',
  weight_grams: 1850,
  forced_delivery: null,
  history: [{ at: EXAMPLE_AT, event: 'created', stop_id: null, tour_id: null, actor_id: ID.manager, reason_key: null, note: null }],
};

export const Package = component('Package', withExample(Type.Object({
  id: Uuid,
  booking_id: Uuid,
  shortcode: Type.String(),
  external_label: Nullable(Type.String()),
  status: EnumText(PackageStatus),
  pickup_stop_id: Uuid,
  dropoff_stop_id: Uuid,
  description: Nullable(Type.String()),
  weight_grams: Nullable(Type.Integer()),
  forced_delivery: Nullable(Type.Object({ at: Timestamp, by_user_id: Uuid, proof: DeliveryProofView })),
  history: Type.Array(PackageHistoryEntry),
}), PACKAGE_EXAMPLE));

export const LookedUpPackage = component('LookedUpPackage', withExample(
  Type.Composite([Package, Type.Object({ permissions: Type.Object({ removable: Type.Boolean() }) })]),
  { ...PACKAGE_EXAMPLE, permissions: { removable: true } },
));

export const Booking = component('Booking', withExample(Type.Object({
  id: Uuid,
  external_id: Nullable(Type.String()),
  service_id: Uuid,
  service_area_id: Uuid,
  customer_id: Nullable(Uuid),
  status: EnumText(BookingStatus),
  scheduled_at: Nullable(Timestamp),
  managing_organization_ids: Type.Array(Uuid),
  preferred_driver_ids: Type.Array(Uuid),
  tip: Nullable(Type.Object({ amount: Type.Integer(), currency: Type.String() })),
  /** Why the tip was or was not distributed (docs/api-guide.md "Tour compensation, tips and legacy earnings"), from the compensation module. */
  tip_distribution: Type.Object({ tour_id: Nullable(Uuid), status: Type.String(), reason: Type.String() }),
  /** Deprecated (legacy earnings, docs/api-guide.md "Deprecations and removals"); omitted once the tenant enforces its sunset. */
  earnings: Type.Optional(LegacyEarnings),
  /**
   * The recipient's tracking link (docs/tracking.md, decision 1100): absent for drivers; `expires_at` is null while a
   * stop is open; null when the server holds no master key to derive it.
   */
  tracking: Type.Optional(Nullable(component('TrackingLink', Type.Object({ url: Type.String({ format: 'uri' }), expires_at: Nullable(Timestamp) })))),
  /** The service area's auto-dispatch decision (decision 1350); null when none was taken. */
  auto_dispatch: Nullable(component('AutoDispatchDecision', Type.Object({
    status: Type.Union([Type.Literal('dispatched'), Type.Literal('skipped')]),
    tour_id: Nullable(Uuid),
    reason: Nullable(Type.String({ description: 'When skipped: `no_open_tour`, `no_fit` or `budget_exceeded`.' })),
    constraint: Nullable(Type.String({ description: 'With `no_fit`: `stop_limit`, `time_window`, `capacity` or `shift`.' })),
    decided_at: Timestamp,
  }))),
  metadata: Type.Record(Type.String(), Type.Unknown()),
  stops: Type.Optional(Type.Array(Stop)),
  packages: Type.Optional(Type.Array(Package)),
  created_at: Timestamp,
  updated_at: Timestamp,
}), {
  id: ID.booking,
  external_id: 'SHOP-1042',
  service_id: ID.service,
  service_area_id: ID.serviceArea,
  customer_id: ID.customer,
  status: 'dispatched',
  scheduled_at: null,
  managing_organization_ids: [ID.organization],
  preferred_driver_ids: [],
  tip: { amount: 300, currency: 'EUR' },
  tip_distribution: { tour_id: ID.tour, status: 'pending', reason: 'dropoffs_unresolved' },
  earnings: null,
  auto_dispatch: { status: 'dispatched', tour_id: ID.tour, reason: null, constraint: null, decided_at: EXAMPLE_AT },
  metadata: { shop_order: '1042' },
  stops: [STOP_EXAMPLE, DROPOFF_EXAMPLE],
  packages: [PACKAGE_EXAMPLE],
  created_at: EXAMPLE_AT,
  updated_at: EXAMPLE_AT,
}));

const StopTypeSlug = Type.String({ pattern: '^[a-z_]{1,11}$' });
/** Length and prefix of groups are domain rules (422 group_too_long / reserved_group_prefix), checked after the schema. */
const GroupInput = Type.String({ minLength: 1, maxLength: 1000 });

export const StopInput = Type.Object(
  {
    type: StopTypeSlug,
    place_id: Type.Optional(Uuid),
    location: Type.Optional(Location),
    address: Type.Optional(AddressInput),
    contact: Type.Optional(ContactInput),
    group: Type.Optional(GroupInput),
    // null means no window, as responses render it (api-guide "Creating a booking").
    time_window: Type.Optional(Nullable(TimeWindow)),
    service_duration_seconds: Type.Optional(Type.Integer({ minimum: 0, maximum: 86_400 })),
    notes: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
    required_skills: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 50 }), { maxItems: 50, uniqueItems: true, description: "Skills the vehicle must have (a shift's `vehicle.skills`) when a plan with drivers places the stop." })),
  },
  { additionalProperties: false },
);
export type StopInputT = Static<typeof StopInput>;

const PackageInput = Type.Object(
  {
    external_label: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 100 }))),
    description: Type.Optional(Nullable(Type.String({ maxLength: 500 }))),
    weight_grams: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 10_000_000 }))),
    pickup_stop_index: Type.Integer({ minimum: 0 }),
    dropoff_stop_index: Type.Integer({ minimum: 0 }),
  },
  { additionalProperties: false },
);

export const BookingCreate = component('BookingCreate', Type.Object(
    {
      service_id: Uuid,
      external_id: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 255 }))),
      scheduled_at: Type.Optional(Nullable(Timestamp)),
      customer_id: Type.Optional(Nullable(Uuid)),
      managing_organization_ids: Type.Optional(Type.Array(Uuid, { uniqueItems: true, maxItems: 50 })),
      tip: Type.Optional(Nullable(Money)),
      metadata: Type.Optional(Metadata),
      stops: Type.Array(StopInput, { minItems: 1, maxItems: 1000 }),
      packages: Type.Optional(Type.Array(PackageInput, { maxItems: 1000 })),
    },
    { additionalProperties: false },
));
export const BookingCreateBody = withExample(Type.Object({ booking: BookingCreate }, { additionalProperties: false }), {
  booking: {
    service_id: ID.service,
    external_id: 'SHOP-1042',
    customer_id: ID.customer,
    tip: { amount: 300, currency: 'EUR' },
    metadata: { shop_order: '1042' },
    stops: [
      { type: 'pickup', place_id: ID.pickupPlace, time_window: { starts_at: '2026-11-22T13:00:00Z', ends_at: '2026-11-22T15:00:00Z' } },
      {
        type: 'dropoff',
        location: { lat: 52.5378, lng: 13.4093 },
        address: { street: 'Kastanienallee', number: '12', zip_code: '10435', city: 'Berlin', additional_line: 'Hinterhaus, 3rd floor' },
        contact: { name: 'Ada Lovelace', phone_number: '+49 151 2345678' },
        time_window: null,
        notes: 'Ring twice',
      },
    ],
    packages: [{ pickup_stop_index: 0, dropoff_stop_index: 1, external_label: 'SHOP-1042-1', description: 'Parcel', weight_grams: 1850 }],
  },
});
export type BookingCreateInput = Static<typeof BookingCreate>;

export const BookingEnvelope = Type.Object({ booking: Booking });
export const BookingList = ListOf('bookings', Booking);

export const BookingListQuery = Type.Object(
  {
    ...PaginationQuery,
    view: Type.Optional(View),
    filters: Type.Optional(
      Type.Object(
        {
          status: Type.Optional(Type.Array(BookingStatus)),
          external_id: Type.Optional(Type.String({ maxLength: 255 })),
          service_area_id: Type.Optional(Uuid),
          customer_id: Type.Optional(Uuid),
          created_after: Type.Optional(Timestamp),
          created_before: Type.Optional(Timestamp),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
export type BookingListQueryT = Static<typeof BookingListQuery>;

export const ViewQuery = Type.Object(
  { view: Type.Optional(View) },
  { additionalProperties: false },
);

export const TipBody = withExample(Type.Object({ tip: Nullable(Money) }, { additionalProperties: false }), { tip: { amount: 500, currency: 'EUR' } });

export const CustomStopBody = withExample(Type.Object(
  { stop: StopInput, position: Type.Optional(Type.Integer({ minimum: 0 })) },
  { additionalProperties: false },
), { stop: { type: 'dropoff', place_id: ID.dropoffPlace, service_duration_seconds: 300, notes: 'Leave with the neighbour if absent' }, position: 1 });
export type CustomStopInput = Static<typeof CustomStopBody>;

export const StopEnvelope = Type.Object({ stop: Stop });

export const GroupsBody = withExample(Type.Object(
  {
    stops: Type.Array(Type.Object({ id: Uuid, group: Nullable(GroupInput) }, { additionalProperties: false }), { minItems: 1, maxItems: 1000 }),
  },
  { additionalProperties: false },
), { stops: [{ id: ID.pickupStop, group: 'dock 4' }, { id: ID.dropoffStop, group: null }] });
export type GroupsInput = Static<typeof GroupsBody>;

export const StopProperties = Type.Object(
    {
      type: Type.Optional(StopTypeSlug),
      contact: Type.Optional(Nullable(ContactInput)),
      time_window: Type.Optional(Nullable(TimeWindow)),
      service_duration_seconds: Type.Optional(Type.Integer({ minimum: 0, maximum: 86_400 })),
      notes: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
    },
    { additionalProperties: false },
);
export const StopPropertiesBody = withExample(Type.Object({ stop: StopProperties }, { additionalProperties: false }), {
  stop: { time_window: { starts_at: '2026-11-22T16:00:00Z', ends_at: '2026-11-22T18:00:00Z' }, notes: 'Back door', service_duration_seconds: 180 },
});
export type StopPropertiesInput = Static<typeof StopProperties>;

export const ManagingOrganizationsBody = withExample(Type.Object(
  { managing_organization_ids: Type.Array(Uuid, { uniqueItems: true, maxItems: 50 }) },
  { additionalProperties: false },
), { managing_organization_ids: [ID.organization] });

export const PreferredDriversBody = withExample(Type.Object(
  { preferred_driver_ids: Type.Array(Uuid, { uniqueItems: true, maxItems: 100 }) },
  { additionalProperties: false },
), { preferred_driver_ids: [ID.driver] });
