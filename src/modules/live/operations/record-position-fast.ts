// The fast path of POST /api/hailing/tours/{id}/driver_location (decisions 0905, 0906): no BEGIN/COMMIT, and in the
// common case one statement.
//
// Measured (docs/performance.md, "Live tracking"): the transactional path was 11 round trips and ~7 ms of server CPU
// per position on PostgreSQL; per statement, PGlite spends ~60–100 µs of JavaScript and WebAssembly before any work.
//  1. what the ETAs need — the tour, its open stops, the tracking row, the stored and last-told ETAs, with the row
//     versions (`xmin`) of the tour, the stops and the tracking row — comes from the tour's previous fast write in this
//     process (a snapshot), or else from one prepared read (which also says whether the same fix is stored and
//     carries the bookings' event data);
//  2. classification and ETAs in JS (pure, no lock held — OSRM too is asked outside any lock);
//  3. one prepared write of data-modifying CTEs, guarded by those versions: the tracking row is updated only if the
//     row, the tour and its open stops are still the versions computed from, and the fix is still not stored
//     (optimistic lock: the UPDATE waits for a concurrent holder of the row, then finds it changed and writes nothing);
//     the position, the ETAs that moved, the coalesced webhook job and the `pg_notify` follow only when it wrote. A
//     single statement is atomic and notifies at its commit. Its answer is the tracking row's new version: the next
//     position of the tour starts from there without reading.
// ETAs that moved enough for *.etas_recalculated events are told here too: their booking data comes with the read (a
// snapshot does not keep it), the events and the told ETAs go in the same write. A failed check forgets the snapshot
// and reads (up to 3 times); what the fast path does not handle goes through the transaction
// (record-driver-location.ts): a tour's first position (no tracking row yet) and a stop that left the tour or has no
// ETA row yet.
import { sql } from 'drizzle-orm';
import { combinedRead, decodeCombined, rowFromJson, type JsonPart } from '../../../db/json-read.ts';
import { insertFromJson, jsonParameter, type TableRows } from '../../../db/json-insert.ts';
import { rawStatement, runRaw } from '../../../db/prepared.ts';
import type { Deps } from '../../../deps.ts';
import type { TravelSource } from '../../../seams/index.ts';
import type { Actor } from '../../../http/actor.ts';
import { newId } from '../../../shared/ids.ts';
import { pendingEvent } from '../../../worker/debounce.ts';
import { LOCATION_WEBHOOK_WINDOW_SECONDS } from '../coalescing.ts';
import { eventRows, type EventInput } from '../../../events/outbox.ts';
import { events } from '../../../events/tables.ts';
import { bookingEventDataRead, openStopsRead, openStopsVersionSql, requireLoadedTour, tourRead, tourSummaryOf, tourVersionSql, type TourSummary } from '../dispatch-port.ts';
import { computeEtas, etasMoved, routePoints } from '../eta.ts';
import type { Fix } from '../ingestion.ts';
import { checkPositionTour } from '../position-checks.ts';
import { currentPositionFields, positionRow } from '../position-row.ts';
import type { PositionRow, TrackingRow } from '../repository.ts';
import { travelLegs } from '../routing.ts';
import type { DriverLocationBodyT } from '../schemas.ts';
import { tourTracking } from '../tables.ts';
import { LIVE_CHANNEL, positionNotice, renderPosition } from '../views.ts';
import { areaSpeedKmh, etaEventInputs } from './recompute-etas.ts';

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
  travelSource: TravelSource | null;
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
  sql: sql`(SELECT coalesce(json_agg(json_build_array(stop_id, eta, notified_eta, travel_source)), '[]'::json) FROM stop_etas
             WHERE tenant_id = ${ph('tenantId')} AND tour_id = ${ph('tourId')})`,
  decode: (json) =>
    new Map(
      (json as [string, string, string | null, TravelSource | null][]).map(([id, eta, notified, travelSource]) => [
        id,
        { eta: new Date(eta), notified: notified === null ? null : new Date(notified), travelSource },
      ]),
    ),
};

const READ_PARTS = {
  tour: tourRead(ph('tenantId'), ph('tourId')),
  tourVersion: { sql: tourVersionSql(ph('tenantId'), ph('tourId')), decode: (json: unknown) => String(json) },
  stops: openStopsRead(ph('tenantId'), ph('tourId')),
  stopsVersion: { sql: openStopsVersionSql(ph('tenantId'), ph('tourId')), decode: (json: unknown) => String(json) },
  tracking: trackingPart,
  duplicate: duplicatePart,
  etas: etasPart,
  bookingData: bookingEventDataRead(ph('tenantId'), ph('tourId')),
};
const READ = rawStatement('live_position_read', combinedRead(READ_PARTS));

