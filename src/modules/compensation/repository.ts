// Compensation SQL: components per tour, history, tip outcomes. Handle and tenant id first.
import { and, asc, eq, inArray, sql, type Placeholder } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { firstRow, oneRow, readTogether, rowFromJson, type JsonPart } from '../../db/json-read.ts';
import { prepareSql, runPrepared } from '../../db/prepared.ts';
import { tourRead, type TourRow } from '../dispatch/index.ts';
import type { Bonus, Labelled } from './compensation-total.ts';
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

/** The tour (for the caller's visibility) and its compensation row, unlocked, in one statement (decision 0606). */
export function findTourAndCompensation(q: Queryable, tenantId: string, tourId: string): Promise<{ tour: TourRow | null; row: CompensationRow | null }> {
  const [tenant, tour] = [sql.placeholder('tenantId'), sql.placeholder('tourId')];
  return readTogether(
    q,
    'compensation_tour_and_row',
    { tour: tourRead(tenant, tour), row: oneRow(tourCompensations, and(eq(tourCompensations.tenantId, tenant), eq(tourCompensations.tourId, tour))) },
    { tenantId, tourId },
  );
}

/** What one write changes: the components it read (`was`), what they become, its history entry, its debounced job. */
export interface ComponentsWrite {
  tenantId: string;
  tourId: string;
  was: Pick<CompensationRow, 'baseAmount' | 'baseLabel' | 'bonuses' | 'tipsAmount'>;
  now: Pick<CompensationRow, 'baseAmount' | 'baseLabel' | 'bonuses' | 'tipsAmount'> & { updatedAt: Date };
  history: { id: string; at: Date; actorId: string | null; component: 'base' | 'bonus' | 'tips'; key: string | null; from: Labelled | null; to: Labelled | null };
  /** The upsert of worker/jobs.ts scheduleJob: a pending job with the same dedupe key has its due time moved. */
  job: { id: string; kind: string; dedupeKey: string; payload: Record<string, unknown>; dueAt: Date; now: Date };
}

const p = (name: string) => sql.placeholder(name);
const WRITE_COMPONENTS = sql`
  WITH written AS (
    UPDATE tour_compensations
       SET base_amount = ${p('baseAmount')}::int, base_label = ${p('baseLabel')}::text, bonuses = ${p('bonuses')}::text::jsonb,
           tips_amount = ${p('tipsAmount')}::int, updated_at = ${p('updatedAt')}::timestamptz
     WHERE tenant_id = ${p('tenantId')}::uuid AND tour_id = ${p('tourId')}::uuid
       AND base_amount IS NOT DISTINCT FROM ${p('wasBaseAmount')}::int AND base_label IS NOT DISTINCT FROM ${p('wasBaseLabel')}::text
       AND bonuses = ${p('wasBonuses')}::text::jsonb AND tips_amount = ${p('wasTipsAmount')}::int
    RETURNING *
  ), history AS (
    INSERT INTO compensation_history (tenant_id, id, tour_id, at, actor_id, component, key, "from", "to")
    SELECT tenant_id, ${p('historyId')}::uuid, tour_id, ${p('historyAt')}::timestamptz, ${p('actorId')}::uuid, ${p('component')}::text,
           ${p('key')}::text, ${p('from')}::text::jsonb, ${p('to')}::text::jsonb
      FROM written
  ), job AS (
    INSERT INTO jobs (tenant_id, id, kind, dedupe_key, payload, status, due_at, created_at, updated_at)
    SELECT tenant_id, ${p('jobId')}::uuid, ${p('jobKind')}::text, ${p('dedupeKey')}::text, ${p('payload')}::text::jsonb, 'pending',
           ${p('dueAt')}::timestamptz, ${p('jobAt')}::timestamptz, ${p('jobAt')}::timestamptz
      FROM written
    ON CONFLICT (tenant_id, kind, dedupe_key) WHERE status = 'pending' AND dedupe_key IS NOT NULL
    DO UPDATE SET due_at = excluded.due_at, payload = excluded.payload, updated_at = excluded.updated_at
  )
  SELECT row_to_json(written) AS row FROM written`;

const json = (value: Bonus[] | Labelled | Record<string, unknown> | null) => (value === null ? null : JSON.stringify(value));

/**
 * The write as one statement (decision 0606): the row is updated only while it still holds `was` — a concurrent write
 * that changed it first makes this one update nothing, and then no history entry and no job are written either.
 * Returns the row as written, or null when `was` no longer held.
 */
