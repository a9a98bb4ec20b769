// What the recipient notifications (tracking module, decisions 1104, 1108) read of dispatch: drop-off stops at a moment
// worth telling their recipient — on a tour, the driver heading to them, close by, delivered, or failed — across every
// tenant.
import { sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { queryRows } from '../../db/sql.ts';
import type { PlaceContact } from '../places/index.ts';
import { FINAL_STOP_STATUSES } from './bookings/index.ts';
import { OPEN_TOUR_STATUSES } from './tours/index.ts';

export interface RecipientStop {
  tenantId: string;
  stopId: string;
  bookingId: string;
  tourId: string;
  status: 'completed' | 'failed' | 'open';
  contact: PlaceContact | null;
  /** The driver's first open stop on an en-route tour is this one (the same moment the tracking read shows where). */
  headingHere: boolean;
  /** The stop's tour is en route (an open stop of it may be approaching). */
  enRoute: boolean;
  /** The ETA kept on the stop; live tracking's newer one comes through `Deps.hooks.dispatch.stopEtas`. */
  eta: Date | null;
  /** The stop's own time window, if it has one. */
  timeWindow: { startsAt: Date; endsAt: Date } | null;
  /** What a completed stop's proof says: who took it, and whether a photo is kept (the tracking page links it). */
  proof: { recipientName: string | null; photo: boolean } | null;
  serviceAreaId: string;
  /** The time window of the reattempt a failed stop got, if any. */
  nextAttempt: { startsAt: Date | null; endsAt: Date | null } | null;
}

const date = (value: Date | string | null): Date | null => (value === null ? null : new Date(value));

/** Which open drop-offs an area asks for besides the one the driver heads to next (decision 1108). */
export interface RecipientArea {
  tenantId: string;
  id: string;
  /** Every open drop-off on a tour (`dispatched`). */
  openStops: boolean;
  /** Every open drop-off on an en-route tour (`approaching`: the caller compares their ETAs). */
  enRouteStops: boolean;
}

/**
 * Drop-off stops of the service areas' bookings on tours that are open (planned or en route), or that finished since `since`:
 * each one the driver heads to next, each completed or failed since `since`, and the open ones the area asks for.
 * One statement; the tours' status index narrows it to the tours not finished.
 */
export async function recipientStopsAtAMoment(q: Queryable, serviceAreas: readonly RecipientArea[], since: Date): Promise<RecipientStop[]> {
  if (!serviceAreas.length) return [];
  const uuids = (ids: string[]) => sql`ARRAY[${sql.join([...new Set(ids)].map((id) => sql`${id}`), sql`, `)}]::uuid[]`;
  const areas = uuids(serviceAreas.map((a) => a.id));
  // The tenants first: the tours' status index leads with the tenant.
  const tenants = uuids(serviceAreas.map((a) => a.tenantId));
  const list = (values: readonly string[]) => sql.join(values.map((value) => sql.raw(`'${value}'`)), sql`, `);
  const final = list(FINAL_STOP_STATUSES);
  const openTours = list(OPEN_TOUR_STATUSES);
  // An area with no such choice still needs a well-typed (empty) array.
  const openAreas = uuids(serviceAreas.filter((a) => a.openStops).map((a) => a.id));
  const enRouteAreas = uuids(serviceAreas.filter((a) => a.enRouteStops).map((a) => a.id));
  const rows = await queryRows<{
    tenant_id: string;
    id: string;
    booking_id: string;
    tour_id: string;
    status: string;
    contact: PlaceContact | null;
    heading_here: boolean;
    eta: Date | string | null;
    tour_status: string;
    window_starts_at: Date | string | null;
    window_ends_at: Date | string | null;
    proof: { recipient_name?: string; files?: string[]; deleted_at?: string } | null;
    service_area_id: string;
    has_next: boolean;
    next_starts_at: Date | string | null;
    next_ends_at: Date | string | null;
  }>(
    q,
    sql`SELECT s.tenant_id, s.id, s.booking_id, t.id AS tour_id, s.status, s.contact, s.eta, (t.status = 'en_route' AND s.id = f.id) AS heading_here,
               t.status AS tour_status, s.time_window_starts_at AS window_starts_at, s.time_window_ends_at AS window_ends_at, s.proof,
               b.service_area_id, r.id IS NOT NULL AS has_next, r.time_window_starts_at AS next_starts_at, r.time_window_ends_at AS next_ends_at
          FROM tours t
          LEFT JOIN LATERAL (SELECT o.id FROM stops o WHERE o.tenant_id = t.tenant_id AND o.tour_id = t.id AND o.status NOT IN (${final})
                              ORDER BY o.tour_position LIMIT 1) f ON true
          JOIN stops s ON s.tenant_id = t.tenant_id AND s.tour_id = t.id
          JOIN bookings b ON b.tenant_id = s.tenant_id AND b.id = s.booking_id AND b.service_area_id = ANY (${areas})
          LEFT JOIN LATERAL (SELECT x.id, x.time_window_starts_at, x.time_window_ends_at FROM stops x
                              WHERE x.tenant_id = s.tenant_id AND x.booking_id = s.booking_id AND x.recovery_of_stop_id = s.id
                                AND x.recovery_kind = 'reattempt' LIMIT 1) r ON s.status = 'failed'
         WHERE t.tenant_id = ANY (${tenants})
           AND (t.status IN (${openTours}) OR (t.status = 'completed' AND t.completed_at >= ${since}))
           -- A return goes back to the sender: it is not the recipient's (decision 1104).
           AND s.type = 'dropoff' AND s.booking_id IS NOT NULL AND s.recovery_kind IS DISTINCT FROM 'return'
           AND ((s.status = 'completed' AND s.completed_at >= ${since}) OR (s.status = 'failed' AND s.failed_at >= ${since})
                OR (t.status = 'en_route' AND s.id = f.id)
                OR (s.status NOT IN (${final}) AND b.service_area_id = ANY (${openAreas}))
                OR (t.status = 'en_route' AND s.status NOT IN (${final}) AND b.service_area_id = ANY (${enRouteAreas})))`,
  );
  return rows
    .map((r) => ({
      tenantId: r.tenant_id,
      stopId: r.id,
      bookingId: r.booking_id,
      tourId: r.tour_id,
      status: r.status === 'completed' || r.status === 'failed' ? r.status : ('open' as const),
      contact: r.contact,
      headingHere: Boolean(r.heading_here),
      enRoute: r.tour_status === 'en_route',
      eta: date(r.eta),
      timeWindow: r.window_starts_at && r.window_ends_at ? { startsAt: new Date(r.window_starts_at), endsAt: new Date(r.window_ends_at) } : null,
      proof:
        r.status === 'completed' && r.proof
          ? { recipientName: r.proof.recipient_name ?? null, photo: Boolean(r.proof.files?.includes('photo')) && !r.proof.deleted_at }
          : null,
      serviceAreaId: r.service_area_id,
      nextAttempt: r.has_next ? { startsAt: date(r.next_starts_at), endsAt: date(r.next_ends_at) } : null,
    }));
}
