// Live tracking SQL: positions, the per-tour tracking row (the lock of every ETA update), stop ETAs, tickets.
import { and, desc, eq, inArray, isNull, lt, gt, notInArray, sql, type SQL } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import type { StopEta, TravelSource } from '../../seams/index.ts';
import type { JsonPart } from '../../db/json-read.ts';
import { runPrepared } from '../../db/prepared.ts';
import { queryRows } from '../../db/sql.ts';
import { driverPositions, liveTickets, stopEtaSamples, stopEtas, tourTracking } from './tables.ts';

export type PositionRow = typeof driverPositions.$inferSelect;
export type TrackingRow = typeof tourTracking.$inferSelect;

export async function insertPosition(q: Queryable, row: PositionRow): Promise<void> {
  await q.insert(driverPositions).values(row);
}

/** Newest first; `beforeId` is the cursor (UUIDv7 ids grow with arrival). Fetches `limit + 1` for has_more. */
export async function listPositions(q: Queryable, tenantId: string, tourId: string, beforeId: string | null, limit: number): Promise<PositionRow[]> {
  return q
    .select()
    .from(driverPositions)
    .where(and(eq(driverPositions.tenantId, tenantId), eq(driverPositions.tourId, tourId), beforeId ? lt(driverPositions.id, beforeId) : undefined))
    .orderBy(desc(driverPositions.id))
    .limit(limit + 1);
}

/** Deletes up to `limit` positions received before `cutoff`; returns how many went. */
export async function deletePositionsBefore(q: Queryable, cutoff: Date, limit: number): Promise<number> {
  const rows = await queryRows<{ id: string }>(
    q,
    sql`DELETE FROM driver_positions WHERE (tenant_id, id) IN (
          SELECT tenant_id, id FROM driver_positions WHERE received_at < ${cutoff} LIMIT ${limit})
        RETURNING id`,
  );
  return rows.length;
}

/**
 * The tour's tracking row, created on first use and locked (FOR UPDATE): positions and stop changes of one tour
 * serialize here, so the ETAs stored are those of the latest position and stop order.
 */
export async function lockTracking(q: Queryable, tenantId: string, tourId: string, init: { serviceAreaId: string; now: Date }): Promise<TrackingRow> {
  // One round trip: an upsert that always returns the row and, like FOR UPDATE, locks it (waiting for a holder).
  const [row] = await q
    .insert(tourTracking)
    .values({ tenantId, tourId, serviceAreaId: init.serviceAreaId, updatedAt: init.now })
    .onConflictDoUpdate({ target: [tourTracking.tenantId, tourTracking.tourId], set: { tenantId: sql`excluded.tenant_id` } })
    .returning();
  if (!row) throw new Error(`tracking row of tour ${tourId} vanished`);
  return row;
}

/** For a new fix, in one round trip after the lock: whether the same fix is stored already, and the ETAs last told. */
export async function fixContext(q: Queryable, tenantId: string, tourId: string, fix: { lat: number; lng: number; recordedAt: Date }) {
  const [row] = await queryRows<{ duplicate: boolean; notified: [string, string | null][] | null }>(
    q,
    sql`SELECT EXISTS (SELECT 1 FROM driver_positions
                        WHERE tenant_id = ${tenantId} AND tour_id = ${tourId} AND recorded_at = ${fix.recordedAt}
                          AND lat = ${fix.lat} AND lng = ${fix.lng}) AS duplicate,
               (SELECT json_agg(json_build_array(stop_id, notified_eta)) FROM stop_etas
                 WHERE tenant_id = ${tenantId} AND tour_id = ${tourId}) AS notified`,
  );
  const told = new Map<string, Date | null>((row?.notified ?? []).map(([id, at]) => [id, at === null ? null : new Date(at)]));
  return { duplicate: row?.duplicate === true, told };
}

/**
 * For a batch of fixes, in one round trip after the lock: the indexes (into `fixes`) of those stored already, and the
 * ETAs last told. The comparison is the single route's (fixContext), made in SQL so the numbers compare as float8.
 */
