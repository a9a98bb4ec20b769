// The fast path of POST /api/hailing/tours/{id}/driver_location (decision 0905): two statements, no BEGIN/COMMIT.
//
// Measured (docs/performance.md, "Live tracking"): the transactional path was 11 round trips and ~7 ms of server CPU
// per position on PostgreSQL (13–15 ms on the loaded machine of this session, where every socket write to the
// database cost ~0.3–0.5 ms of kernel time and Drizzle's query building another ~1–2 ms). Here:
//  1. one prepared read: the tour, its open stops (only what an ETA needs), the tracking row with its `xmin`, whether
//     the same fix is stored, and the stored and last-told ETAs;
//  2. classification and ETAs in JS (pure, no lock held — OSRM too is asked outside any lock);
//  3. one prepared write of data-modifying CTEs, guarded by `xmin`: the tracking row is updated only if nobody
//     changed it since step 1 (optimistic lock: the UPDATE waits for a concurrent holder of the row, then finds the
//     row changed and writes nothing), and the position, the ETAs that moved, the coalesced webhook job and the
//     `pg_notify` are written only when that UPDATE wrote. A single statement is atomic and notifies at its commit.
// A lost race reads again; what the fast path does not handle goes through the transaction (record-driver-location.ts):
// a tour's first position (no tracking row yet), ETAs that moved enough for *.etas_recalculated events (they need
// booking data and the outbox, and happen once per minute of delay at most), and a stop that left the tour.
import { sql, type SQL } from 'drizzle-orm';
import type { Queryable } from '../../../db/client.ts';
import { rowFromJson, readTogether, type JsonPart } from '../../../db/json-read.ts';
import { prepareSql, runPrepared } from '../../../db/prepared.ts';
import type { Deps } from '../../../deps.ts';
import type { Actor } from '../../../http/actor.ts';
import { conflict, forbidden } from '../../../http/errors.ts';
import { newId } from '../../../shared/ids.ts';
import { pendingEvent } from '../../../worker/debounce.ts';
import { LOCATION_WEBHOOK_WINDOW_SECONDS } from '../coalescing.ts';
import { openStopsRead, tourRead, visibleSummaryOf } from '../dispatch-port.ts';
import { computeEtas, etasMoved, routePoints } from '../eta.ts';
import type { Fix } from '../ingestion.ts';
import { currentPositionFields, positionRow } from '../position-row.ts';
import type { PositionRow, TrackingRow } from '../repository.ts';
import { routingProvider } from '../routing.ts';
import type { DriverLocationBodyT } from '../schemas.ts';
import { tourTracking } from '../tables.ts';
import { LIVE_CHANNEL, positionNotice, renderPosition } from '../views.ts';
import { areaSpeedKmh } from './recompute-etas.ts';

const TRACKED_STATUSES = ['en_route', 'claimed'];
/** Lost optimistic races before the position takes the locking transaction instead. */
const ATTEMPTS = 3;
/**
 * A stored ETA is rewritten only when it moved by at least this much: stored ETAs need not follow every metre, and
 * 30 rows rewritten per position were most of the write. Events still compare against the last told (60 s).
 */
export const ETA_STORE_TOLERANCE_SECONDS = 5;

const ph = (name: string) => sql.placeholder(name);

interface StoredEta {
  eta: Date;
  notified: Date | null;
}

const trackingPart: JsonPart<{ row: TrackingRow; xmin: string } | null> = {
  sql: sql`(SELECT json_build_object('row', row_to_json(${tourTracking}), 'xmin', xmin::text) FROM ${tourTracking}
             WHERE ${tourTracking.tenantId} = ${ph('tenantId')} AND ${tourTracking.tourId} = ${ph('tourId')})`,
  decode: (json) => {
    if (!json) return null;
    const { row, xmin } = json as { row: Record<string, unknown>; xmin: string };
    return { row: rowFromJson(tourTracking, row), xmin };
  },
};

const duplicatePart: JsonPart<boolean> = {
  sql: sql`(SELECT EXISTS (SELECT 1 FROM driver_positions
             WHERE tenant_id = ${ph('tenantId')} AND tour_id = ${ph('tourId')} AND recorded_at = ${ph('recordedAt')}::timestamptz
               AND lat = ${ph('lat')}::float8 AND lng = ${ph('lng')}::float8))`,
  decode: (json) => json === true,
};

const etasPart: JsonPart<Map<string, StoredEta>> = {
  sql: sql`(SELECT coalesce(json_agg(json_build_array(stop_id, eta, notified_eta)), '[]'::json) FROM stop_etas
             WHERE tenant_id = ${ph('tenantId')} AND tour_id = ${ph('tourId')})`,
  decode: (json) =>
    new Map((json as [string, string, string | null][]).map(([id, eta, notified]) => [id, { eta: new Date(eta), notified: notified === null ? null : new Date(notified) }])),
};