const iso = (d: Date | null) => (d === null ? null : d.toISOString());

/**
 * The write: every part happens only if the tracking row, the tour and its open stops are still the versions the ETAs
 * were computed from, and (when the fix was taken for new) the same fix is still not stored.
 */
const WRITE = rawStatement(
  'live_position_write',
  sql`
WITH t AS (
  UPDATE tour_tracking SET driver_id = ${ph('tDriverId')}::uuid, driver_organization_id = ${ph('tOrganizationId')}::uuid,
         position_id = ${ph('tPositionId')}::uuid, lat = ${ph('tLat')}::float8, lng = ${ph('tLng')}::float8,
         heading = ${ph('tHeading')}::float8, speed = ${ph('tSpeed')}::float8, accuracy = ${ph('tAccuracy')}::float8,
         recorded_at = ${ph('tRecordedAt')}::timestamptz, etas_computed_at = ${ph('tEtasComputedAt')}::timestamptz,
         updated_at = ${ph('tUpdatedAt')}::timestamptz
   WHERE tenant_id = ${ph('tenantId')}::uuid AND tour_id = ${ph('tourId')}::uuid AND xmin::text = ${ph('xmin')}::text
     AND ${tourVersionSql(ph('tenantId'), ph('tourId'))} = ${ph('tourVersion')}::text
     AND ${openStopsVersionSql(ph('tenantId'), ph('tourId'))} = ${ph('stopsVersion')}::text
     AND NOT (${ph('fresh')}::boolean AND EXISTS (SELECT 1 FROM driver_positions
           WHERE tenant_id = ${ph('tenantId')}::uuid AND tour_id = ${ph('tourId')}::uuid AND recorded_at = ${ph('recordedAt')}::timestamptz
             AND lat = ${ph('lat')}::float8 AND lng = ${ph('lng')}::float8))
  RETURNING xmin::text AS version),
p AS (
  INSERT INTO driver_positions (tenant_id, id, tour_id, driver_id, lat, lng, heading, speed, accuracy, recorded_at, received_at, filtered, became_current)
  SELECT ${ph('tenantId')}::uuid, ${ph('id')}::uuid, ${ph('tourId')}::uuid, ${ph('driverId')}::uuid, ${ph('lat')}::float8, ${ph('lng')}::float8,
         ${ph('heading')}::float8, ${ph('speed')}::float8, ${ph('accuracy')}::float8, ${ph('recordedAt')}::timestamptz,
         ${ph('now')}::timestamptz, ${ph('filtered')}::text, ${ph('current')}::boolean
    FROM t),
e AS (
  UPDATE stop_etas SET eta = x.eta, computed_at = ${ph('now')}::timestamptz, travel_source = ${ph('travelSource')}::text,
         notified_eta = CASE WHEN ${ph('told')}::boolean THEN x.eta ELSE stop_etas.notified_eta END
    FROM t, json_to_recordset(${ph('etas')}::json) AS x(stop_id uuid, eta timestamptz)
   WHERE stop_etas.tenant_id = ${ph('tenantId')}::uuid AND stop_etas.stop_id = x.stop_id AND stop_etas.tour_id = ${ph('tourId')}::uuid),
es AS (
  INSERT INTO stop_eta_samples (tenant_id, stop_id, published_at, tour_id, eta)
  SELECT ${ph('tenantId')}::uuid, x.stop_id, date_trunc('minute', ${ph('now')}::timestamptz), ${ph('tourId')}::uuid, x.eta
    FROM t, json_to_recordset(${ph('etas')}::json) AS x(stop_id uuid, eta timestamptz)
  ON CONFLICT (tenant_id, stop_id, published_at) DO UPDATE SET tour_id = excluded.tour_id, eta = excluded.eta),
j AS (
  INSERT INTO jobs (tenant_id, id, kind, dedupe_key, payload, status, due_at, max_attempts, created_at, updated_at)
  SELECT ${ph('tenantId')}::uuid, ${ph('jobId')}::uuid, ${ph('jobKind')}::text, ${ph('jobDedupeKey')}::text, ${ph('jobPayload')}::jsonb, 'pending',
         ${ph('jobDueAt')}::timestamptz, 10, ${ph('now')}::timestamptz, ${ph('now')}::timestamptz
    FROM t WHERE ${ph('scheduleJob')}::boolean
  ON CONFLICT DO NOTHING
  RETURNING due_at),
ev AS (${insertFromJson(events, 'events', 't')}),
n AS (SELECT pg_notify(${LIVE_CHANNEL}, ${ph('notice')}::text) FROM t WHERE ${ph('current')}::boolean)
SELECT (SELECT version FROM t) AS version, (SELECT count(*) FROM n)::int AS notified, (SELECT count(*) FROM j)::int AS scheduled`,
);

