// Delivery analytics as CSV (contract §17, decision 1745): one row per figure group, the header the JSON members
// (nested ones joined with `_`), cells neutralized by the one CSV rule (src/shared/csv.ts).
import { toCsv } from '../../shared/csv.ts';
import type { DeliveryAnalytics } from './schemas.ts';

export const CSV_HEADERS = [
  'section', 'from', 'to', 'stops_completed', 'stops_failed', 'stops_on_time', 'stops_late', 'on_time_rate', 'first_attempt_success_rate',
  'eta_error_s_mae', 'eta_error_s_p90', 'eta_error_s_samples', 'stops_per_hour', 'distance_km',
  'driver_id', 'name', 'date', 'completed', 'on_time', 'late', 'failed', 'reason_key', 'count',
  'tours', 'planned_stops', 'planned_distance_m', 'planned_finish_at', 'actual_stops_completed', 'actual_stops_failed', 'actual_distance_m', 'actual_finish_at',
] as const;
type Header = (typeof CSV_HEADERS)[number];

const cell = (value: string | number | null | undefined): string => (value === null || value === undefined ? '' : String(value));
const row = (values: Partial<Record<Header, string | number | null>>): string[] => CSV_HEADERS.map((h) => cell(values[h]));

/** `section` names the JSON member a row comes from: `total` for the headline figures, else `by_driver`, `by_day`, `by_failure_reason`, `by_driver_day`. */
export function analyticsCsv(a: DeliveryAnalytics): string {
  const rows = [
    row({
      section: 'total', from: a.from, to: a.to,
      stops_completed: a.stops.completed, stops_failed: a.stops.failed, stops_on_time: a.stops.on_time, stops_late: a.stops.late,
      on_time_rate: a.on_time_rate, first_attempt_success_rate: a.first_attempt_success_rate,
      eta_error_s_mae: a.eta_error_s?.mae, eta_error_s_p90: a.eta_error_s?.p90, eta_error_s_samples: a.eta_error_s?.samples,
      stops_per_hour: a.stops_per_hour, distance_km: a.distance_km,
    }),
    ...a.by_driver.map((d) => row({ section: 'by_driver', driver_id: d.driver_id, name: d.name, stops_completed: d.stops_completed, on_time_rate: d.on_time_rate, stops_per_hour: d.stops_per_hour })),
    ...a.by_day.map((d) => row({ section: 'by_day', date: d.date, completed: d.completed, on_time: d.on_time, late: d.late, failed: d.failed, on_time_rate: d.on_time_rate })),
    ...a.by_failure_reason.map((r) => row({ section: 'by_failure_reason', reason_key: r.reason_key, count: r.count })),
    ...a.by_driver_day.map((d) =>
      row({
        section: 'by_driver_day', driver_id: d.driver_id, name: d.name, date: d.date, tours: d.tours,
        planned_stops: d.planned.stops, planned_distance_m: d.planned.distance_m, planned_finish_at: d.planned.finish_at,
        actual_stops_completed: d.actual.stops_completed, actual_stops_failed: d.actual.stops_failed, actual_distance_m: d.actual.distance_m, actual_finish_at: d.actual.finish_at,
      }),
    ),
  ];
  return toCsv(CSV_HEADERS, rows);
}
