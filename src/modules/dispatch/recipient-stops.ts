// What the recipient notifications (tracking module, decision 1104) read of dispatch: drop-off stops at a moment worth
// telling their recipient — the driver heading to them, delivered, or failed — across every tenant.
import { sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { queryRows } from '../../db/sql.ts';
import type { PlaceContact } from '../places/index.ts';
import { FINAL_STOP_STATUSES } from './bookings/index.ts';

export interface RecipientStop {
  tenantId: string;
  stopId: string;
  bookingId: string;
  status: 'completed' | 'failed' | 'open';
  contact: PlaceContact | null;
  /** The driver's first open stop on an en-route tour is this one (the same moment the tracking read shows where). */
  headingHere: boolean;
  eta: Date | null;
  serviceAreaId: string;
  /** The time window of the reattempt a failed stop got, if any. */
  nextAttempt: { startsAt: Date | null; endsAt: Date | null } | null;
}

const date = (value: Date | string | null): Date | null => (value === null ? null : new Date(value));

/**
 * Drop-off stops of the service areas' bookings on tours that are en route, or that finished since `since`: each one the driver heads to
 * next, and each completed or failed since `since`. One statement; the tours' status index narrows it to the tours
 * running now.
 */
export async function recipientStopsAtAMoment(q: Queryable, serviceAreas: readonly { tenantId: string; id: string }[], since: Date): Promise<RecipientStop[]> {
  if (!serviceAreas.length) return [];
  const uuids = (ids: string[]) => sql`ARRAY[${sql.join([...new Set(ids)].map((id) => sql`${id}`), sql`, `)}]::uuid[]`;
  const areas = uuids(serviceAreas.map((a) => a.id));
  // The tenants first: the tours' status index leads with the tenant.
  const tenants = uuids(serviceAreas.map((a) => a.tenantId));
  const final = sql.join(FINAL_STOP_STATUSES.map((status) => sql.raw(`'${status}'`)), sql`, `);
  const rows = await queryRows<{
    tenant_id: string;
    id: string;
    booking_id: string;
    status: string;
    contact: PlaceContact | null;
    heading_here: boolean;
    eta: Date | string | null;
    service_area_id: string;
    has_next: boolean;
    next_starts_at: Date | string | null;
    next_ends_at: Date | string | null;
  }>(
    q,
    sql`SELECT s.tenant_id, s.id, s.booking_id, s.status, s.contact, s.eta, (t.status = 'en_route' AND s.id = f.id) AS heading_here,
               b.service_area_id, r.id IS NOT NULL AS has_next, r.time_window_starts_at AS next_starts_at, r.time_window_ends_at AS next_ends_at
          FROM tours t
          LEFT JOIN LATERAL (SELECT o.id FROM stops o WHERE o.tenant_id = t.tenant_id AND o.tour_id = t.id AND o.status NOT IN (${final})
                              ORDER BY o.tour_position LIMIT 1) f ON true
          JOIN stops s ON s.tenant_id = t.tenant_id AND s.tour_id = t.id
          JOIN bookings b ON b.tenant_id = s.tenant_id AND b.id = s.booking_id AND b.service_area_id = ANY (${areas})
          LEFT JOIN LATERAL (SELECT x.id, x.time_window_starts_at, x.time_window_ends_at FROM stops x
                              WHERE x.tenant_id = s.tenant_id AND x.booking_id = s.booking_id AND x.recovery_of_stop_id = s.id
                                AND x.recovery_kind = 'reattempt' LIMIT 1) r ON s.status = 'failed'
         WHERE t.tenant_id = ANY (${tenants}) AND (t.status = 'en_route' OR (t.status = 'completed' AND t.completed_at >= ${since}))
           AND s.type = 'dropoff' AND s.booking_id IS NOT NULL
           AND ((s.status = 'completed' AND s.completed_at >= ${since}) OR (s.status = 'failed' AND s.failed_at >= ${since})
                OR (t.status = 'en_route' AND s.id = f.id))`,
  );
  return rows
    .map((r) => ({
      tenantId: r.tenant_id,
      stopId: r.id,
      bookingId: r.booking_id,
      status: r.status === 'completed' || r.status === 'failed' ? r.status : ('open' as const),
      contact: r.contact,
      headingHere: Boolean(r.heading_here),
      eta: date(r.eta),
      serviceAreaId: r.service_area_id,
      nextAttempt: r.has_next ? { startsAt: date(r.next_starts_at), endsAt: date(r.next_ends_at) } : null,
    }));
}