export async function batchContext(q: Queryable, tenantId: string, tourId: string, fixes: readonly { lat: number; lng: number; recordedAt: Date }[]) {
  const items = JSON.stringify(fixes.map((fix, i) => ({ i, recorded_at: fix.recordedAt.toISOString(), lat: fix.lat, lng: fix.lng })));
  const [row] = await queryRows<{ stored: number[] | null; notified: [string, string | null][] | null }>(
    q,
    sql`SELECT (SELECT json_agg(x.i) FROM json_to_recordset(${items}::json) AS x(i int, recorded_at timestamptz, lat float8, lng float8)
                 WHERE EXISTS (SELECT 1 FROM driver_positions
                                WHERE tenant_id = ${tenantId} AND tour_id = ${tourId} AND recorded_at = x.recorded_at
                                  AND lat = x.lat AND lng = x.lng)) AS stored,
               (SELECT json_agg(json_build_array(stop_id, notified_eta)) FROM stop_etas
                 WHERE tenant_id = ${tenantId} AND tour_id = ${tourId}) AS notified`,
  );
  const told = new Map<string, Date | null>((row?.notified ?? []).map(([id, at]) => [id, at === null ? null : new Date(at)]));
  return { stored: new Set(row?.stored ?? []), told };
}

/** Several positions in one statement (a batch stays far under the 65,535 parameters: 720 rows × 13). */
export async function insertPositions(q: Queryable, rows: readonly PositionRow[]): Promise<void> {
  if (rows.length) await q.insert(driverPositions).values([...rows]);
}

export async function findTracking(q: Queryable, tenantId: string, tourId: string): Promise<TrackingRow | null> {
  const [row] = await q.select().from(tourTracking).where(and(eq(tourTracking.tenantId, tenantId), eq(tourTracking.tourId, tourId)));
  return row ?? null;
}

/**
 * The ETAs of stops (`stopIds`: a uuid[] expression) as one part of a combined read (db/json-read.ts): the recipient's
 * tracking read takes them in the statement that finds its booking.
 */
export const stopEtasRead = (tenantId: SQL, stopIds: SQL): JsonPart<Map<string, Date>> => ({
  sql: sql`(SELECT coalesce(json_agg(json_build_array(${stopEtas.stopId}, ${stopEtas.eta})), '[]'::json) FROM ${stopEtas}
             WHERE ${stopEtas.tenantId} = ${tenantId} AND ${stopEtas.stopId} = ANY (${stopIds}))`,
  decode: (json) => new Map((json as [string, string][]).map(([id, eta]) => [id, new Date(eta)])),
});

/** A tour's current position (the tracking row's) as one part of a combined read; null without one. */
export const currentPositionRead = (tenantId: SQL, tourId: SQL): JsonPart<{ lat: number; lng: number; recordedAt: Date } | null> => ({
  sql: sql`(SELECT json_build_array(${tourTracking.lat}, ${tourTracking.lng}, ${tourTracking.recordedAt}) FROM ${tourTracking}
             WHERE ${tourTracking.tenantId} = ${tenantId} AND ${tourTracking.tourId} = ${tourId}
               AND ${tourTracking.lat} IS NOT NULL AND ${tourTracking.lng} IS NOT NULL AND ${tourTracking.recordedAt} IS NOT NULL)`,
  decode: (json) => {
    if (!json) return null;
    const [lat, lng, recordedAt] = json as [number, number, string];
    return { lat, lng, recordedAt: new Date(recordedAt) };
  },
});

export async function findTrackings(q: Queryable, tenantId: string, tourIds: readonly string[]): Promise<TrackingRow[]> {
  if (!tourIds.length) return [];
  return q.select().from(tourTracking).where(and(eq(tourTracking.tenantId, tenantId), inArray(tourTracking.tourId, [...tourIds])));
}

export async function updateTracking(q: Queryable, tenantId: string, tourId: string, patch: Partial<Omit<TrackingRow, 'tenantId' | 'tourId'>>): Promise<void> {
  await q.update(tourTracking).set(patch).where(and(eq(tourTracking.tenantId, tenantId), eq(tourTracking.tourId, tourId)));
}

/** The ETAs of the tour's stops as last told in an event (null: never told). */
export async function notifiedEtasOfTour(q: Queryable, tenantId: string, tourId: string): Promise<Map<string, Date | null>> {
  const rows = await q
    .select({ stopId: stopEtas.stopId, notifiedEta: stopEtas.notifiedEta })
    .from(stopEtas)
    .where(and(eq(stopEtas.tenantId, tenantId), eq(stopEtas.tourId, tourId)));
  return new Map(rows.map((r) => [r.stopId, r.notifiedEta]));
}

/**
 * The tour's ETAs become exactly `etas`: stops no longer open lose theirs, a stop moved here from another tour moves
 * too. With `notified` they are also what was last told; otherwise what was last told stays. `travelSource` is the
 * source of the matrix that computed them all.
 */