export async function writeComponents(q: Queryable, w: ComponentsWrite): Promise<CompensationRow | null> {
  const result = await runPrepared(q, 'compensation_write', (q) => prepareSql(q, 'compensation_write', WRITE_COMPONENTS), {
    tenantId: w.tenantId,
    tourId: w.tourId,
    wasBaseAmount: w.was.baseAmount,
    wasBaseLabel: w.was.baseLabel,
    wasBonuses: json(w.was.bonuses),
    wasTipsAmount: w.was.tipsAmount,
    baseAmount: w.now.baseAmount,
    baseLabel: w.now.baseLabel,
    bonuses: json(w.now.bonuses),
    tipsAmount: w.now.tipsAmount,
    updatedAt: w.now.updatedAt.toISOString(),
    historyId: w.history.id,
    historyAt: w.history.at.toISOString(),
    actorId: w.history.actorId,
    component: w.history.component,
    key: w.history.key,
    from: json(w.history.from),
    to: json(w.history.to),
    jobId: w.job.id,
    jobKind: w.job.kind,
    dedupeKey: w.job.dedupeKey,
    payload: json(w.job.payload),
    dueAt: w.job.dueAt.toISOString(),
    jobAt: w.job.now.toISOString(),
  });
  const written = firstRow<{ row: Record<string, unknown> }>(result);
  return written ? rowFromJson(tourCompensations, written.row) : null;
}

export async function updateCompensation(q: Queryable, tenantId: string, tourId: string, patch: Partial<Omit<CompensationRow, 'tenantId' | 'tourId'>>): Promise<void> {
  await q.update(tourCompensations).set(patch).where(and(eq(tourCompensations.tenantId, tenantId), eq(tourCompensations.tourId, tourId)));
}

/** Oldest first: ids are UUIDv7, so id order is insertion order. */
export async function listHistory(q: Queryable, tenantId: string, tourId: string): Promise<HistoryRow[]> {
  return q
    .select()
    .from(compensationHistory)
    .where(and(eq(compensationHistory.tenantId, tenantId), eq(compensationHistory.tourId, tourId)))
    .orderBy(asc(compensationHistory.id));
}

/** Prepared: every booking read renders `tip_distribution`, so this runs once per booking GET and list page. */
export async function findTipOutcomes(q: Queryable, tenantId: string, bookingIds: string[]): Promise<TipOutcomeRow[]> {
  if (!bookingIds.length) return [];
  return runPrepared(
    q,
    'find_tip_outcomes',
    (q) =>
      q
        .select()
        .from(tipOutcomes)
        .where(and(eq(tipOutcomes.tenantId, sql.placeholder('tenantId')), sql`${tipOutcomes.bookingId} = ANY(${sql.placeholder('ids')}::uuid[])`))
        .prepare('find_tip_outcomes'),
    { tenantId, ids: bookingIds },
  );
}

/**
 * A booking's outcome as a part of another module's read (the booking read's placeholders): the database function
 * tip_outcome_of (migration 0012), whose plan is kept per server connection (decision 1452).
 */
export const tipOutcomeRead = (tenantId: Placeholder, bookingId: Placeholder): JsonPart<TipOutcomeRow | null> => ({
  sql: sql`tip_outcome_of(p_tenant_id => ${tenantId}, p_booking_id => ${bookingId})`,
  decode: (json) => (json ? rowFromJson(tipOutcomes, json as Record<string, unknown>) : null),
});

/** Bookings whose last outcome names the tour (awarded, paused or waiting for it). */
export async function bookingIdsNamingTours(q: Queryable, tenantId: string, tourIds: string[]): Promise<string[]> {
  if (!tourIds.length) return [];
  const rows = await q
    .select({ bookingId: tipOutcomes.bookingId })
    .from(tipOutcomes)
    .where(and(eq(tipOutcomes.tenantId, tenantId), inArray(tipOutcomes.tourId, tourIds)));
  return rows.map((r) => r.bookingId);
}

/**
 * The bookings' tip outcome rows, locked in booking id order, as they are before this evaluation (decision 0607). A
 * booking never evaluated gets its row here, as a placeholder the evaluation overwrites in the same transaction (so
 * no one else ever sees it): two first evaluations of a booking insert-or-nothing, then queue on the same row lock.
 */
export async function lockTipOutcomes(q: Queryable, tenantId: string, bookingIds: string[], now: Date): Promise<TipOutcomeRow[]> {
  if (!bookingIds.length) return [];
  const sorted = [...bookingIds].sort();
  await q
    .insert(tipOutcomes)
    .values(sorted.map((bookingId) => ({ tenantId, bookingId, tourId: null, status: 'pending' as const, reason: 'dropoffs_unresolved' as const, amount: 0, evaluatedAt: now })))
    .onConflictDoNothing();
  return q
    .select()
    .from(tipOutcomes)
    .where(and(eq(tipOutcomes.tenantId, tenantId), inArray(tipOutcomes.bookingId, sorted)))
    .orderBy(asc(tipOutcomes.bookingId))
    .for('update');
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