/**
 * When this process last scheduled a tour's coalesced webhook, and so knows it pending until then: positions before
 * that skip the job insert (it would find the pending job and do nothing). Unknown when another position scheduled it.
 */
const pendingUntil = new WeakMap<object, Map<string, number>>();

/** What a position's ETAs and classification need of a tour, with the versions the write checks. */
interface Snapshot {
  tour: NonNullable<Decoded['tour']>;
  tourVersion: string;
  stops: Decoded['stops'];
  stopsVersion: string;
  tracking: TrackingRow;
  trackingVersion: string;
  etas: Map<string, StoredEta>;
  /** The event data of the tour's bookings: only from a read (bookings change without the versions checked). */
  bookingData: Decoded['bookingData'] | null;
}
type Decoded = ReturnType<typeof decodeCombined<typeof READ_PARTS>>;

/**
 * The snapshot each tour's last fast write left, per database handle: the next position of the tour computes from it
 * without the read, and its write's version checks (not this process's memory) decide whether it was still true —
 * another process, a stop change or the transaction makes the write do nothing, and the position reads afresh.
 */
const snapshots = new WeakMap<object, Map<string, Snapshot>>();
/** Tours remembered per process (the oldest written is forgotten first); ~10 KB each with 30 stops. */
const MAX_SNAPSHOTS = 5_000;

/** The fast path's answer, or null when the position needs the locking transaction. */
export async function recordPositionFast(
  deps: Deps,
  actor: Actor,
  tourId: string,
  input: DriverLocationBodyT['location'],
  fix: Fix,
  now: Date,
): Promise<{ location: ReturnType<typeof renderPosition> } | null> {
  const key = `${actor.tenantId}:${tourId}`;
  const known = mapOf(snapshots, deps.db);
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    // A remembered snapshot is tried once; its checks failing in JS (another driver, a status) prove nothing about
    // the tour as it is now, so the read decides those answers.
    const remembered = attempt === 0 ? known.get(key) : undefined;
    const tourOfMemory = remembered && trackedTour(actor, remembered.tour, false);
    const { snapshot, duplicate } = remembered && tourOfMemory ? { snapshot: remembered, duplicate: false } : await readSnapshot(deps, actor, tourId, fix);
    known.delete(key);
    if (!snapshot) return null;
    const tour = tourOfMemory || (trackedTour(actor, snapshot.tour, true) as TourSummary);
    const tracking = snapshot.tracking;
    const row = positionRow({ tenantId: actor.tenantId, tourId: tour.id, driverId: actor.userId, now }, input, fix, tracking, duplicate, deps.config.live.maxSpeedKmh);
    let next = tracking;
    let etas: { stop_id: string; eta: string }[] = [];
    let job: ReturnType<typeof pendingEvent> | null = null;
    let notice = '';
    let told: EventInput[] = [];
    let source: TravelSource = 'straight_line';
    if (row.becameCurrent) {
      const legs = await legSeconds(deps, tour.serviceAreaId, fix, snapshot.stops, actor.tenantId);
      source = legs.source;
      const computed = computeEtas(now, true, snapshot.stops, legs.legs);
      // A stop that left (its ETA row goes) or one without an ETA row yet needs the transaction.
      if ([...snapshot.etas.keys()].some((id) => !computed.has(id)) || [...computed.keys()].some((id) => !snapshot.etas.has(id))) return null;
      if (etasMoved(new Map([...snapshot.etas].map(([id, stored]) => [id, stored.notified])), computed)) {
        // Told in events, whose booking data only a read has: a position from a snapshot reads first.
        if (!snapshot.bookingData) continue;
        told = etaEventInputs(actor.tenantId, actor, tour, snapshot.stops, computed, now, snapshot.bookingData);
      }
      // Every stop has its ETA row here: the write updates rows, never inserts; told ETAs are all written, and so is one
      // whose travel source changed (a region imported, an engine down): the source shown is that of the times shown.
      etas = [...computed]
        .filter(([id, eta]) => {
          const stored = snapshot.etas.get(id);
          return told.length > 0 || stored?.travelSource !== source || Math.abs((stored?.eta.getTime() ?? 0) - eta.getTime()) >= ETA_STORE_TOLERANCE_SECONDS * 1000;
        })
        .map(([id, eta]) => ({ stop_id: id, eta: eta.toISOString() }));
      next = { ...tracking, ...currentPositionFields(actor, row), etasComputedAt: now };
      const pending = mapOf(pendingUntil, deps.db);
      if ((pending.get(key) ?? 0) <= now.getTime()) {
        job = pendingEvent({ tenantId: actor.tenantId, type: 'tour.driver_location_updated', resourceId: tour.id, windowSeconds: LOCATION_WEBHOOK_WINDOW_SECONDS, now });
      }
    }
    // The events' ids are made here so that the notice can name them (decision 1776).
    const toldRows = eventRows(told);
    if (row.becameCurrent) notice = JSON.stringify(positionNotice(tour, next.driverOrganizationId, row, toldRows.rows.map((r) => String(r.id))));
    const result = await write(deps, snapshot, next, row, { etas, told: toldRows, source }, job, notice, !duplicate);
    if (!result) continue;
    if (job && result.scheduled) remember(mapOf(pendingUntil, deps.db), key, job.dueAt.getTime());
    const stored = new Map(snapshot.etas);
    for (const { stop_id, eta } of etas) stored.set(stop_id, { eta: new Date(eta), notified: told.length ? new Date(eta) : (stored.get(stop_id)?.notified ?? null), travelSource: source });
    remember(known, key, { ...snapshot, tracking: next, trackingVersion: result.version, etas: stored, bookingData: null });
    return { location: renderPosition(row) };
  }
  return null;
}

