// Places SQL. Every function takes the handle and the tenant id first.
import { and, desc, eq, lt, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { rowFromJson, type JsonPart } from '../../db/json-read.ts';
import { runPrepared } from '../../db/prepared.ts';
import { places } from './tables.ts';

export type PlaceRow = typeof places.$inferSelect;

/** `customerId` set: only that customer's place (customers see their own places only). */
export async function findPlace(q: Queryable, tenantId: string, id: string, customerId: string | null = null): Promise<PlaceRow | null> {
  const conditions = [eq(places.tenantId, tenantId), eq(places.id, id)];
  if (customerId) conditions.push(eq(places.customerId, customerId));
  const [row] = await q.select().from(places).where(and(...conditions));
  return row ?? null;
}

export async function findPlaceForUpdate(q: Queryable, tenantId: string, id: string, customerId: string | null): Promise<PlaceRow | null> {
  const conditions = [eq(places.tenantId, tenantId), eq(places.id, id)];
  if (customerId) conditions.push(eq(places.customerId, customerId));
  const [row] = await q.select().from(places).where(and(...conditions)).for('update');
  return row ?? null;
}

/**
 * Places by id as one part of a combined read (see db/json-read.ts); ids of no place of the tenant are left out. The
 * database function places_of (migration 0014) reads them: its plan is kept per server connection (decision 1453).
 */
export const placesRead = (tenantId: Placeholder, ids: Placeholder): JsonPart<PlaceRow[]> => ({
  sql: sql`places_of(p_tenant_id => ${tenantId}, p_ids => ${ids}::uuid[])`,
  decode: (json) => (json as Record<string, unknown>[]).map((row) => rowFromJson(places, row)),
});

export async function findPlaces(q: Queryable, tenantId: string, ids: string[]): Promise<PlaceRow[]> {
  if (!ids.length) return [];
  return runPrepared(
    q,
    'find_places',
    (q) =>
      q
        .select()
        .from(places)
        .where(and(eq(places.tenantId, sql.placeholder('tenantId')), sql`${places.id} = ANY(${sql.placeholder('ids')}::uuid[])`))
        .prepare('find_places'),
    { tenantId, ids },
  );
}

export interface PlaceListQuery {
  customerId?: string | undefined;
  serviceAreaId?: string | undefined;
  isHub?: boolean | undefined;
  afterId: string | null;
  limit: number;
}

/** Newest first (UUIDv7 ids grow with time); fetches limit + 1 rows for the page's has_more. */
export async function listPlaces(q: Queryable, tenantId: string, query: PlaceListQuery): Promise<PlaceRow[]> {
  const conditions: SQL[] = [eq(places.tenantId, tenantId)];
  if (query.customerId) conditions.push(eq(places.customerId, query.customerId));
  if (query.serviceAreaId) conditions.push(eq(places.serviceAreaId, query.serviceAreaId));
  if (query.isHub !== undefined) conditions.push(eq(places.isHub, query.isHub));
  if (query.afterId) conditions.push(lt(places.id, query.afterId));
  return q
    .select()
    .from(places)
    .where(and(...conditions))
    .orderBy(desc(places.id))
    .limit(query.limit + 1);
}

export async function insertPlace(q: Queryable, row: typeof places.$inferInsert): Promise<void> {
  await q.insert(places).values(row);
}

export async function updatePlace(
  q: Queryable,
  tenantId: string,
  id: string,
  patch: Partial<Omit<PlaceRow, 'tenantId' | 'id' | 'createdAt'>>,
): Promise<void> {
  if (!Object.keys(patch).length) return;
  await q.update(places).set(patch).where(and(eq(places.tenantId, tenantId), eq(places.id, id)));
}

export async function deletePlace(q: Queryable, tenantId: string, id: string): Promise<void> {
  await q.delete(places).where(and(eq(places.tenantId, tenantId), eq(places.id, id)));
}

/** Ids of the places in a service area, for busyness events (one per place of the area). */
export async function placeIdsInServiceArea(q: Queryable, tenantId: string, serviceAreaId: string): Promise<string[]> {
  const rows = await q
    .select({ id: places.id })
    .from(places)
    .where(and(eq(places.tenantId, tenantId), eq(places.serviceAreaId, serviceAreaId)))
    .orderBy(places.id);
  return rows.map((row) => row.id);
}

/**
 * Inserts the place unless the tenant already has one with its address key in the same customer scope (the unique
 * index places_address_key_idx, decision 1505); returns false then. A concurrent insert of the same key waits for the
 * other transaction and then does nothing — no read-then-write race.
 */
export async function insertPlaceUnlessExists(q: Queryable, row: typeof places.$inferInsert): Promise<boolean> {
  const inserted = await q
    .insert(places)
    .values(row)
    .onConflictDoNothing({ target: [places.tenantId, places.customerId, places.addressKey], where: sql`${places.addressKey} IS NOT NULL` })
    .returning({ id: places.id });
  return inserted.length > 0;
}

/** The place holding the address key in the customer scope (null customer: the tenant's places without a customer). */
export async function findPlaceByAddressKey(q: Queryable, tenantId: string, customerId: string | null, key: string): Promise<PlaceRow | null> {
  const [row] = await q
    .select()
    .from(places)
    .where(and(eq(places.tenantId, tenantId), customerId ? eq(places.customerId, customerId) : sql`${places.customerId} IS NULL`, eq(places.addressKey, key)));
  return row ?? null;
}

/** Places whose address key is not computed yet (rows older than migration 0015), oldest first, after a cursor. */
export async function placesWithoutAddressKey(q: Queryable, after: { tenantId: string; id: string } | null, limit: number): Promise<PlaceRow[]> {
  const cursor = after ? sql`AND (${places.tenantId}, ${places.id}) > (${after.tenantId}, ${after.id})` : sql``;
  return q
    .select()
    .from(places)
    .where(sql`${places.addressKey} IS NULL ${cursor}`)
    .orderBy(places.tenantId, places.id)
    .limit(limit);
}