export async function replaceEtas(
  q: Queryable,
  tenantId: string,
  tourId: string,
  etas: ReadonlyMap<string, Date>,
  now: Date,
  notified: boolean,
  previousStopIds: Iterable<string>,
  travelSource: TravelSource,
): Promise<void> {
  const ids = [...etas.keys()];
  // Most updates keep the same open stops: the delete is a round trip only when one left.
  const left = [...previousStopIds].some((id) => !etas.has(id));
  if (left) {
    const gone = [...previousStopIds].filter((id) => !etas.has(id));
    await q
      .delete(stopEtas)
      .where(and(eq(stopEtas.tenantId, tenantId), eq(stopEtas.tourId, tourId), ids.length ? notInArray(stopEtas.stopId, ids) : undefined));
    await pruneEtaSamples(q, tenantId, gone, now);
  }
  if (!ids.length) return;
  await q
    .insert(stopEtaSamples)
    .values(ids.map((stopId) => ({ tenantId, stopId, tourId, publishedAt: minuteOf(now), eta: etas.get(stopId) ?? now })))
    // The minute's sample is the ETA shown at its end.
    .onConflictDoUpdate({ target: [stopEtaSamples.tenantId, stopEtaSamples.stopId, stopEtaSamples.publishedAt], set: { tourId: sql`excluded.tour_id`, eta: sql`excluded.eta` } });
  await q
    .insert(stopEtas)
    .values(ids.map((stopId) => ({ tenantId, stopId, tourId, eta: etas.get(stopId) ?? now, notifiedEta: notified ? (etas.get(stopId) ?? now) : null, computedAt: now, travelSource })))
    .onConflictDoUpdate({
      target: [stopEtas.tenantId, stopEtas.stopId],
      set: {
        tourId: sql`excluded.tour_id`,
        eta: sql`excluded.eta`,
        computedAt: sql`excluded.computed_at`,
        travelSource: sql`excluded.travel_source`,
        ...(notified ? { notifiedEta: sql`excluded.notified_eta` } : {}),
      },
    });
}

/** The minute a sample stands for: at most one sample per stop and minute (decision 1740). */
export const minuteOf = (at: Date): Date => new Date(Math.floor(at.getTime() / 60_000) * 60_000);

/** How long before its arrival a stop's ETA error is measured (contract §17). */
export const ETA_ERROR_LEAD_MS = 30 * 60_000;

/**
 * Keeps of a stop that left its tour's open stops only the samples an arrival by now can still need (decision 1740):
 * the last one shown 30 minutes ago and those since.
 */
async function pruneEtaSamples(q: Queryable, tenantId: string, stopIds: readonly string[], now: Date): Promise<void> {
  if (!stopIds.length) return;
  const cutoff = new Date(now.getTime() - ETA_ERROR_LEAD_MS);
  await q.execute(sql`
    DELETE FROM stop_eta_samples s
     WHERE s.tenant_id = ${tenantId} AND s.stop_id = ANY (${`{${stopIds.join(',')}}`}::uuid[])
       AND s.published_at < (SELECT max(k.published_at) FROM stop_eta_samples k
                              WHERE k.tenant_id = s.tenant_id AND k.stop_id = s.stop_id AND k.published_at <= ${cutoff.toISOString()}::timestamptz)`);
}

/**
 * The ETA shown for each stop of `stops` (a relation with stop_id, arrived_at, tour_started_at) at the moment its ETA
 * error is measured (contract §17): the one shown 30 minutes before the arrival, or the first after the tour started
 * when that is later (or there is none). One row per stop that has one: stop_id, arrived_at, eta, and shown_at (the
 * minute that ETA was published: what it had to go then is eta − shown_at, decision 1786). One pass over the
 * samples joined to the stops, both picks as ordered aggregates of the same group, so a stop without samples costs
 * nothing and a year's stops are read once (docs/performance.md, "Delivery analytics").
 */