/** The tour as the position's checks see it; with `strict` false, null instead of the 404/403/409. */
function trackedTour(actor: Actor, row: Snapshot['tour'] | null, strict: boolean): TourSummary | null {
  try {
    const tour = tourSummaryOf(requireLoadedTour(actor, row));
    checkPositionTour(actor, tour);
    return tour;
  } catch (err) {
    if (strict) throw err;
    return null;
  }
}

/** One statement: the snapshot (null without a tracking row: the tour's first position) and whether the fix is stored. */
async function readSnapshot(deps: Deps, actor: Actor, tourId: string, fix: Fix): Promise<{ snapshot: Snapshot | null; duplicate: boolean }> {
  const [row] = await runRaw<Record<string, unknown>>(deps.database, READ, {
    tenantId: actor.tenantId,
    tourId,
    recordedAt: fix.recordedAt.toISOString(),
    lat: fix.lat,
    lng: fix.lng,
  });
  const read = decodeCombined(READ_PARTS, row);
  // The 404/403/409 come before "no tracking row yet", as in the transaction.
  trackedTour(actor, read.tour, true);
  if (!read.tracking || !read.tour) return { snapshot: null, duplicate: read.duplicate };
  const { tour, tourVersion, stops, stopsVersion, etas, bookingData } = read;
  return { snapshot: { tour, tourVersion, stops, stopsVersion, etas, bookingData, tracking: read.tracking.row, trackingVersion: read.tracking.xmin }, duplicate: read.duplicate };
}

function remember<V>(map: Map<string, V>, key: string, value: V): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > MAX_SNAPSHOTS) map.delete(map.keys().next().value as string);
}

function mapOf<V>(maps: WeakMap<object, Map<string, V>>, db: object): Map<string, V> {
  let map = maps.get(db);
  if (!map) maps.set(db, (map = new Map()));
  return map;
}

async function legSeconds(deps: Deps, serviceAreaId: string, origin: Fix, stops: Parameters<typeof routePoints>[1], tenantId: string) {
  const speed = await areaSpeedKmh(deps.db, tenantId, serviceAreaId);
  return travelLegs(deps, deps.db, routePoints(origin, stops), speed);
}

/** The guarded write; the tracking row's new version, or null when a version check failed (nothing written). */
async function write(
  deps: Deps,
  read: Snapshot,
  t: TrackingRow,
  row: PositionRow,
  etas: { etas: { stop_id: string; eta: string }[]; told: TableRows; source: TravelSource },
  job: ReturnType<typeof pendingEvent> | null,
  notice: string,
  fresh: boolean,
): Promise<{ version: string; scheduled: boolean } | null> {
  const [answer] = await runRaw<{ version: string | null; scheduled: number }>(deps.database, WRITE, {
    tenantId: row.tenantId,
    tourId: row.tourId,
    xmin: read.trackingVersion,
    tourVersion: read.tourVersion,
    stopsVersion: read.stopsVersion,
    fresh,
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
    etas: JSON.stringify(etas.etas),
    travelSource: etas.source,
    told: etas.told.rows.length > 0,
    events: jsonParameter(etas.told),
    scheduleJob: job !== null,
    jobId: newId(),
    jobKind: job?.kind ?? '',
    jobDedupeKey: job?.dedupeKey ?? '',
    jobPayload: JSON.stringify(job?.payload ?? {}),
    jobDueAt: (job?.dueAt ?? row.receivedAt).toISOString(),
    notice,
  });
  if (!answer || answer.version === null) return null;
  return { version: answer.version, scheduled: answer.scheduled === 1 };
}