const READ_PARTS = {
  tour: tourRead(ph('tenantId'), ph('tourId')),
  stops: openStopsRead(ph('tenantId'), ph('tourId')),
  tracking: trackingPart,
  duplicate: duplicatePart,
  etas: etasPart,
};

const iso = (d: Date | null) => (d === null ? null : d.toISOString());

/** The write: every part happens only if the tracking row is still the one read (`xmin`). */
const WRITE: SQL = sql`
WITH t AS (
  UPDATE tour_tracking SET driver_id = ${ph('tDriverId')}::uuid, driver_organization_id = ${ph('tOrganizationId')}::uuid,
         position_id = ${ph('tPositionId')}::uuid, lat = ${ph('tLat')}::float8, lng = ${ph('tLng')}::float8,
         heading = ${ph('tHeading')}::float8, speed = ${ph('tSpeed')}::float8, accuracy = ${ph('tAccuracy')}::float8,
         recorded_at = ${ph('tRecordedAt')}::timestamptz, etas_computed_at = ${ph('tEtasComputedAt')}::timestamptz,
         updated_at = ${ph('tUpdatedAt')}::timestamptz
   WHERE tenant_id = ${ph('tenantId')}::uuid AND tour_id = ${ph('tourId')}::uuid AND xmin::text = ${ph('xmin')}::text
  RETURNING tour_id),
p AS (
  INSERT INTO driver_positions (tenant_id, id, tour_id, driver_id, lat, lng, heading, speed, accuracy, recorded_at, received_at, filtered, became_current)
  SELECT ${ph('tenantId')}::uuid, ${ph('id')}::uuid, ${ph('tourId')}::uuid, ${ph('driverId')}::uuid, ${ph('lat')}::float8, ${ph('lng')}::float8,
         ${ph('heading')}::float8, ${ph('speed')}::float8, ${ph('accuracy')}::float8, ${ph('recordedAt')}::timestamptz,
         ${ph('now')}::timestamptz, ${ph('filtered')}::text, ${ph('current')}::boolean
    FROM t),
e AS (
  INSERT INTO stop_etas (tenant_id, stop_id, tour_id, eta, notified_eta, computed_at)
  SELECT ${ph('tenantId')}::uuid, x.stop_id, ${ph('tourId')}::uuid, x.eta, NULL, ${ph('now')}::timestamptz
    FROM t, json_to_recordset(${ph('etas')}::json) AS x(stop_id uuid, eta timestamptz)
  ON CONFLICT (tenant_id, stop_id) DO UPDATE SET tour_id = excluded.tour_id, eta = excluded.eta, computed_at = excluded.computed_at),
j AS (
  INSERT INTO jobs (tenant_id, id, kind, dedupe_key, payload, status, due_at, max_attempts, created_at, updated_at)
  SELECT ${ph('tenantId')}::uuid, ${ph('jobId')}::uuid, ${ph('jobKind')}::text, ${ph('jobDedupeKey')}::text, ${ph('jobPayload')}::jsonb, 'pending',
         ${ph('jobDueAt')}::timestamptz, 10, ${ph('now')}::timestamptz, ${ph('now')}::timestamptz
    FROM t WHERE ${ph('scheduleJob')}::boolean
  ON CONFLICT DO NOTHING
  RETURNING due_at),
n AS (SELECT pg_notify(${LIVE_CHANNEL}, ${ph('notice')}::text) FROM t WHERE ${ph('current')}::boolean)
SELECT (SELECT count(*) FROM t)::int AS won, (SELECT count(*) FROM n)::int AS notified, (SELECT count(*) FROM j)::int AS scheduled`;

/**
 * When this process last scheduled a tour's coalesced webhook, and so knows it pending until then: positions before
 * that skip the job insert (it would find the pending job and do nothing). Unknown when another position scheduled it.
 */
const pendingUntil = new WeakMap<object, Map<string, number>>();

