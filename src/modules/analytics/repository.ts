// Delivery analytics SQL (contract §17): one statement over dispatch's finished stops, live's ETA samples and
// positions, identity's names — each through its module's door — answering every figure as one JSON value.
import { sql, type SQL } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { queryRows } from '../../db/sql.ts';
import { finishedStopsSql, tourFactsSql, tourPlansSql, type FinishedStopsScope } from '../dispatch/index.ts';
import { userNameRead } from '../identity/index.ts';
import { etaShownSql, tourDistanceSql } from '../live/index.ts';

export interface DeliveryFigures {
  stops: { completed: number; failed: number; on_time: number; late: number };
  on_time_rate: number | null;
  first_attempt_success_rate: number | null;
  eta_error_s: { mae: number; p90: number; samples: number } | null;
  stops_per_hour: number | null;
  distance_km: number | null;
  by_driver: { driver_id: string; name: string | null; stops_completed: number; on_time_rate: number | null; stops_per_hour: number | null }[];
  by_failure_reason: { reason_key: string | null; count: number }[];
  by_day: { date: string; completed: number; on_time: number; late: number; failed: number; on_time_rate: number | null }[];
  by_driver_day: {
    driver_id: string;
    name: string | null;
    date: string;
    tours: number;
    planned: { stops: number; distance_m: number | null; finish_at: string | null };
    actual: { stops_completed: number; stops_failed: number; distance_m: number | null; finish_at: string | null };
  }[];
}

const col = (name: string): SQL => sql.raw(name);

/**
 * The tenant's time zones as `z(tz, areas)`, one row per zone with its service areas. The stops are grouped by their
 * local day before their tour's facts join them (decision 1778): PostgreSQL then estimates the groups from the stops'
 * columns and this list, which has as many rows as the tenant has zones, and hashes them. Grouped by the tour's columns
 * too, with one row per area, it expected a group per stop and sorted a year of stops on disk.
 */
function zonesSql(timeZones: readonly { id: string; timeZone: string }[]): SQL {
  const areas = new Map<string, string[]>();
  for (const a of timeZones) areas.set(a.timeZone, [...(areas.get(a.timeZone) ?? []), a.id]);
  if (areas.size === 0) return sql`(SELECT NULL::text, NULL::uuid[] WHERE false) AS z(tz, areas)`;
  const rows = [...areas].map(([tz, ids]) => sql`(${tz}::text, ${`{${ids.join(',')}}`}::uuid[])`);
  return sql`(VALUES ${sql.join(rows, sql`, `)}) AS z(tz, areas)`;
}

/**
 * Every figure of the period. A tour's working time is its start to its completion (or its last finished stop while it
 * runs), clipped to the period (decision 1742); a day is the stop's finish in its service area's time zone (decision 1743).
 * The finished stops are read once, folded into one row per tour, day and failure reason (`sg`, a few per tour) and
 * given their tour's facts (`g`); every count is a sum over those rows, and the ETA figures come from the stops that
 * have samples (decisions 1750, 1778).
 */
