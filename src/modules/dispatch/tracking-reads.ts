// Read helpers for live tracking: a tour's summary (behind requireTour, access.ts), its open stops in order, the facts the
// visibility rule needs for the live stream, and booking event data — what live reads of dispatch, in one place.
import { and, eq, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { oneRow, rowFromJson, type JsonPart } from '../../db/json-read.ts';
import { bookingsRepository } from './bookings/index.ts';
import { FINAL_STOP_STATUSES, isFinalStop } from './bookings/index.ts';
import { bookingEventData, tourFacts } from './settle.ts';
import { bookings, stops, tours } from './tables.ts';
import { stopsRepository } from './stops/index.ts';
import { toursRepository } from './tours/index.ts';
import type { BookingFacts, TourFacts } from './visibility.ts';

export interface TourSummary {
  id: string;
  status: string;
  driverId: string | null;
  executingOrganizationId: string | null;
  serviceAreaId: string;
}

export interface OpenStop {
  id: string;
  bookingId: string | null;
  type: string;
  /** Order within the tour. */
  tourPosition: number;
  /** Order within its booking. */
  position: number;
  lat: number;
  lng: number;
  timeWindowStartsAt: Date | null;
  serviceDurationSeconds: number;
}

export type { BookingFacts, TourFacts };

/** What live keeps of a tour it passed through dispatch's door (requireTour, access.ts). */
export const tourSummaryOf = (t: { id: string; status: string; driverId: string | null; executingOrganizationId: string | null; serviceAreaId: string }): TourSummary => ({
  id: t.id,
  status: t.status,
  driverId: t.driverId,
  executingOrganizationId: t.executingOrganizationId,
  serviceAreaId: t.serviceAreaId,
});

export async function findTourSummary(q: Queryable, tenantId: string, tourId: string): Promise<TourSummary | null> {
  const tour = await toursRepository.findTour(q, tenantId, tourId);
  return tour ? tourSummaryOf(tour) : null;
}

/** The tour's stops that still lie ahead (not completed, failed or cancelled), in tour order. */
export async function openStopsOfTour(q: Queryable, tenantId: string, tourId: string): Promise<OpenStop[]> {
  const stops = await stopsRepository.findStopsOfTours(q, tenantId, [tourId]);
  return stops
    .filter((s) => !isFinalStop(s.status))
    .map((s) => ({
      id: s.id,
      bookingId: s.bookingId,
      type: s.type,
      tourPosition: s.tourPosition ?? 0,
      position: s.position,
      lat: s.lat,
      lng: s.lng,
      timeWindowStartsAt: s.timeWindowStartsAt,
      serviceDurationSeconds: s.serviceDurationSeconds,
    }));
}

/**
 * The tour as one part of a combined read (db/json-read.ts): a driver's position reads it with its own rows in one
 * round trip. The tour's door on the row read (requireLoadedTour, access.ts) then applies the caller's visibility.
 */
export const tourRead = (tenantId: Placeholder, tourId: Placeholder) => oneRow(tours, and(eq(tours.tenantId, tenantId), eq(tours.id, tourId)));

/** openStopsOfTour as one part of a combined read: only the columns an ETA needs, in tour order. */
export function openStopsRead(tenantId: Placeholder, tourId: Placeholder): JsonPart<OpenStop[]> {
  const final = sql.join(FINAL_STOP_STATUSES.map((status) => sql.raw(`'${status}'`)), sql`, `);
  return {
    sql: sql`(SELECT coalesce(json_agg(json_build_array(${stops.id}, ${stops.bookingId}, ${stops.type}, ${stops.tourPosition}, ${stops.position},
                ${stops.lat}, ${stops.lng}, ${stops.timeWindowStartsAt}, ${stops.serviceDurationSeconds}) ORDER BY ${stops.tourPosition}), '[]'::json)
               FROM ${stops} WHERE ${stops.tenantId} = ${tenantId} AND ${stops.tourId} = ${tourId} AND ${stops.status} NOT IN (${final}))`,
    decode: (json) =>
      (json as [string, string | null, string, number | null, number, number, number, string | null, number][]).map(([id, bookingId, type, tourPosition, position, lat, lng, startsAt, service]) => ({
        id,
        bookingId,
        type,
        tourPosition: tourPosition ?? 0,
        position,
        lat,
        lng,
        timeWindowStartsAt: startsAt === null ? null : new Date(startsAt),
        serviceDurationSeconds: service,
      })),
  };
}

/**
 * Versions of the tour row and of its open stops (row versions, `xmin`), as text: equal versions mean the same rows
 * with the same contents. A driver position that computed its ETAs from an earlier read writes only while both are
 * unchanged (live's fast path), so it never stores ETAs of stops that moved, closed or changed meanwhile. The stops'
 * version lists their `xmin`s in tour order: any change since (a stop edited, moved here, reordered) brings a transaction
 * id the list did not have, and a stop that left or closed shortens it.
 */
export const tourVersionSql = (tenantId: Placeholder, tourId: Placeholder): SQL =>
  sql`(SELECT ${tours}.xmin::text FROM ${tours} WHERE ${tours.tenantId} = ${tenantId} AND ${tours.id} = ${tourId})`;

export function openStopsVersionSql(tenantId: Placeholder, tourId: Placeholder): SQL {
  const final = sql.join(FINAL_STOP_STATUSES.map((status) => sql.raw(`'${status}'`)), sql`, `);
  // Tour order (the tour index's), not id order: ordering by id made the planner walk the tenant's primary key.
  return sql`(SELECT coalesce(string_agg(${stops}.xmin::text, ',' ORDER BY ${stops.tourPosition}, ${stops.id}), '')
               FROM ${stops} WHERE ${stops.tenantId} = ${tenantId} AND ${stops.tourId} = ${tourId} AND ${stops.status} NOT IN (${final}))`;
}

/**
 * bookingEventDataOf for the bookings with open stops on the tour, as one part of a combined read. `= ANY (ARRAY(…))`
 * looks the bookings up by key: with `IN (SELECT …)` the prepared statement's generic plan walked every booking of
 * the tenant against the tour's stops (6 ms at 300 bookings, growing with the tenant).
 */
export function bookingEventDataRead(tenantId: Placeholder, tourId: Placeholder): JsonPart<Map<string, Record<string, unknown>>> {
  const final = sql.join(FINAL_STOP_STATUSES.map((status) => sql.raw(`'${status}'`)), sql`, `);
  return {
    sql: sql`(SELECT coalesce(json_agg(row_to_json(${bookings})), '[]'::json) FROM ${bookings}
               WHERE ${bookings.tenantId} = ${tenantId} AND ${bookings.id} = ANY (ARRAY(SELECT ${stops.bookingId} FROM ${stops}
                 WHERE ${stops.tenantId} = ${tenantId} AND ${stops.tourId} = ${tourId} AND ${stops.status} NOT IN (${final}))))`,
    decode: (json) => new Map((json as Record<string, unknown>[]).map((row) => rowFromJson(bookings, row)).map((b) => [b.id, bookingEventData(b)])),
  };
}

/** The common data of booking events ({booking_id, customer_id, external_id, service_area_id}) by booking id. */
export async function bookingEventDataOf(q: Queryable, tenantId: string, bookingIds: string[]): Promise<Map<string, Record<string, unknown>>> {
  const rows = await bookingsRepository.findBookings(q, tenantId, bookingIds);
  return new Map(rows.map((b) => [b.id, bookingEventData(b)]));
}

/** What the visibility rule needs of tours, as of now, by id. */
export async function tourFactsOf(q: Queryable, tenantId: string, tourIds: string[]): Promise<Map<string, TourFacts>> {
  const rows = await toursRepository.findTours(q, tenantId, tourIds);
  return new Map(rows.map((t) => [t.id, tourFacts(t)]));
}

/** What the visibility rule needs of bookings (with the tours holding their stops), and those tours' ids. */
export async function bookingFactsOf(q: Queryable, tenantId: string, bookingIds: string[]): Promise<Map<string, BookingFacts & { tourIds: string[] }>> {
  if (!bookingIds.length) return new Map();
  const bookings = await bookingsRepository.findBookings(q, tenantId, bookingIds);
  const stops = await stopsRepository.findStopsOfBookings(q, tenantId, bookingIds);
  const tourIdsOf = new Map<string, Set<string>>();
  for (const s of stops) if (s.bookingId && s.tourId) (tourIdsOf.get(s.bookingId) ?? tourIdsOf.set(s.bookingId, new Set()).get(s.bookingId))?.add(s.tourId);
  const allTourIds = [...new Set([...tourIdsOf.values()].flatMap((set) => [...set]))];
  const tours = await tourFactsOf(q, tenantId, allTourIds);
  return new Map(
    bookings.map((b) => {
      const tourIds = [...(tourIdsOf.get(b.id) ?? [])];
      const facts = tourIds.map((id) => tours.get(id)).filter((t): t is TourFacts => t !== undefined);
      return [b.id, { customerId: b.customerId, managingOrganizationIds: b.managingOrganizationIds, tours: facts, tourIds }];
    }),
  );
}