export const etaShownSql = (tenantId: SQL, stops: SQL): SQL => {
  const cutoff = sql`s.arrived_at - interval '30 minutes'`;
  const latest = sql`(array_agg(x.eta ORDER BY x.published_at DESC) FILTER (WHERE ${cutoff} >= s.tour_started_at AND x.published_at <= ${cutoff}))[1]`;
  const first = sql`(array_agg(x.eta ORDER BY x.published_at) FILTER (WHERE x.published_at >= date_trunc('minute', s.tour_started_at)))[1]`;
  // The same two picks' minutes: published_at is unique per stop, so max / min find the rows the picks took.
  const latestAt = sql`max(x.published_at) FILTER (WHERE ${cutoff} >= s.tour_started_at AND x.published_at <= ${cutoff})`;
  const firstAt = sql`min(x.published_at) FILTER (WHERE x.published_at >= date_trunc('minute', s.tour_started_at))`;
  return sql`
  SELECT s.stop_id, s.arrived_at, coalesce(${latest}, ${first}) AS eta, coalesce(${latestAt}, ${firstAt}) AS shown_at
    FROM ${stopEtaSamples} x JOIN ${stops} s ON x.stop_id = s.stop_id
   WHERE x.tenant_id = ${tenantId} AND s.arrived_at IS NOT NULL AND s.tour_started_at IS NOT NULL AND x.published_at <= s.arrived_at
   GROUP BY s.stop_id, s.arrived_at, s.tour_started_at
  HAVING coalesce(${latest}, ${first}) IS NOT NULL`;
};

/**
 * Metres driven on the tours `tourIds` (a subquery or uuid[] expression) by their kept positions, great-circle between
 * consecutive ones (filtered positions left out); null without two positions (decision 1742).
 */
export const tourDistanceSql = (tenantId: SQL, tourIds: SQL): SQL => sql`(SELECT sum(d.m) FROM (
    SELECT 2 * 6371000 * asin(sqrt(power(sin(radians(p.lat - lag(p.lat) OVER w) / 2), 2)
             + cos(radians(p.lat)) * cos(radians(lag(p.lat) OVER w)) * power(sin(radians(p.lng - lag(p.lng) OVER w) / 2), 2))) AS m
      FROM ${driverPositions} p
     WHERE p.tenant_id = ${tenantId} AND p.tour_id = ANY ((${tourIds})::uuid[]) AND p.filtered IS NULL
    WINDOW w AS (PARTITION BY p.tour_id ORDER BY p.recorded_at, p.id)) d)`;

export async function insertTicket(q: Queryable, row: typeof liveTickets.$inferInsert): Promise<void> {
  await q.insert(liveTickets).values(row);
}

/** Marks the ticket used and returns its credential hash, or null when it is unknown, used, expired or forged. */
export async function redeemTicket(q: Queryable, tenantId: string, id: string, secretHash: string, now: Date): Promise<string | null> {
  const [row] = await q
    .update(liveTickets)
    .set({ usedAt: now })
    .where(
      and(
        eq(liveTickets.tenantId, tenantId),
        eq(liveTickets.id, id),
        eq(liveTickets.secretHash, secretHash),
        isNull(liveTickets.usedAt),
        gt(liveTickets.expiresAt, now),
      ),
    )
    .returning({ credentialHash: liveTickets.credentialHash });
  return row?.credentialHash ?? null;
}

export async function deleteTicketsExpiredBefore(q: Queryable, cutoff: Date): Promise<void> {
  await q.delete(liveTickets).where(lt(liveTickets.expiresAt, cutoff));
}

/** ETAs with the tour they were computed on and their travel source (what dispatch's stop views render). */
export async function etasWithTourOfStops(q: Queryable, tenantId: string, stopIds: readonly string[]): Promise<Map<string, StopEta>> {
  if (!stopIds.length) return new Map();
  // Prepared, with the ids as one array: every booking read with a stop under way runs it (one plan, not one per count).
  const rows = await runPrepared(
    q,
    'etas_with_tour_of_stops',
    (q) =>
      q
        .select({ stopId: stopEtas.stopId, tourId: stopEtas.tourId, eta: stopEtas.eta, travelSource: stopEtas.travelSource })
        .from(stopEtas)
        .where(and(eq(stopEtas.tenantId, sql.placeholder('tenantId')), sql`${stopEtas.stopId} = ANY(${sql.placeholder('ids')}::uuid[])`))
        .prepare('etas_with_tour_of_stops'),
    { tenantId, ids: [...stopIds] },
  );
  return new Map(rows.map((r) => [r.stopId, { tourId: r.tourId, eta: r.eta, travelSource: r.travelSource }]));
}

/** Tours nobody drives any more keep no ETAs (their stops render none); their stops' samples are pruned (decision 1740). */
export async function deleteEtasOfTours(q: Queryable, tenantId: string, tourIds: readonly string[], now: Date): Promise<void> {
  if (!tourIds.length) return;
  const gone = await q.delete(stopEtas).where(and(eq(stopEtas.tenantId, tenantId), inArray(stopEtas.tourId, [...tourIds]))).returning({ stopId: stopEtas.stopId });
  await pruneEtaSamples(q, tenantId, gone.map((r) => r.stopId), now);
}