export async function deliveryFigures(q: Queryable, scope: FinishedStopsScope, timeZones: readonly { id: string; timeZone: string }[]): Promise<DeliveryFigures> {
  const from = scope.from.toISOString();
  const to = scope.to.toISOString();
  const tenant = sql`${scope.tenantId}::uuid`;
  const rate = (num: SQL, den: SQL) => sql`CASE WHEN ${den} > 0 THEN round((${num})::numeric / (${den}), 4)::float8 END`;
  const perHour = (stops: SQL, seconds: SQL) => sql`CASE WHEN ${seconds} > 0 THEN round((${stops})::numeric * 3600 / (${seconds})::numeric, 2)::float8 END`;
  // A sum of the per-group counts, 0 (not null) over no rows, bigint like the count(*) it adds up.
  const total = (column: string) => sql.raw(`coalesce(sum(${column}), 0)::bigint`);
  const query = sql`
WITH f AS NOT MATERIALIZED (${finishedStopsSql(scope)}),
shown AS (${etaShownSql(tenant, col('f'))}),
sg AS (
  SELECT f.tour_id, f.reason_key, (f.finished_at AT TIME ZONE coalesce(z.tz, 'UTC'))::date AS day,
         count(*) FILTER (WHERE f.status = 'completed') AS completed, count(*) FILTER (WHERE f.status = 'failed') AS failed,
         count(*) FILTER (WHERE f.status = 'completed' AND (f.window_ends_at IS NULL OR f.finished_at <= f.window_ends_at)) AS on_time,
         count(*) FILTER (WHERE f.recovery_of_stop_id IS NULL) AS first_attempts,
         count(*) FILTER (WHERE f.recovery_of_stop_id IS NULL AND f.status = 'completed') AS first_attempt_successes,
         max(f.finished_at) AS last_finished_at
    FROM f LEFT JOIN ${zonesSql(timeZones)} ON f.service_area_id = ANY (z.areas)
   GROUP BY f.tour_id, f.reason_key, day),
g AS (SELECT sg.*, t.driver_id, t.tour_started_at, t.tour_completed_at FROM sg JOIN (${tourFactsSql(tenant)}) t ON t.tour_id = sg.tour_id),
w AS (
  SELECT tour_id, driver_id,
         greatest(0, extract(epoch FROM least(coalesce(tour_completed_at, max(last_finished_at)), ${to}::timestamptz)
                                     - greatest(tour_started_at, ${from}::timestamptz))) AS seconds
    FROM g WHERE tour_started_at IS NOT NULL
   GROUP BY tour_id, driver_id, tour_started_at, tour_completed_at),
d AS (SELECT driver_id, ${total('completed')} AS completed, ${total('on_time')} AS on_time FROM g WHERE driver_id IS NOT NULL GROUP BY driver_id),
dw AS (SELECT driver_id, sum(seconds) AS seconds FROM w GROUP BY driver_id),
t AS (
  SELECT ${total('completed')} AS completed, ${total('failed')} AS failed, ${total('on_time')} AS on_time,
         ${total('first_attempts')} AS first_attempts, ${total('first_attempt_successes')} AS first_attempt_successes
    FROM g),
-- Planned against actual per driver-day (decision 1749): a tour belongs to the day of its first finished stop; only
-- tours an applied plan made count, each with what its plan promised (tour_plans) beside what its stops did.
td AS (
  SELECT tour_id, driver_id, min(day) AS day, sum(completed) AS completed, sum(failed) AS failed, max(last_finished_at) AS finished_at
    FROM g WHERE driver_id IS NOT NULL GROUP BY tour_id, driver_id),
tp AS (${tourPlansSql(tenant, sql`(SELECT array_agg(tour_id) FROM td)`)}),
pd AS (
  SELECT td.driver_id, td.day, array_agg(td.tour_id) AS tour_ids, count(*) AS tours, sum(td.completed) AS completed, sum(td.failed) AS failed,
         max(td.finished_at) AS finished_at, sum(tp.stops) AS planned_stops, sum(tp.distance_m) AS planned_distance_m, max(tp.finish_at) AS planned_finish_at
    FROM td JOIN tp ON tp.tour_id = td.tour_id
   GROUP BY td.driver_id, td.day),
e AS (
  SELECT count(*) AS samples, avg(error_s) AS mae, percentile_cont(0.9) WITHIN GROUP (ORDER BY error_s) AS p90
    FROM (SELECT abs(extract(epoch FROM arrived_at - eta)) AS error_s FROM shown) s)
SELECT json_build_object(
  'stops', json_build_object('completed', t.completed, 'failed', t.failed, 'on_time', t.on_time, 'late', t.completed - t.on_time),
  'on_time_rate', ${rate(sql`t.on_time`, sql`t.completed`)},
  'first_attempt_success_rate', ${rate(sql`t.first_attempt_successes`, sql`t.first_attempts`)},
  'eta_error_s', CASE WHEN e.samples > 0 THEN json_build_object('mae', round(e.mae::numeric)::int, 'p90', round(e.p90::numeric)::int, 'samples', e.samples) END,
  'stops_per_hour', ${perHour(sql`t.completed`, sql`(SELECT sum(seconds) FROM w)`)},
  'distance_km', (SELECT round((${tourDistanceSql(tenant, sql`(SELECT array_agg(tour_id) FROM w)`)})::numeric / 1000, 1)::float8),
  'by_driver', coalesce((SELECT json_agg(json_build_object('driver_id', d.driver_id, 'name', ${userNameRead(tenant, col('d.driver_id')).sql},
        'stops_completed', d.completed, 'on_time_rate', ${rate(sql`d.on_time`, sql`d.completed`)},
        'stops_per_hour', ${perHour(sql`d.completed`, sql`dw.seconds`)}) ORDER BY d.completed DESC, d.driver_id)
      FROM d LEFT JOIN dw ON dw.driver_id = d.driver_id), '[]'::json),
  'by_failure_reason', coalesce((SELECT json_agg(json_build_object('reason_key', r.reason_key, 'count', r.n) ORDER BY r.n DESC, r.reason_key)
      FROM (SELECT reason_key, ${total('failed')} AS n FROM g GROUP BY reason_key HAVING sum(failed) > 0) r), '[]'::json),
  'by_day', coalesce((SELECT json_agg(json_build_object('date', y.day, 'completed', y.completed, 'on_time', y.on_time, 'late', y.completed - y.on_time,
        'failed', y.failed, 'on_time_rate', ${rate(sql`y.on_time`, sql`y.completed`)}) ORDER BY y.day)
      FROM (SELECT to_char(day, 'YYYY-MM-DD') AS day, ${total('completed')} AS completed, ${total('on_time')} AS on_time, ${total('failed')} AS failed
              FROM g GROUP BY g.day) y), '[]'::json),
  'by_driver_day', coalesce((SELECT json_agg(json_build_object('driver_id', pd.driver_id, 'name', ${userNameRead(tenant, col('pd.driver_id')).sql},
        'date', to_char(pd.day, 'YYYY-MM-DD'), 'tours', pd.tours,
        'planned', json_build_object('stops', pd.planned_stops, 'distance_m', pd.planned_distance_m, 'finish_at', pd.planned_finish_at),
        'actual', json_build_object('stops_completed', pd.completed, 'stops_failed', pd.failed,
          'distance_m', round(${tourDistanceSql(tenant, col('pd.tour_ids'))})::int, 'finish_at', pd.finished_at)) ORDER BY pd.day, pd.driver_id)
      FROM pd), '[]'::json)
) AS figures FROM t, e`;
  // Planned for a year the statement's cost estimate is far above jit_optimize_above_cost: PostgreSQL spent more time
  // compiling it (1.2 s) than running it. The per-tour groups outgrow the default work_mem and spilled to disk.
  // Both are the statement's own settings, reset when its transaction ends (decision 1750).
  return q.transaction(async (tx) => {
    await tx.execute(sql`SET LOCAL jit = off`);
    await tx.execute(sql`SET LOCAL work_mem = '32MB'`);
    const [row] = await queryRows<{ figures: DeliveryFigures }>(tx, query);
    const figures = row!.figures;
    // json_build_object writes timestamps in the session's format; the API's are ISO 8601 in UTC.
    const instant = (value: string | null) => (value === null ? null : new Date(value).toISOString());
    for (const d of figures.by_driver_day) {
      d.planned.finish_at = instant(d.planned.finish_at);
      d.actual.finish_at = instant(d.actual.finish_at);
    }
    return figures;
  });
}