/** The fast path's answer, or null when the position needs the locking transaction. */
export async function recordPositionFast(
  deps: Deps,
  actor: Actor,
  tourId: string,
  input: DriverLocationBodyT['location'],
  fix: Fix,
  now: Date,
): Promise<{ location: ReturnType<typeof renderPosition> } | null> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const read = await readTogether(deps.db, 'live_position_read', READ_PARTS, {
      tenantId: actor.tenantId,
      tourId,
      recordedAt: fix.recordedAt.toISOString(),
      lat: fix.lat,
      lng: fix.lng,
    });
    const tour = visibleSummaryOf(actor, read.tour);
    if (tour.driverId !== actor.userId) throw forbidden();
    if (!TRACKED_STATUSES.includes(tour.status)) throw conflict('tour_not_tracked', { key: 'live.tour_not_tracked' }, { status: tour.status });
    if (!read.tracking) return null;
    const tracking = read.tracking.row;
    const row = positionRow({ tenantId: actor.tenantId, tourId: tour.id, driverId: actor.userId, now }, input, fix, tracking, read.duplicate, deps.config.live.maxSpeedKmh);
    let next = tracking;
    let etas: { stop_id: string; eta: string }[] = [];
    let job: ReturnType<typeof pendingEvent> | null = null;
    let notice = '';
    if (row.becameCurrent) {
      const computed = computeEtas(now, true, read.stops, await legSeconds(deps, tour.serviceAreaId, fix, read.stops, actor.tenantId));
      const told = new Map([...read.etas].map(([id, stored]) => [id, stored.notified]));
      // Events and the removal of a stop's ETA need the transaction (see the opening comment).
      if (etasMoved(told, computed) || [...read.etas.keys()].some((id) => !computed.has(id))) return null;
      etas = [...computed]
        .filter(([id, eta]) => {
          const stored = read.etas.get(id);
          return !stored || Math.abs(stored.eta.getTime() - eta.getTime()) >= ETA_STORE_TOLERANCE_SECONDS * 1000;
        })
        .map(([id, eta]) => ({ stop_id: id, eta: eta.toISOString() }));
      next = { ...tracking, ...currentPositionFields(actor, row), etasComputedAt: now };
      const key = `${actor.tenantId}:${tour.id}`;
      const pending = pendingOf(deps.db);
      if ((pending.get(key) ?? 0) <= now.getTime()) {
        job = pendingEvent({ tenantId: actor.tenantId, type: 'tour.driver_location_updated', resourceId: tour.id, windowSeconds: LOCATION_WEBHOOK_WINDOW_SECONDS, now });
      }
      notice = JSON.stringify(positionNotice(tour, next.driverOrganizationId, row));
    }
    const result = await write(deps.db, read.tracking.xmin, next, row, etas, job, notice);
    if (!result) continue;
    if (job && result.scheduled) {
      const pending = pendingOf(deps.db);
      if (pending.size > 100_000) pending.clear();
      pending.set(`${actor.tenantId}:${tour.id}`, job.dueAt.getTime());
    }
    return { location: renderPosition(row) };
  }
  return null;
}

function pendingOf(db: object): Map<string, number> {
  let map = pendingUntil.get(db);
  if (!map) pendingUntil.set(db, (map = new Map()));
  return map;
}

async function legSeconds(deps: Deps, serviceAreaId: string, origin: Fix, stops: Parameters<typeof routePoints>[1], tenantId: string): Promise<number[]> {
  const speed = await areaSpeedKmh(deps.db, tenantId, serviceAreaId);
  return routingProvider(deps.config).legSeconds(routePoints(origin, stops), speed);
}

async function write(
  db: Queryable,
  xmin: string,
  t: TrackingRow,
  row: PositionRow,
  etas: { stop_id: string; eta: string }[],
  job: ReturnType<typeof pendingEvent> | null,
  notice: string,
): Promise<{ scheduled: boolean } | null> {
  const result = (await runPrepared(db, 'live_position_write', (q) => prepareSql(q, 'live_position_write', WRITE), {
    tenantId: row.tenantId,
    tourId: row.tourId,
    xmin,
    tDriverId: t.driverId,
    tOrganizationId: t.driverOrganizationId,
    tPositionId: t.positionId,
    tLat: t.lat,
    tLng: t.lng,
    tHeading: t.heading,
    tSpeed: t.speed,
    tAccuracy: t.accuracy,
    tRecordedAt: iso(t.recordedAt),
    tEtasComputedAt: iso(t.etasComputedAt),
    tUpdatedAt: iso(t.updatedAt),
    id: row.id,
    driverId: row.driverId,
    lat: row.lat,
    lng: row.lng,
    heading: row.heading,
    speed: row.speed,
    accuracy: row.accuracy,
    recordedAt: row.recordedAt.toISOString(),
    now: row.receivedAt.toISOString(),
    filtered: row.filtered,
    current: row.becameCurrent,
    etas: JSON.stringify(etas),
    scheduleJob: job !== null,
    jobId: newId(),
    jobKind: job?.kind ?? '',
    jobDedupeKey: job?.dedupeKey ?? '',
    jobPayload: JSON.stringify(job?.payload ?? {}),
    jobDueAt: (job?.dueAt ?? row.receivedAt).toISOString(),
    notice,
  })) as { rows: { won: number; scheduled: number }[] } | { won: number; scheduled: number }[];
  const [answer] = Array.isArray(result) ? result : result.rows;
  if (!answer || answer.won !== 1) return null;
  return { scheduled: answer.scheduled === 1 };
}
