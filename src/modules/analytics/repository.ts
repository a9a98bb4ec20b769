// Delivery analytics SQL (contract §17): one statement over dispatch's finished stops, live's ETA samples and
// positions, identity's names — each through its module's door — answering every figure as one JSON value.
import { sql, type SQL } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { queryRows } from '../../db/sql.ts';
import { finishedStopsSql, type FinishedStopsScope } from '../dispatch/index.ts';
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
  by_day: { date: string; completed: number; on_time_rate: number | null }[];
}

const col = (name: string): SQL => sql.raw(name);

/**
 * Every figure of the period. A tour's working time is its start to its completion (or its last finished stop while it
 * runs), clipped to the period (decision 1742); a day is the stop's finish in its service area's time zone (decision 1743).
 */
export async function deliveryFigures(q: Queryable, scope: FinishedStopsScope, timeZones: readonly { id: string; timeZone: string }[]): Promise<DeliveryFigures> {
  const from = scope.from.toISOString();
  const to = scope.to.toISOString();
  const tenant = sql`${scope.tenantId}::uuid`;
  const rate = (num: SQL, den: SQL) => sql`CASE WHEN ${den} > 0 THEN round((${num})::numeric / (${den}), 4)::float8 END`;
  const perHour = (stops: SQL, seconds: SQL) => sql`CASE WHEN ${seconds} > 0 THEN round((${stops})::numeric * 3600 / (${seconds})::numeric, 2)::float8 END`;
  const [row] = await queryRows<{ figures: DeliveryFigures }>(
    q,
    sql`
WITH f AS (${finishedStopsSql(scope)}),
shown AS (${etaShownSql(tenant, col('f'))}),
z AS (SELECT * FROM json_to_recordset(${JSON.stringify(timeZones.map((a) => ({ id: a.id, tz: a.timeZone })))}::json) AS z(id uuid, tz text)),
x AS (
  SELECT f.*, (f.status = 'completed' AND (f.window_ends_at IS NULL OR f.finished_at <= f.window_ends_at)) AS on_time,
         to_char(f.finished_at AT TIME ZONE coalesce(z.tz, 'UTC'), 'YYYY-MM-DD') AS day,
         abs(extract(epoch FROM f.arrived_at - shown.eta)) AS eta_error_s
    FROM f LEFT JOIN z ON z.id = f.service_area_id LEFT JOIN shown ON shown.stop_id = f.stop_id),
w AS (
  SELECT tour_id, driver_id,
         greatest(0, extract(epoch FROM least(coalesce(tour_completed_at, max(finished_at)), ${to}::timestamptz)
                                     - greatest(tour_started_at, ${from}::timestamptz))) AS seconds
    FROM x WHERE tour_started_at IS NOT NULL
   GROUP BY tour_id, driver_id, tour_started_at, tour_completed_at),
d AS (
  SELECT x.driver_id, count(*) FILTER (WHERE x.status = 'completed') AS completed, count(*) FILTER (WHERE x.on_time) AS on_time
    FROM x WHERE x.driver_id IS NOT NULL GROUP BY x.driver_id),
dw AS (SELECT driver_id, sum(seconds) AS seconds FROM w GROUP BY driver_id),
t AS (
  SELECT count(*) FILTER (WHERE status = 'completed') AS completed, count(*) FILTER (WHERE status = 'failed') AS failed,
         count(*) FILTER (WHERE on_time) AS on_time,
         count(*) FILTER (WHERE recovery_of_stop_id IS NULL) AS first_attempts,
         count(*) FILTER (WHERE recovery_of_stop_id IS NULL AND status = 'completed') AS first_attempt_successes,
         count(eta_error_s) AS eta_samples, avg(eta_error_s) AS eta_mae,
         percentile_cont(0.9) WITHIN GROUP (ORDER BY eta_error_s) AS eta_p90
    FROM x)
SELECT json_build_object(
  'stops', json_build_object('completed', t.completed, 'failed', t.failed, 'on_time', t.on_time, 'late', t.completed - t.on_time),
  'on_time_rate', ${rate(sql`t.on_time`, sql`t.completed`)},
  'first_attempt_success_rate', ${rate(sql`t.first_attempt_successes`, sql`t.first_attempts`)},
  'eta_error_s', CASE WHEN t.eta_samples > 0 THEN json_build_object('mae', round(t.eta_mae::numeric)::int, 'p90', round(t.eta_p90::numeric)::int, 'samples', t.eta_samples) END,
  'stops_per_hour', ${perHour(sql`t.completed`, sql`(SELECT sum(seconds) FROM w)`)},
  'distance_km', (SELECT round((${tourDistanceSql(tenant, sql`(SELECT array_agg(tour_id) FROM w)`)})::numeric / 1000, 1)::float8),
  'by_driver', coalesce((SELECT json_agg(json_build_object('driver_id', d.driver_id, 'name', ${userNameRead(tenant, col('d.driver_id')).sql},
        'stops_completed', d.completed, 'on_time_rate', ${rate(sql`d.on_time`, sql`d.completed`)},
        'stops_per_hour', ${perHour(sql`d.completed`, sql`dw.seconds`)}) ORDER BY d.completed DESC, d.driver_id)
      FROM d LEFT JOIN dw ON dw.driver_id = d.driver_id), '[]'::json),
  'by_failure_reason', coalesce((SELECT json_agg(json_build_object('reason_key', r.reason_key, 'count', r.n) ORDER BY r.n DESC, r.reason_key)
      FROM (SELECT reason_key, count(*) AS n FROM x WHERE status = 'failed' GROUP BY reason_key) r), '[]'::json),
  'by_day', coalesce((SELECT json_agg(json_build_object('date', y.day, 'completed', y.completed, 'on_time_rate', ${rate(sql`y.on_time`, sql`y.completed`)}) ORDER BY y.day)
      FROM (SELECT day, count(*) FILTER (WHERE status = 'completed') AS completed, count(*) FILTER (WHERE on_time) AS on_time FROM x GROUP BY day) y), '[]'::json)
) AS figures FROM t`,
  );
  return row!.figures;
}

/** Metres driven on one tour by its kept positions, or null. */
export async function tourDistanceMeters(q: Queryable, tenantId: string, tourId: string): Promise<number | null> {
  const [row] = await queryRows<{ m: number | null }>(q, sql`SELECT round(${tourDistanceSql(sql`${tenantId}::uuid`, sql`ARRAY[${tourId}::uuid]`)})::int AS m`);
  return row?.m ?? null;
}
