// Compensation SQL: components per tour, history, tip outcomes. Handle and tenant id first.
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { compensationHistory, tipOutcomes, tourCompensations } from './tables.ts';

export type CompensationRow = typeof tourCompensations.$inferSelect;
export type HistoryRow = typeof compensationHistory.$inferSelect;
export type TipOutcomeRow = typeof tipOutcomes.$inferSelect;

export async function findCompensation(q: Queryable, tenantId: string, tourId: string): Promise<CompensationRow | null> {
  const [row] = await q.select().from(tourCompensations).where(and(eq(tourCompensations.tenantId, tenantId), eq(tourCompensations.tourId, tourId)));
  return row ?? null;
}

/** The tour's compensation row, locked; null when the tour was never written to. */
export async function findCompensationForUpdate(q: Queryable, tenantId: string, tourId: string): Promise<CompensationRow | null> {
  const [row] = await q
    .select()
    .from(tourCompensations)
    .where(and(eq(tourCompensations.tenantId, tenantId), eq(tourCompensations.tourId, tourId)))
    .for('update');
  return row ?? null;
}

export interface NewCompensation {
  tourId: string;
  serviceAreaId: string;
  currency: string;
  now: Date;
}

/**
 * The tours' compensation rows, made when absent and locked, in tour id order so that writers touching several tours
 * never deadlock. Two first writers both insert-or-nothing, then queue on the same row lock.
 */
export async function lockCompensations(q: Queryable, tenantId: string, rows: NewCompensation[]): Promise<CompensationRow[]> {
  if (!rows.length) return [];
  const sorted = [...rows].sort((a, b) => (a.tourId < b.tourId ? -1 : 1));
  await q
    .insert(tourCompensations)
    .values(sorted.map((r) => ({ tenantId, tourId: r.tourId, serviceAreaId: r.serviceAreaId, currency: r.currency, createdAt: r.now })))
    .onConflictDoNothing();
  return q
    .select()
    .from(tourCompensations)
    .where(and(eq(tourCompensations.tenantId, tenantId), inArray(tourCompensations.tourId, sorted.map((r) => r.tourId))))
    .orderBy(asc(tourCompensations.tourId))
    .for('update');
}

export async function updateCompensation(q: Queryable, tenantId: string, tourId: string, patch: Partial<Omit<CompensationRow, 'tenantId' | 'tourId'>>): Promise<void> {
  await q.update(tourCompensations).set(patch).where(and(eq(tourCompensations.tenantId, tenantId), eq(tourCompensations.tourId, tourId)));
}

export async function insertHistory(q: Queryable, rows: (typeof compensationHistory.$inferInsert)[]): Promise<void> {
  if (rows.length) await q.insert(compensationHistory).values(rows);
}

/** Oldest first: ids are UUIDv7, so id order is insertion order. */
export async function listHistory(q: Queryable, tenantId: string, tourId: string): Promise<HistoryRow[]> {
  return q
    .select()
    .from(compensationHistory)
    .where(and(eq(compensationHistory.tenantId, tenantId), eq(compensationHistory.tourId, tourId)))
    .orderBy(asc(compensationHistory.id));
}

export async function findTipOutcomes(q: Queryable, tenantId: string, bookingIds: string[]): Promise<TipOutcomeRow[]> {
  if (!bookingIds.length) return [];
  return q.select().from(tipOutcomes).where(and(eq(tipOutcomes.tenantId, tenantId), inArray(tipOutcomes.bookingId, bookingIds)));
}

/** Bookings whose last outcome names the tour (awarded, paused or waiting for it). */
export async function bookingIdsNamingTours(q: Queryable, tenantId: string, tourIds: string[]): Promise<string[]> {
  if (!tourIds.length) return [];
  const rows = await q
    .select({ bookingId: tipOutcomes.bookingId })
    .from(tipOutcomes)
    .where(and(eq(tipOutcomes.tenantId, tenantId), inArray(tipOutcomes.tourId, tourIds)));
  return rows.map((r) => r.bookingId);
}

export async function findTipOutcomesOfTours(q: Queryable, tenantId: string, tourIds: string[]): Promise<TipOutcomeRow[]> {
  if (!tourIds.length) return [];
  return q.select().from(tipOutcomes).where(and(eq(tipOutcomes.tenantId, tenantId), inArray(tipOutcomes.tourId, tourIds)));
}

export async function upsertTipOutcomes(q: Queryable, rows: (typeof tipOutcomes.$inferInsert)[]): Promise<void> {
  if (!rows.length) return;
  await q
    .insert(tipOutcomes)
    .values(rows)
    .onConflictDoUpdate({
      target: [tipOutcomes.tenantId, tipOutcomes.bookingId],
      set: {
        tourId: sql`excluded.tour_id`,
        status: sql`excluded.status`,
        reason: sql`excluded.reason`,
        amount: sql`excluded.amount`,
        evaluatedAt: sql`excluded.evaluated_at`,
      },
    });
}
