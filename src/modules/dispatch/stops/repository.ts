// Stops SQL: stops of bookings and tours, and which tours and bookings they join. Handle and tenant id first.
import { and, asc, eq, gte, inArray, isNotNull, notInArray, sql } from 'drizzle-orm';
import type { Queryable } from '../../../db/client.ts';
import { FINAL_STOP_STATUSES } from '../../../shared/domain-constants.ts';
import { stops, tours, type RecipientInstructions, type TourStatus } from '../tables.ts';

export type StopRow = typeof stops.$inferSelect;

export async function insertStops(q: Queryable, rows: (typeof stops.$inferInsert)[]): Promise<StopRow[]> {
  return rows.length ? q.insert(stops).values(rows).returning() : [];
}

export async function findStop(q: Queryable, tenantId: string, id: string): Promise<StopRow | null> {
  const [row] = await q.select().from(stops).where(and(eq(stops.tenantId, tenantId), eq(stops.id, id)));
  return row ?? null;
}

export async function findStops(q: Queryable, tenantId: string, ids: string[]): Promise<StopRow[]> {
  if (!ids.length) return [];
  return q.select().from(stops).where(and(eq(stops.tenantId, tenantId), inArray(stops.id, ids)));
}

export async function findStopsOfBookings(q: Queryable, tenantId: string, bookingIds: string[]): Promise<StopRow[]> {
  if (!bookingIds.length) return [];
  return q
    .select()
    .from(stops)
    .where(and(eq(stops.tenantId, tenantId), inArray(stops.bookingId, bookingIds)))
    .orderBy(asc(stops.bookingId), asc(stops.position));
}

export async function findStopsOfTours(q: Queryable, tenantId: string, tourIds: string[]): Promise<StopRow[]> {
  if (!tourIds.length) return [];
  return q
    .select()
    .from(stops)
    .where(and(eq(stops.tenantId, tenantId), inArray(stops.tourId, tourIds)))
    .orderBy(asc(stops.tourId), asc(stops.tourPosition));
}

export async function updateStop(q: Queryable, tenantId: string, id: string, patch: Partial<Omit<StopRow, 'tenantId' | 'id'>>): Promise<void> {
  await q.update(stops).set(patch).where(and(eq(stops.tenantId, tenantId), eq(stops.id, id)));
}

/**
 * The recipient's instructions on those of `ids` still open, in one statement (decision 1788): the status is checked by
 * the update itself, so a stop completed meanwhile keeps what its driver read. The ids written.
 */
export async function setRecipientInstructions(q: Queryable, tenantId: string, ids: readonly string[], instructions: RecipientInstructions, at: Date): Promise<string[]> {
  if (!ids.length) return [];
  const rows = await q
    .update(stops)
    .set({ recipientInstructions: instructions, updatedAt: at })
    .where(and(eq(stops.tenantId, tenantId), inArray(stops.id, [...ids]), notInArray(stops.status, [...FINAL_STOP_STATUSES])))
    .returning({ id: stops.id });
  return rows.map((r) => r.id);
}

/**
 * Makes room on a tour: every stop at `fromPosition` or later moves one place back, in one statement. The one
 * place tour positions shift (a custom tour stop, a recovery stop right after the failed one); `updated_at`
 * moves with the position, as when dispatch lays a tour out.
 */
export async function shiftStopsOnTour(q: Queryable, tenantId: string, tourId: string, fromPosition: number, at: Date): Promise<void> {
  await q
    .update(stops)
    .set({ tourPosition: sql`${stops.tourPosition} + 1`, updatedAt: at })
    .where(and(eq(stops.tenantId, tenantId), eq(stops.tourId, tourId), gte(stops.tourPosition, fromPosition)));
}

/** Many stops' tour positions in one statement (a tour the optimiser reordered: every position may change). */
export async function setTourPositions(q: Queryable, tenantId: string, positions: readonly { id: string; position: number }[], at: Date): Promise<void> {
  if (!positions.length) return;
  const cases = sql.join(positions.map((p) => sql`WHEN ${p.id}::uuid THEN ${p.position}::int`), sql` `);
  await q
    .update(stops)
    .set({ tourPosition: sql`CASE ${stops.id} ${cases} END`, updatedAt: at })
    .where(and(eq(stops.tenantId, tenantId), inArray(stops.id, positions.map((p) => p.id))));
}

/** Tour ids holding stops of these bookings. */
export async function tourIdsOfBookings(q: Queryable, tenantId: string, bookingIds: string[]): Promise<string[]> {
  if (!bookingIds.length) return [];
  const rows = await q
    .selectDistinct({ tourId: stops.tourId })
    .from(stops)
    .where(and(eq(stops.tenantId, tenantId), inArray(stops.bookingId, bookingIds), isNotNull(stops.tourId)));
  return rows.map((r) => r.tourId).filter((id): id is string => id !== null);
}

export async function bookingIdsOfTours(q: Queryable, tenantId: string, tourIds: string[]): Promise<string[]> {
  if (!tourIds.length) return [];
  const rows = await q
    .selectDistinct({ bookingId: stops.bookingId })
    .from(stops)
    .where(and(eq(stops.tenantId, tenantId), inArray(stops.tourId, tourIds), isNotNull(stops.bookingId)));
  return rows.map((r) => r.bookingId).filter((id): id is string => id !== null);
}

/** What auto-dispatch's fit check reads of a stop (decision 1350): no more, so 1,000 stops decode quickly. */
export const fitColumns = {
  id: stops.id,
  bookingId: stops.bookingId,
  tourId: stops.tourId,
  tourPosition: stops.tourPosition,
  type: stops.type,
  status: stops.status,
  lat: stops.lat,
  lng: stops.lng,
  timeWindowStartsAt: stops.timeWindowStartsAt,
  timeWindowEndsAt: stops.timeWindowEndsAt,
  serviceDurationSeconds: stops.serviceDurationSeconds,
};
export type FitStopRow = { [K in keyof typeof fitColumns]: StopRow[K] };

/** The stops of a service's tours in the given statuses, in tour order: auto-dispatch's search, in one statement. */
export async function findFitStopsOfOpenTours(q: Queryable, tenantId: string, serviceId: string, statuses: readonly TourStatus[]): Promise<FitStopRow[]> {
  return q
    .select(fitColumns)
    .from(stops)
    .innerJoin(tours, and(eq(tours.tenantId, stops.tenantId), eq(tours.id, stops.tourId)))
    .where(and(eq(stops.tenantId, tenantId), eq(tours.serviceId, serviceId), inArray(tours.status, [...statuses])))
    .orderBy(asc(stops.tourId), asc(stops.tourPosition));
}
