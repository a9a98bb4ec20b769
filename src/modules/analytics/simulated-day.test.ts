// The city simulator's run (src/simulate/) through the HTTP API, then every figure of GET /api/analytics/deliveries
// recomputed in plain TypeScript from the raw rows it left — stops, tours, ETA samples, positions — by the rules of
// docs/api-guide.md "Delivery analytics" (decisions 1740–1743), on whichever database the suite runs.
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/app.ts';
import { expectOk } from '../../../test/factories.ts';
import { runSimulation } from '../../simulate/city.ts';

let t: TestApp;
let url: string;
beforeAll(async () => {
  t = await buildTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => t.close());

type Row = Record<string, unknown>;
const rows = async (query: ReturnType<typeof sql>): Promise<Row[]> => ((await t.deps.db.execute(query)) as unknown as { rows: Row[] }).rows;
const ms = (value: unknown): number | null => (value === null || value === undefined ? null : new Date(value as string | Date).getTime());
const round = (value: number, places: number) => Math.round(value * 10 ** places) / 10 ** places;
const rate = (num: number, den: number) => (den > 0 ? round(num / den, 4) : null);
const perHour = (stops: number, seconds: number) => (seconds > 0 ? round((stops * 3600) / seconds, 2) : null);

/** Great-circle metres, the formula of the statement (decision 1742). */
function haversine(a: { lat: number; lng: number }, b: { lat: number; lng: number }): number {
  const rad = (d: number) => (d * Math.PI) / 180;
  const h = Math.sin(rad(b.lat - a.lat) / 2) ** 2 + Math.cos(rad(b.lat)) * Math.cos(rad(a.lat)) * Math.sin(rad(b.lng - a.lng) / 2) ** 2;
  return 2 * 6371000 * Math.asin(Math.sqrt(h));
}

/** percentile_cont: linear interpolation between the closest ranks. */
function percentileCont(sorted: number[], p: number): number {
  const at = p * (sorted.length - 1);
  const low = Math.floor(at);
  const high = Math.ceil(at);
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (at - low);
}

const berlinDate = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin', year: 'numeric', month: '2-digit', day: '2-digit' });

describe('analytics of a simulated city', () => {
  it('answers the figures a recomputation from the raw rows of the simulator’s run gives', async () => {
    const tenant = await t.createTenant();
    // The simulator stamps fixes with real time: the server's clock follows it through the run, so stops finish,
    // tours start and ETAs are published at moments spread over it (not all at one instant).
    t.clock.set(new Date());
    const ticking = setInterval(() => t.clock.set(new Date()), 20);
    const started = Date.now();
    let summary;
    try {
      summary = await runSimulation({ url, token: tenant.adminToken, drivers: 4, bookingsPerMinute: 40, durationSeconds: 8, speedup: 100, seed: 36, log: () => undefined });
    } finally {
      clearInterval(ticking);
    }
    expect(summary.errors).toEqual([]);
    expect(summary.stopsDone).toBeGreaterThan(4);
    const period = { from: new Date(started - 3_600_000).toISOString(), to: new Date(Date.now() + 3_600_000).toISOString() };
    const from = ms(period.from)!;
    const to = ms(period.to)!;
    const figures = (await expectOk(tenant.admin.get(`/api/analytics/deliveries?from=${period.from}&to=${period.to}`))).analytics;

    // The raw rows, read plainly.
    const tenantId = sql`${tenant.tenantId}::uuid`;
    const tours = new Map(
      (await rows(sql`SELECT id, driver_id, started_at, completed_at FROM tours WHERE tenant_id = ${tenantId}`)).map((r) => [
        r.id as string,
        { driverId: r.driver_id as string | null, startedAt: ms(r.started_at), completedAt: ms(r.completed_at) },
      ]),
    );
    const stops = await rows(sql`SELECT id, status, tour_id, completed_at, failed_at, arrived_at, time_window_ends_at, recovery_of_stop_id, failure ->> 'reason_key' AS reason_key
                                   FROM stops WHERE tenant_id = ${tenantId}`);
    const samples = await rows(sql`SELECT stop_id, published_at, eta FROM stop_eta_samples WHERE tenant_id = ${tenantId}`);
    const positions = await rows(sql`SELECT id, tour_id, lat, lng, recorded_at FROM driver_positions WHERE tenant_id = ${tenantId} AND filtered IS NULL`);
    const users = new Map((await rows(sql`SELECT id, name FROM users WHERE tenant_id = ${tenantId}`)).map((r) => [r.id as string, r.name as string | null]));
    // The simulator dispatches without plans: no tour has a plan's promise, so no driver-day is planned against actual.
    const plans = await rows(sql`SELECT tour_id FROM tour_plans WHERE tenant_id = ${tenantId}`);

    // A stop counts in the period of its completion or failure, on a tour (decisions 1741, 1743).
    const finished = stops
      .map((s) => ({
        id: s.id as string,
        status: s.status as string,
        tourId: s.tour_id as string | null,
        at: s.status === 'completed' ? ms(s.completed_at) : s.status === 'failed' ? ms(s.failed_at) : null,
        arrivedAt: ms(s.arrived_at),
        windowEndsAt: ms(s.time_window_ends_at),
        recovery: s.recovery_of_stop_id !== null,
        reasonKey: s.reason_key as string | null,
      }))
      .filter((s) => s.tourId !== null && s.at !== null && s.at >= from && s.at < to);
    const completed = finished.filter((s) => s.status === 'completed');
    const failed = finished.filter((s) => s.status === 'failed');
    const onTime = completed.filter((s) => s.windowEndsAt === null || s.at! <= s.windowEndsAt);
    const firstAttempts = finished.filter((s) => !s.recovery);
    expect(completed.length + failed.length).toBeGreaterThan(0);

    // Working time: a started tour's start to its completion (else its last counted stop), clipped to the period.
    const tourSeconds = new Map<string, number>();
    for (const tourId of new Set(finished.map((s) => s.tourId!))) {
      const tour = tours.get(tourId)!;
      if (tour.startedAt === null) continue;
      const end = Math.min(tour.completedAt ?? Math.max(...finished.filter((s) => s.tourId === tourId).map((s) => s.at!)), to);
      tourSeconds.set(tourId, Math.max(0, (end - Math.max(tour.startedAt, from)) / 1000));
    }
    const sum = (values: Iterable<number>) => [...values].reduce((a, b) => a + b, 0);

    // Distance: consecutive kept positions of those tours.
    let metres = 0;
    let pairs = 0;
    for (const tourId of tourSeconds.keys()) {
      const track = positions.filter((p) => p.tour_id === tourId).sort((a, b) => ms(a.recorded_at)! - ms(b.recorded_at)! || String(a.id).localeCompare(String(b.id)));
      for (let i = 1; i < track.length; i++) {
        metres += haversine({ lat: Number(track[i - 1]!.lat), lng: Number(track[i - 1]!.lng) }, { lat: Number(track[i]!.lat), lng: Number(track[i]!.lng) });
        pairs += 1;
      }
    }

    // The ETA shown 30 minutes before the arrival, or the first after the tour's start (decision 1740).
    const errors: number[] = [];
    for (const s of finished) {
      const startedAt = tours.get(s.tourId!)!.startedAt;
      if (s.arrivedAt === null || startedAt === null) continue;
      const mine = samples.filter((x) => x.stop_id === s.id && ms(x.published_at)! <= s.arrivedAt!).map((x) => ({ at: ms(x.published_at)!, eta: ms(x.eta)! }));
      const cutoff = s.arrivedAt - 30 * 60_000;
      const latest = cutoff >= startedAt ? mine.filter((x) => x.at <= cutoff).sort((a, b) => b.at - a.at)[0] : undefined;
      const first = mine.filter((x) => x.at >= Math.floor(startedAt / 60_000) * 60_000).sort((a, b) => a.at - b.at)[0];
      const shown = latest ?? first;
      if (shown) errors.push(Math.abs(s.arrivedAt - shown.eta) / 1000);
    }
    errors.sort((a, b) => a - b);

    const drivers = new Map<string, { completed: number; onTime: number; seconds: number }>();
    for (const s of finished) {
      const driverId = tours.get(s.tourId!)!.driverId;
      if (!driverId) continue;
      const d = drivers.get(driverId) ?? { completed: 0, onTime: 0, seconds: 0 };
      if (s.status === 'completed') d.completed += 1;
      if (onTime.includes(s)) d.onTime += 1;
      drivers.set(driverId, d);
    }
    for (const [tourId, seconds] of tourSeconds) {
      const d = drivers.get(tours.get(tourId)!.driverId ?? '');
      if (d) d.seconds += seconds;
    }
    const days = new Map<string, { completed: number; onTime: number; failed: number }>();
    for (const s of finished) {
      const date = berlinDate.format(new Date(s.at!));
      const d = days.get(date) ?? { completed: 0, onTime: 0, failed: 0 };
      if (s.status === 'completed') d.completed += 1;
      else d.failed += 1;
      if (onTime.includes(s)) d.onTime += 1;
      days.set(date, d);
    }
    const reasons = new Map<string | null, number>();
    for (const s of failed) reasons.set(s.reasonKey, (reasons.get(s.reasonKey) ?? 0) + 1);

    const { distance_km: distanceKm, ...rest } = figures;
    expect(rest).toEqual({
      from: period.from,
      to: period.to,
      stops: { completed: completed.length, failed: failed.length, on_time: onTime.length, late: completed.length - onTime.length },
      on_time_rate: rate(onTime.length, completed.length),
      first_attempt_success_rate: rate(firstAttempts.filter((s) => s.status === 'completed').length, firstAttempts.length),
      eta_error_s: errors.length ? { mae: Math.round(sum(errors) / errors.length), p90: Math.round(percentileCont(errors, 0.9)), samples: errors.length } : null,
      stops_per_hour: perHour(completed.length, sum(tourSeconds.values())),
      by_driver: [...drivers]
        .map(([id, d]) => ({ driver_id: id, name: users.get(id) ?? null, stops_completed: d.completed, on_time_rate: rate(d.onTime, d.completed), stops_per_hour: perHour(d.completed, d.seconds) }))
        .sort((a, b) => b.stops_completed - a.stops_completed || (a.driver_id < b.driver_id ? -1 : 1)),
      by_failure_reason: [...reasons].map(([reason_key, count]) => ({ reason_key, count })).sort((a, b) => b.count - a.count || String(a.reason_key).localeCompare(String(b.reason_key))),
      by_day: [...days]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([date, d]) => ({ date, completed: d.completed, on_time: d.onTime, late: d.completed - d.onTime, failed: d.failed, on_time_rate: rate(d.onTime, d.completed) })),
      by_driver_day: [],
    });
    expect(plans).toEqual([]);
    // Sums of floating-point legs in another order may differ in the last bits: the same to the 0.1 km shown.
    if (pairs === 0) expect(distanceKm).toBeNull();
    else expect(Math.abs(distanceKm - round(metres / 1000, 1))).toBeLessThanOrEqual(0.1);
    // The run exercised what the figures are about: positions (distance, ETAs) and finished stops.
    expect(pairs).toBeGreaterThan(0);
    expect(errors.length).toBeGreaterThan(0);
  }, 180_000);
});
