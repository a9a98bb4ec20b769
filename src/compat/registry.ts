// The compat registry: every deprecated and removed item of docs/api-guide.md "Deprecations and removals", with its dates.
export type CompatKind = 'route' | 'field' | 'query' | 'event' | 'surface';

export interface CompatItem {
  key: string;
  kind: CompatKind;
  description: string;
  status: 'deprecated' | 'removed';
  /** When the deprecation was announced (Deprecation header); the contract's release date when unknown. */
  deprecatedOn: string;
  /** Removal date; null when docs/api-guide.md "Deprecations and removals" states none ("a future release"). */
  removalOn: string | null;
  successor: string | null;
  /** The item's row in the API guide page: the anchor of its `Link: </docs/guide#…>` (successor-version, deprecation). */
  guideAnchor?: string;
}

/** docs/api-guide.md "Deprecations and removals" gives no announcement dates; deprecations are dated from the first Tourbook release of the contract. */
const ANNOUNCED = '2026-01-01';

export const COMPAT_ITEMS = [
  {
    key: 'completion_requirements.fail',
    kind: 'field',
    description: 'completion_requirements.fail on stop payloads',
    status: 'deprecated',
    deprecatedOn: ANNOUNCED,
    removalOn: '2026-10-07',
    successor: 'failure_options',
    guideAnchor: 'failure-options',
  },
  {
    key: 'admin.places',
    kind: 'field',
    description: 'admin.places on permissions',
    status: 'deprecated',
    deprecatedOn: ANNOUNCED,
    removalOn: '2026-09-30',
    successor: 'places',
    guideAnchor: 'permissions-places',
  },
  {
    key: 'legacy_earnings',
    kind: 'surface',
    description: 'legacy earnings surface: PUT /api/hailing/bookings/{id}/earnings, tour.earnings_updated, the earnings field',
    status: 'deprecated',
    deprecatedOn: ANNOUNCED,
    removalOn: '2026-11-06',
    successor: '/api/tours/{tour_id}/compensation',
    guideAnchor: 'compensation',
  },
  {
    key: 'hailing_failure_reasons',
    kind: 'route',
    description: 'GET /api/hailing/failure_reasons',
    status: 'deprecated',
    deprecatedOn: ANNOUNCED,
    removalOn: '2026-09-16',
    successor: '/api/reasons/package_failure',
    guideAnchor: 'package-failure-reasons',
  },
  {
    key: 'active_hailing_booking_ids',
    kind: 'field',
    description: 'active_hailing_booking_ids on users',
    status: 'deprecated',
    deprecatedOn: ANNOUNCED,
    removalOn: null,
    successor: 'active_tour_id',
    guideAnchor: 'active-tour-id',
  },
  {
    key: 'filters.on_active_hailing_booking',
    kind: 'query',
    description: 'filters[on_active_hailing_booking] on GET /api/users',
    status: 'deprecated',
    deprecatedOn: ANNOUNCED,
    removalOn: null,
    successor: 'filters[on_active_tour]',
    guideAnchor: 'filters-on-active-tour',
  },
  {
    key: 'gradual_rollout_frequency_seconds',
    kind: 'field',
    description: 'gradual_rollout_frequency_seconds on scheduling configs (always null)',
    status: 'deprecated',
    deprecatedOn: ANNOUNCED,
    removalOn: null,
    successor: null,
  },
  {
    key: 'fleet_management',
    kind: 'route',
    description: 'fleet management: vehicle inventory, status, damage reports, lock/unlock',
    status: 'removed',
    deprecatedOn: ANNOUNCED,
    removalOn: '2026-05-27',
    successor: null,
  },
  {
    key: 'hailing_bookings_preferred_drivers',
    kind: 'route',
    description: 'PUT /api/hailing_bookings/{id}/preferred_drivers',
    status: 'removed',
    deprecatedOn: ANNOUNCED,
    removalOn: null,
    successor: '/api/bookings/{id}/preferred_drivers',
  },
  {
    key: 'hailing_booking_events',
    kind: 'event',
    description: 'hailing_booking.* webhook events',
    status: 'removed',
    deprecatedOn: ANNOUNCED,
    removalOn: null,
    successor: 'booking.* and tour.* events',
  },
  {
    key: 'return_to_hub',
    kind: 'field',
    description: 'return_to_hub on booking and tour responses',
    status: 'removed',
    deprecatedOn: ANNOUNCED,
    removalOn: null,
    successor: null,
  },
  {
    key: 'generic_force_delivery_transition',
    kind: 'surface',
    description: 'the generic force_delivery package transition',
    status: 'removed',
    deprecatedOn: ANNOUNCED,
    removalOn: null,
    successor: '/api/hailing/packages/{id}/force_delivery',
  },
  {
    key: 'removable_from_dropoff_tour',
    kind: 'field',
    description: 'removable_from_dropoff_tour on package lookups',
    status: 'removed',
    deprecatedOn: ANNOUNCED,
    removalOn: null,
    successor: 'permissions.removable',
  },
] as const satisfies readonly CompatItem[];

export type CompatKey = (typeof COMPAT_ITEMS)[number]['key'];

export function compatItem(key: CompatKey): CompatItem {
  const item = COMPAT_ITEMS.find((i) => i.key === key);
  if (!item) throw new Error(`unknown compat item ${key}`);
  return item;
}

/**
 * Whether a deprecated item behaves as removed for this tenant now: only when the tenant enforces sunsets
 * and the removal date has passed. Removal dates are whole UTC days; the item is gone from 00:00 that day.
 */
export function isSunset(key: CompatKey, now: Date, settings: { enforce_sunsets: boolean }): boolean {
  const item = compatItem(key);
  if (item.status === 'removed') return true;
  if (!settings.enforce_sunsets || !item.removalOn) return false;
  return now.getTime() >= Date.parse(`${item.removalOn}T00:00:00Z`);
}

/** Deprecation (RFC 9745), Sunset (RFC 8594) and Link headers (successor-version; deprecation, RFC 9745 §3). */
export function deprecationHeaders(key: CompatKey): Record<string, string> {
  const item = compatItem(key);
  const headers: Record<string, string> = {
    deprecation: `@${Math.floor(Date.parse(`${item.deprecatedOn}T00:00:00Z`) / 1000)}`,
  };
  if (item.removalOn) headers.sunset = new Date(`${item.removalOn}T00:00:00Z`).toUTCString();
  // URI references (RFC 8288) into the guide page a person can read (decision 0155): the item's row names the
  // successor and the removal date; an item without a row links the guide's deprecations section.
  const row = `/docs/guide#${item.guideAnchor ?? 'deprecations-and-removals'}`;
  const links = item.successor && item.guideAnchor ? [`<${row}>; rel="successor-version"`] : [];
  headers.link = [...links, `<${row}>; rel="deprecation"`].join(', ');
  return headers;
}
