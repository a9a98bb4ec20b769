// Tours SQL: tours and tour visibility. Handle and tenant id first.
import { and, asc, desc, eq, inArray, lt, lte, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { Queryable } from '../../../db/client.ts';
import { oneRow } from '../../../db/json-read.ts';
import { stops, tours } from '../tables.ts';

export type TourRow = typeof tours.$inferSelect;

export async function insertTour(q: Queryable, row: typeof tours.$inferInsert): Promise<void> {
  await q.insert(tours).values(row);
}

export async function findTour(q: Queryable, tenantId: string, id: string): Promise<TourRow | null> {
  const [row] = await q.select().from(tours).where(and(eq(tours.tenantId, tenantId), eq(tours.id, id)));
  return row ?? null;
}

/** The tour as a part of another module's combined read (db/json-read.ts): compensation's writes read it with theirs. */
export const tourRead = (tenantId: Placeholder, id: Placeholder) => oneRow(tours, and(eq(tours.tenantId, tenantId), eq(tours.id, id)));

export async function findTourForUpdate(q: Queryable, tenantId: string, id: string): Promise<TourRow | null> {
  const [row] = await q.select().from(tours).where(and(eq(tours.tenantId, tenantId), eq(tours.id, id))).for('update');
  return row ?? null;
}

/**
 * Locks the tour the stop is on, found and locked in one statement. The stop's tour is read when the statement
 * starts: a caller that waited for the lock checks that the stop is still on it.
 */
export async function findTourOfStopForUpdate(q: Queryable, tenantId: string, stopId: string): Promise<TourRow | null> {
  const tourOfStop = q.select({ id: stops.tourId }).from(stops).where(and(eq(stops.tenantId, tenantId), eq(stops.id, stopId)));
  const [row] = await q.select().from(tours).where(and(eq(tours.tenantId, tenantId), eq(tours.id, sql`(${tourOfStop})`))).for('update');
  return row ?? null;
}

export async function findTours(q: Queryable, tenantId: string, ids: string[]): Promise<TourRow[]> {
  if (!ids.length) return [];
  return q.select().from(tours).where(and(eq(tours.tenantId, tenantId), inArray(tours.id, ids)));
}

/** Locks in id order so that writers touching several tours never deadlock. */
export async function findToursForUpdate(q: Queryable, tenantId: string, ids: string[]): Promise<TourRow[]> {
  if (!ids.length) return [];
  return q
    .select()
    .from(tours)
    .where(and(eq(tours.tenantId, tenantId), inArray(tours.id, ids)))
    .orderBy(asc(tours.id))
    .for('update');
}

export async function findEnRouteTourOfDriver(q: Queryable, tenantId: string, driverId: string): Promise<TourRow | null> {
  const [row] = await q
    .select()
    .from(tours)
    .where(and(eq(tours.tenantId, tenantId), eq(tours.driverId, driverId), eq(tours.status, 'en_route')))
    .limit(1);
  return row ?? null;
}

export async function updateTour(q: Queryable, tenantId: string, id: string, patch: Partial<Omit<TourRow, 'tenantId' | 'id'>>): Promise<void> {
  await q.update(tours).set(patch).where(and(eq(tours.tenantId, tenantId), eq(tours.id, id)));
}

/** Claimed tours whose claim window has passed (the expiry job re-checks each under a row lock). */
export async function findExpiredClaims(q: Queryable, tenantId: string, now: Date): Promise<TourRow[]> {
  return q
    .select()
    .from(tours)
    .where(and(eq(tours.tenantId, tenantId), eq(tours.status, 'claimed'), lte(tours.claimExpiresAt, now)));
}

/** Per service area: tours waiting for or held by a driver, and drivers under way (busyness, docs/api-guide.md "Events and webhooks"). */
export async function countOpenToursAndBusyDrivers(q: Queryable, tenantId: string): Promise<{ serviceAreaId: string; openTours: number; busyDrivers: number }[]> {
  const rows = await q
    .select({
      serviceAreaId: tours.serviceAreaId,
      openTours: sql<number>`count(*) FILTER (WHERE ${tours.status} IN ('scheduled', 'pickable', 'claimed'))::int`,
      busyDrivers: sql<number>`count(DISTINCT ${tours.driverId}) FILTER (WHERE ${tours.status} = 'en_route')::int`,
    })
    .from(tours)
    .where(and(eq(tours.tenantId, tenantId), inArray(tours.status, ['scheduled', 'pickable', 'claimed', 'en_route'])))
    .groupBy(tours.serviceAreaId);
  return rows;
}

export interface TourListQuery {
  /** Managers: tours one of these organizations sees (tour_visibility). */
  visibleToOrganizationIds?: string[];
  /** Drivers: tours the driver is on, and waiting tours it is eligible for (visibility.ts isEligibleDriver, in SQL). */
  driver?: { id: string; organizationIds: string[] };
  statuses?: string[];
  serviceAreaId?: string;
  beforeId: string | null;
  limit: number;
}

/** Newest first on the UUIDv7 id (keyset); fetches limit + 1 rows. */
export async function listTours(q: Queryable, tenantId: string, query: TourListQuery): Promise<TourRow[]> {
  const conditions: SQL[] = [eq(tours.tenantId, tenantId)];
  if (query.visibleToOrganizationIds) {
    if (!query.visibleToOrganizationIds.length) return [];
    const orgs = sql.join(query.visibleToOrganizationIds.map((id) => sql`${id}::uuid`), sql`, `);
    conditions.push(sql`EXISTS (SELECT 1 FROM tour_visibility v WHERE v.tenant_id = ${tours.tenantId}
                                   AND v.organization_id IN (${orgs}) AND v.tour_id = ${tours.id})`);
  }
  if (query.driver) {
    const orgs = sql`ARRAY[${sql.join(query.driver.organizationIds.map((id) => sql`${id}::uuid`), sql`, `)}]::uuid[]`;
    conditions.push(sql`(${tours.driverId} = ${query.driver.id} OR (
      ${tours.driverId} IS NULL AND ${tours.status} IN ('scheduled', 'pickable')
      AND (cardinality(${tours.managingOrganizationIds}) = 0 OR ${tours.managingOrganizationIds} && ${orgs})
      AND (cardinality(${tours.preferredDriverIds}) = 0 OR ${query.driver.id}::uuid = ANY(${tours.preferredDriverIds}))))`);
  }
  if (query.statuses?.length) conditions.push(inArray(tours.status, query.statuses as TourRow['status'][]));
  if (query.serviceAreaId) conditions.push(eq(tours.serviceAreaId, query.serviceAreaId));
  if (query.beforeId) conditions.push(lt(tours.id, query.beforeId));
  return q
    .select()
    .from(tours)
    .where(and(...conditions))
    .orderBy(desc(tours.id))
    .limit(query.limit + 1);
}

/** The open tours of a service in the given statuses: auto-dispatch's candidates (decision 1350). */
export async function findOpenToursOfService(q: Queryable, tenantId: string, serviceId: string, statuses: readonly TourRow['status'][]): Promise<TourRow[]> {
  return q
    .select()
    .from(tours)
    .where(and(eq(tours.tenantId, tenantId), inArray(tours.status, [...statuses]), eq(tours.serviceId, serviceId)))
    .orderBy(asc(tours.id));
}

/** The tours these drivers hold in the given statuses (a plan's running tours, decision 1303), by id. */
export async function findToursOfDrivers(q: Queryable, tenantId: string, driverIds: readonly string[], statuses: readonly TourRow['status'][]): Promise<TourRow[]> {
  if (!driverIds.length) return [];
  return q
    .select()
    .from(tours)
    .where(and(eq(tours.tenantId, tenantId), inArray(tours.driverId, [...driverIds]), inArray(tours.status, [...statuses])))
    .orderBy(asc(tours.id));
}
