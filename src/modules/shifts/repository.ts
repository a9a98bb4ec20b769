// Shifts SQL. Every function takes the handle and the tenant id first.
import { and, asc, eq, gt, inArray, lt, or, sql, type SQL } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { driverShifts } from './tables.ts';

export type ShiftRow = typeof driverShifts.$inferSelect;

/**
 * Serializes writes of one driver's shifts until the transaction ends, so an overlap check and the write it allows are
 * one step: two requests adding overlapping shifts cannot both find the other absent. An advisory lock, because the
 * row to lock may not exist yet (decision 1300).
 */
export async function lockDriverShifts(q: Queryable, tenantId: string, driverId: string): Promise<void> {
  await q.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${`driver_shifts:${tenantId}:${driverId}`}, 0))`);
}

export async function findShift(q: Queryable, tenantId: string, id: string): Promise<ShiftRow | null> {
  const [row] = await q.select().from(driverShifts).where(and(eq(driverShifts.tenantId, tenantId), eq(driverShifts.id, id)));
  return row ?? null;
}

/** These shifts, by start (ids not found are absent). */
export async function findShifts(q: Queryable, tenantId: string, ids: readonly string[]): Promise<ShiftRow[]> {
  if (!ids.length) return [];
  return q
    .select()
    .from(driverShifts)
    .where(and(eq(driverShifts.tenantId, tenantId), inArray(driverShifts.id, [...ids])))
    .orderBy(asc(driverShifts.startsAt), asc(driverShifts.id));
}

/** The driver's shifts that overlap [from, to), except `exceptId`. */
export async function findOverlapping(q: Queryable, tenantId: string, driverId: string, from: Date, to: Date, exceptId: string | null = null): Promise<ShiftRow[]> {
  const conditions: SQL[] = [eq(driverShifts.tenantId, tenantId), eq(driverShifts.driverId, driverId), lt(driverShifts.startsAt, to), gt(driverShifts.endsAt, from)];
  if (exceptId) conditions.push(sql`${driverShifts.id} <> ${exceptId}`);
  return q.select().from(driverShifts).where(and(...conditions)).orderBy(asc(driverShifts.startsAt));
}

/** The shifts of several drivers that overlap [from, to), by start. */
export async function findShiftsOfDrivers(q: Queryable, tenantId: string, driverIds: readonly string[], from: Date, to: Date): Promise<ShiftRow[]> {
  if (!driverIds.length) return [];
  return q
    .select()
    .from(driverShifts)
    .where(and(eq(driverShifts.tenantId, tenantId), inArray(driverShifts.driverId, [...driverIds]), lt(driverShifts.startsAt, to), gt(driverShifts.endsAt, from)))
    .orderBy(asc(driverShifts.startsAt), asc(driverShifts.id));
}

export interface ShiftListQuery {
  driverId: string;
  from?: Date | undefined;
  to?: Date | undefined;
  after: [Date, string] | null;
  limit: number;
}

/** Earliest first (a day's plan reads in order); fetches limit + 1 rows for the page's has_more. */
export async function listShifts(q: Queryable, tenantId: string, query: ShiftListQuery): Promise<ShiftRow[]> {
  const conditions: (SQL | undefined)[] = [eq(driverShifts.tenantId, tenantId), eq(driverShifts.driverId, query.driverId)];
  if (query.from) conditions.push(gt(driverShifts.endsAt, query.from));
  if (query.to) conditions.push(lt(driverShifts.startsAt, query.to));
  if (query.after) {
    const [at, id] = query.after;
    conditions.push(or(gt(driverShifts.startsAt, at), and(eq(driverShifts.startsAt, at), gt(driverShifts.id, id))));
  }
  return q
    .select()
    .from(driverShifts)
    .where(and(...conditions))
    .orderBy(asc(driverShifts.startsAt), asc(driverShifts.id))
    .limit(query.limit + 1);
}

export async function insertShift(q: Queryable, row: typeof driverShifts.$inferInsert): Promise<void> {
  await q.insert(driverShifts).values(row);
}

export async function updateShift(q: Queryable, tenantId: string, id: string, patch: Partial<Omit<ShiftRow, 'tenantId' | 'id' | 'driverId' | 'createdAt'>>): Promise<void> {
  await q.update(driverShifts).set(patch).where(and(eq(driverShifts.tenantId, tenantId), eq(driverShifts.id, id)));
}

export async function deleteShift(q: Queryable, tenantId: string, id: string): Promise<void> {
  await q.delete(driverShifts).where(and(eq(driverShifts.tenantId, tenantId), eq(driverShifts.id, id)));
}