/** Metres driven on one tour by its kept positions, or null. */
export async function tourDistanceMeters(q: Queryable, tenantId: string, tourId: string): Promise<number | null> {
  const [row] = await queryRows<{ m: number | null }>(q, sql`SELECT round(${tourDistanceSql(sql`${tenantId}::uuid`, sql`ARRAY[${tourId}::uuid]`)})::int AS m`);
  return row?.m ?? null;
}

/** An ETA shown with less than this to go counts as shown this far ahead: a minute off on the doorstep is no share. */
const SHARE_FLOOR_S = 300;

/**
 * How far the tenant's ETAs were off as a share of the time they had to go (decision 1786): for each stop that arrived
 * in the period with an ETA error (contract §17's measure, the ETA shown 30 minutes before the arrival or the first
 * after the tour's start), |arrival − ETA| ÷ (ETA − the minute it was shown, at least 5 minutes), and the share 80 %
 * of them stayed within. All the tenant's stops: no reader sees the figure, only the windows it widens.
 */
export async function etaErrorShare(q: Queryable, tenantId: string, from: Date, to: Date): Promise<{ samples: number; p80: number | null }> {
  const scope: FinishedStopsScope = { tenantId, from, to, serviceAreaId: null, organizationId: null, visibleToOrganizationIds: null, stopType: null };
  const share = sql`abs(extract(epoch FROM arrived_at - eta)) / greatest(extract(epoch FROM eta - shown_at), ${sql.raw(String(SHARE_FLOOR_S))})`;
  const query = sql`
WITH f AS (${finishedStopsSql(scope)}),
shown AS (${etaShownSql(sql`${tenantId}::uuid`, col('f'))})
SELECT count(*)::int AS samples, (percentile_cont(0.8) WITHIN GROUP (ORDER BY ${share}))::float8 AS p80 FROM shown`;
  // A large tenant's fortnight costs more than jit_optimize_above_cost, and compiling it more than running it (decision 1750).
  return q.transaction(async (tx) => {
    await tx.execute(sql`SET LOCAL jit = off`);
    const [row] = await queryRows<{ samples: number; p80: number | null }>(tx, query);
    return { samples: row?.samples ?? 0, p80: row?.p80 ?? null };
  });
}
