// Delivery analytics through the API (contract §17): every figure against a hand-computed Berlin day on its
// daylight-saving change, the day boundary in the area's time zone, pickups narrowed by filters[stop_type], the ETA
// error from the ETAs as they were shown, the manager's visibility, CSV equal to JSON, and a tour's plan against actual.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/app.ts';
import { createBooking, createOrganization, createService, createServiceArea, createUser, driveStop, expectOk, tourEnRoute, type Client } from '../../../test/factories.ts';
import { planningWorld, shift, type World } from '../../../test/planning.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

// 2026-03-29: Berlin moves from CET (+01) to CEST (+02) at 01:00Z; the Berlin day is 23 hours long.
const BERLIN_DAY = { from: '2026-03-28T23:00:00.000Z', to: '2026-03-29T22:00:00.000Z' };
const TWO_DAYS = { from: '2026-03-28T23:00:00.000Z', to: '2026-03-30T22:00:00.000Z' };
const stop = (type: string, n: number, window?: { starts_at: string; ends_at: string }) => ({
  type,
  location: { lat: 52.5 + n / 100, lng: 13.4 + n / 100 },
  address: { street: 'Torstraße', number: String(n), city: 'Berlin' },
  ...(window ? { time_window: window } : {}),
});
const until = (ends: string) => ({ starts_at: '2026-03-29T04:00:00.000Z', ends_at: ends });

const analytics = async (client: Client, period: { from: string; to: string }, extra = '') =>
  (await expectOk(client.get(`/api/analytics/deliveries?from=${period.from}&to=${period.to}${extra}`))).analytics;

async function at(iso: string, step: () => Promise<unknown>) {
  t.clock.set(iso);
  await step();
}

/**
 * The day: a pickup without window at 05:30 (on time), a drop-off early in its window (on time), one after its window
 * (late), one failed with the recipient absent and reattempted at once (the reattempt completed: not a first attempt),
 * a cancelled booking (not counted), and a drop-off at 00:30 Berlin time the next day (22:30Z).
 */
async function handComputedDay(w: World) {
  const driver = w.drivers[0]!;
  const a = await createBooking(w.manager.client, {
    service_id: w.serviceId,
    managing_organization_ids: [w.org],
    stops: [stop('pickup', 1), stop('dropoff', 2, until('2026-03-29T07:00:00.000Z')), stop('dropoff', 3, until('2026-03-29T07:00:00.000Z')), stop('dropoff', 4), stop('dropoff', 5)],
    packages: [1, 2, 3, 4].map((i) => ({ pickup_stop_index: 0, dropoff_stop_index: i })),
  });
  const cancelled = await createBooking(w.manager.client, { service_id: w.serviceId, managing_organization_ids: [w.org], stops: [stop('pickup', 6), stop('dropoff', 7)] });
  t.clock.set('2026-03-29T05:00:00.000Z');
  const tour = await tourEnRoute(w.manager.client, [a.id, cancelled.id], driver.id);
  await expectOk(w.manager.client.post(`/api/hailing/bookings/${cancelled.id}/cancel`, {}));
  const [pickup, early, late, absent, nextDay] = a.stops;
  await at('2026-03-29T05:30:00.000Z', () => driveStop(driver.client, pickup.id, 'completed'));
  await at('2026-03-29T06:30:00.000Z', () => driveStop(driver.client, early.id, 'completed'));
  await at('2026-03-29T07:30:00.000Z', () => driveStop(driver.client, late.id, 'completed'));
  await at('2026-03-29T08:00:00.000Z', async () => {
    await driveStop(driver.client, absent.id, 'arrived');
    await expectOk(driver.client.post(`/api/stops/${absent.id}/fail`, { outcome: 'reattempt_now', reason_key: 'customer_absent' }));
  });
  const reattempt = (await expectOk(w.manager.client.get(`/api/hailing/tours/${tour.id}`))).tour.stops.find((s: { recovery_of_stop_id: string | null }) => s.recovery_of_stop_id === absent.id);
  expect(reattempt).toBeTruthy();
  await at('2026-03-29T08:45:00.000Z', () => driveStop(driver.client, reattempt.id, 'completed'));
  await at('2026-03-29T22:30:00.000Z', () => driveStop(driver.client, nextDay.id, 'completed'));
  return { tour, driver };
}

describe('GET /api/analytics/deliveries', () => {
  it('answers every figure of a hand-computed day on the daylight-saving change, the next Berlin day apart', async () => {
    const w = await planningWorld(t, 1);
    const { driver, tour } = await handComputedDay(w);
    const day = await analytics(w.tenant.admin, BERLIN_DAY);
    // Counted: pickup, early, late (completed), absent (failed), reattempt (completed). Not: the cancelled booking, 22:30Z.
    expect(day).toMatchObject({
      from: BERLIN_DAY.from,
      to: BERLIN_DAY.to,
      stops: { completed: 4, failed: 1, on_time: 3, late: 1 },
      on_time_rate: 0.75,
      // First attempts: pickup, early, late, absent; three succeeded.
      first_attempt_success_rate: 0.75,
      distance_km: null,
      by_failure_reason: [{ reason_key: 'customer_absent', count: 1 }],
      by_day: [{ date: '2026-03-29', completed: 4, on_time: 3, late: 1, failed: 1, on_time_rate: 0.75 }],
    });
    // Working time: the 05:00Z start to the tour's completion (22:30Z), clipped to the period's end (22:00Z): 17 h.
    expect(day.stops_per_hour).toBe(Math.round((4 / 17) * 100) / 100);
    expect(day.by_driver).toEqual([{ driver_id: driver.id, name: driver.user.name, stops_completed: 4, on_time_rate: 0.75, stops_per_hour: day.stops_per_hour }]);
    // No position was sent: live tracking published no ETA, so there is no ETA error to measure.
    expect(day.eta_error_s).toBeNull();

    const both = await analytics(w.tenant.admin, TWO_DAYS);
    expect(both.stops).toEqual({ completed: 5, failed: 1, on_time: 4, late: 1 });
    expect(both.by_day).toEqual([
      { date: '2026-03-29', completed: 4, on_time: 3, late: 1, failed: 1, on_time_rate: 0.75 },
      { date: '2026-03-30', completed: 1, on_time: 1, late: 0, failed: 0, on_time_rate: 1 },
    ]);
    // The tour completed at 22:30Z: its working time is 17.5 h.
    expect(both.stops_per_hour).toBe(Math.round((5 / 17.5) * 100) / 100);

    const pickups = await analytics(w.tenant.admin, BERLIN_DAY, '&filters[stop_type]=pickup');
    expect(pickups).toMatchObject({ stops: { completed: 1, failed: 0, on_time: 1, late: 0 }, on_time_rate: 1, first_attempt_success_rate: 1, by_failure_reason: [] });
    const areaOnly = await analytics(w.tenant.admin, BERLIN_DAY, `&service_area_id=${tour.service_area_id}`);
    expect(areaOnly.stops).toEqual(day.stops);

    const empty = await analytics(w.tenant.admin, { from: '2026-03-01T00:00:00Z', to: '2026-03-02T00:00:00Z' });
    expect(empty).toMatchObject({ stops: { completed: 0, failed: 0, on_time: 0, late: 0 }, on_time_rate: null, first_attempt_success_rate: null, eta_error_s: null, stops_per_hour: null, by_driver: [], by_day: [], by_failure_reason: [] });

    // The same figures as CSV: one row per figure group, the JSON members as the header.
    const csv = await w.tenant.admin.get(`/api/analytics/deliveries?from=${BERLIN_DAY.from}&to=${BERLIN_DAY.to}`, { headers: { accept: 'text/csv' } });
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    const lines = csv.text.replace(/^\ufeff/, '').trim().split('\r\n').map((l: string) => l.split(','));
    const header = lines[0]!;
    const rowOf = (section: string) => Object.fromEntries(header.map((h: string, i: number) => [h, lines.find((l: string[]) => l[0] === section)![i]]));
    expect(rowOf('total')).toMatchObject({ stops_completed: '4', stops_failed: '1', stops_on_time: '3', stops_late: '1', on_time_rate: '0.75', first_attempt_success_rate: '0.75', eta_error_s_samples: '', distance_km: '' });
    expect(rowOf('by_driver')).toMatchObject({ driver_id: driver.id, stops_completed: '4', on_time_rate: '0.75' });
    expect(rowOf('by_day')).toMatchObject({ date: '2026-03-29', completed: '4', on_time: '3', late: '1', failed: '1', on_time_rate: '0.75' });
    expect(rowOf('by_failure_reason')).toMatchObject({ reason_key: 'customer_absent', count: '1' });
  });

  it('counts each stop on the day of its own area’s time zone, with several areas sharing a zone (decision 1778)', async () => {
    const tenant = await t.createTenant();
    const org = (await createOrganization(tenant.admin)).id;
    const driver = await createUser(tenant.admin, { role: 'driver', organization_ids: [org] });
    // Two Berlin areas (they share one row of the zone list) and New York: 23:30Z on 10 March is 00:30 on the 11th in
    // Berlin (CET, +01) and 19:30 on the 10th in New York (EDT since 8 March, −04).
    const areas = [{ time_zone: 'Europe/Berlin' }, { time_zone: 'Europe/Berlin' }, { time_zone: 'America/New_York', currency: 'USD' }];
    t.clock.set('2026-03-10T20:00:00.000Z');
    for (const area of areas) {
      const service = await createService(tenant.admin, { service_area_id: (await createServiceArea(tenant.admin, area)).id });
      const booking = await createBooking(tenant.admin, { service_id: service.id, stops: [stop('pickup', 1), stop('dropoff', 2)] });
      await tourEnRoute(tenant.admin, [booking.id], driver.id);
      await at('2026-03-10T23:30:00.000Z', async () => {
        for (const s of booking.stops) await driveStop(driver.client, s.id, 'completed');
      });
    }
    const figures = await analytics(tenant.admin, { from: '2026-03-10T00:00:00.000Z', to: '2026-03-12T00:00:00.000Z' });
    expect(figures.stops).toEqual({ completed: 6, failed: 0, on_time: 6, late: 0 });
    expect(figures.by_day).toEqual([
      { date: '2026-03-10', completed: 2, on_time: 2, late: 0, failed: 0, on_time_rate: 1 },
      { date: '2026-03-11', completed: 4, on_time: 4, late: 0, failed: 0, on_time_rate: 1 },
    ]);
    expect(figures.by_driver).toMatchObject([{ driver_id: driver.id, stops_completed: 6 }]);
  });

  it('measures the ETA error against the ETA shown 30 minutes before the arrival, or the first after the start', async () => {
    const w = await planningWorld(t, 1);
    const driver = w.drivers[0]!;
    const booking = await createBooking(w.manager.client, {
      service_id: w.serviceId,
      managing_organization_ids: [w.org],
      stops: [stop('pickup', 1), stop('dropoff', 20)],
      packages: [{ pickup_stop_index: 0, dropoff_stop_index: 1 }],
    });
    t.clock.set('2026-05-04T08:00:00.000Z');
    const tour = await tourEnRoute(w.manager.client, [booking.id], driver.id);
    const [pickup, dropoff] = booking.stops;
    const etaOf = async (id: string) => new Date((await expectOk(w.manager.client.get(`/api/stops/${id}`))).stop.eta).getTime();
    const position = (iso: string, lat: number) => () => expectOk(driver.client.post(`/api/hailing/tours/${tour.id}/driver_location`, { location: { lat, lng: 13.45, recorded_at: iso } }));
    // The pickup arrives 10 minutes after the start: its error is against the first ETA after the start (08:01).
    await at('2026-05-04T08:01:00.000Z', position('2026-05-04T08:01:00.000Z', 52.52));
    const pickupFirst = await etaOf(pickup.id);
    await at('2026-05-04T08:10:00.000Z', () => driveStop(driver.client, pickup.id, 'completed'));
    // A position at 08:20 moves the drop-off's ETA; at 08:50 (30 minutes later) the drop-off arrives.
    await at('2026-05-04T08:20:00.000Z', position('2026-05-04T08:20:00.000Z', 52.6));
    const dropoffShown = await etaOf(dropoff.id);
    await at('2026-05-04T08:50:00.000Z', () => driveStop(driver.client, dropoff.id, 'completed'));
    const errors = [Math.abs(Date.parse('2026-05-04T08:10:00Z') - pickupFirst) / 1000, Math.abs(Date.parse('2026-05-04T08:50:00Z') - dropoffShown) / 1000];
    const figures = await analytics(w.tenant.admin, { from: '2026-05-04T00:00:00Z', to: '2026-05-05T00:00:00Z' });
    const [low, high] = [...errors].sort((x, y) => x - y) as [number, number];
    // p90 of two values interpolates between them (percentile_cont).
    expect(figures.eta_error_s).toEqual({ mae: Math.round((low + high) / 2), p90: Math.round(low + 0.9 * (high - low)), samples: 2 });
    // The drop-off's samples were pruned when it left the open stops: the one shown at 08:20 (30 minutes before) and later.
    const kept = (await t.deps.db.execute(sql`SELECT published_at FROM stop_eta_samples WHERE stop_id = ${dropoff.id}::uuid ORDER BY published_at`)) as unknown as { rows: { published_at: Date | string }[] };
    expect(kept.rows.map((r) => new Date(r.published_at).toISOString())).toEqual(['2026-05-04T08:20:00.000Z']);
    // The positions are the distance driven: 52.52 → 52.6 on one meridian, about 8.9 km.
    expect(figures.distance_km).toBeCloseTo(8.9, 1);
  });

  it('shows a manager only the stops of the tours its organizations see; 403 to drivers and customers', async () => {
    const w = await planningWorld(t, 1);
    const other = await createOrganization(w.tenant.admin);
    const otherDriver = await createUser(w.tenant.admin, { role: 'driver', organization_ids: [other.id] });
    const otherManager = await createUser(w.tenant.admin, { role: 'manager', organization_ids: [other.id] });
    t.clock.set('2026-06-10T08:00:00.000Z');
    const mine = await createBooking(w.manager.client, { service_id: w.serviceId, managing_organization_ids: [w.org], stops: [stop('pickup', 1), stop('dropoff', 2)] });
    const theirs = await createBooking(w.tenant.admin, { service_id: w.serviceId, managing_organization_ids: [other.id], stops: [stop('pickup', 3), stop('dropoff', 4)] });
    await tourEnRoute(w.manager.client, [mine.id], w.drivers[0]!.id);
    await tourEnRoute(w.tenant.admin, [theirs.id], otherDriver.id);
    for (const s of mine.stops) await at('2026-06-10T09:00:00.000Z', () => driveStop(w.drivers[0]!.client, s.id, 'completed'));
    await at('2026-06-10T09:30:00.000Z', () => driveStop(otherDriver.client, theirs.stops[0].id, 'completed'));
    const period = { from: '2026-06-10T00:00:00Z', to: '2026-06-11T00:00:00Z' };
    expect((await analytics(w.tenant.admin, period)).stops.completed).toBe(3);
    const seen = await analytics(w.manager.client, period);
    expect(seen.stops.completed).toBe(2);
    expect(seen.by_driver.map((d: { driver_id: string }) => d.driver_id)).toEqual([w.drivers[0]!.id]);
    expect((await analytics(otherManager.client, period)).stops.completed).toBe(1);
    // A filter on an organization the manager is not in narrows to nothing; the admin's filter is that organization's view.
    expect((await analytics(w.manager.client, period, `&organization_id=${other.id}`)).stops.completed).toBe(0);
    expect((await analytics(w.tenant.admin, period, `&organization_id=${other.id}`)).stops.completed).toBe(1);
    expect((await w.drivers[0]!.client.get(`/api/analytics/deliveries?from=${period.from}&to=${period.to}`)).status).toBe(403);
    const customer = await createUser(w.tenant.admin, { role: 'customer' });
    expect((await customer.client.get(`/api/analytics/deliveries?from=${period.from}&to=${period.to}`)).status).toBe(403);
  });

  it('refuses a missing, reversed or too long period and unknown filters with problem+json and the parameter', async () => {
    const w = await planningWorld(t, 0);
    const get = (q: string) => w.tenant.admin.get(`/api/analytics/deliveries?${q}`);
    const reversed = await get('from=2026-06-02T00:00:00Z&to=2026-06-01T00:00:00Z');
    expect(reversed.status).toBe(400);
    expect(reversed.body).toMatchObject({ error_code: 'parameter_invalid', errors: [{ pointer: '/to' }] });
    expect((await get('from=2024-01-01T00:00:00Z&to=2026-01-01T00:00:00Z')).body.error_code).toBe('parameter_invalid');
    expect((await get('to=2026-06-01T00:00:00Z')).status).toBe(400);
    expect((await get('from=yesterday&to=2026-06-01T00:00:00Z')).status).toBe(400);
    const unknown = await get('from=2026-06-01T00:00:00Z&to=2026-06-02T00:00:00Z&filters[driver]=x');
    expect(unknown.status).toBe(400);
    expect(unknown.body.error_code).toBe('parameter_unknown');
    expect((await get('from=2026-06-01T00:00:00Z&to=2026-06-02T00:00:00Z&filters[stop_type]=lunch')).status).toBe(400);
  });
});

describe('planned against actual per driver-day (by_driver_day)', () => {
  it('sets what the applied plan promised beside what the tour did; tours no plan made are not listed', async () => {
    const w = await planningWorld(t, 2);
    const [driver, other] = [w.drivers[0]!, w.drivers[1]!];
    t.clock.set('2026-06-01T07:30:00.000Z');
    await shift(w, driver, '08:00', '16:00');
    const bookings = [];
    for (const n of [1, 3]) bookings.push(await createBooking(w.manager.client, { service_id: w.serviceId, managing_organization_ids: [w.org], stops: [stop('pickup', n), stop('dropoff', n + 1)] }));
    const plan = (await expectOk(w.manager.client.post('/api/hailing/dispatch/plan', { booking_ids: bookings.map((b) => b.id), drivers: [driver.id], apply: true, time_limit_ms: 500 }), 201)).plan;
    expect(plan.unplaced, JSON.stringify(plan.unplaced)).toEqual([]);
    const planned = plan.tours[0];
    // A tour no plan made, the same day, by another driver: not in by_driver_day.
    const unplanned = await createBooking(w.manager.client, { service_id: w.serviceId, managing_organization_ids: [w.org], stops: [stop('pickup', 4), stop('dropoff', 5)] });
    const manual = await tourEnRoute(w.manager.client, [unplanned.id], other.id);
    await at('2026-06-01T08:10:00.000Z', () => expectOk(driver.client.post(`/api/hailing/tours/${planned.tour_id}/start`)));
    const stops = (await expectOk(w.manager.client.get(`/api/hailing/tours/${planned.tour_id}`))).tour.stops.sort((a: { tour_position: number }, b: { tour_position: number }) => a.tour_position - b.tour_position);
    await at('2026-06-01T08:30:00.000Z', () => driveStop(driver.client, stops[0].id, 'completed'));
    await at('2026-06-01T09:00:00.000Z', () => driveStop(driver.client, stops[1].id, 'completed'));
    await at('2026-06-01T09:10:00.000Z', () => driveStop(driver.client, stops[2].id, 'completed'));
    await at('2026-06-01T09:20:00.000Z', async () => {
      await driveStop(driver.client, stops[3].id, 'arrived');
      await expectOk(driver.client.post(`/api/stops/${stops[3].id}/fail`, { outcome: 'skip_recovery', reason_key: 'customer_absent' }));
    });
    await at('2026-06-01T09:30:00.000Z', () => driveStop(other.client, manual.stops[0].id, 'completed'));
    const day = await analytics(w.tenant.admin, { from: '2026-05-31T22:00:00.000Z', to: '2026-06-01T22:00:00.000Z' });
    expect(day.by_driver_day).toEqual([
      {
        driver_id: driver.id,
        name: driver.user.name,
        date: '2026-06-01',
        tours: 1,
        planned: { stops: 4, distance_m: planned.distance_m, finish_at: planned.ends_at },
        actual: { stops_completed: 3, stops_failed: 1, distance_m: null, finish_at: '2026-06-01T09:20:00.000Z' },
      },
    ]);
    const csv = await w.tenant.admin.get('/api/analytics/deliveries?from=2026-05-31T22:00:00.000Z&to=2026-06-01T22:00:00.000Z', { headers: { accept: 'text/csv' } });
    const lines = csv.text.replace(/^\ufeff/, '').trim().split('\r\n').map((l: string) => l.split(','));
    const row = Object.fromEntries(lines[0]!.map((h: string, i: number) => [h, lines.find((l: string[]) => l[0] === 'by_driver_day')![i]]));
    expect(row).toMatchObject({ driver_id: driver.id, date: '2026-06-01', tours: '1', planned_stops: '4', planned_finish_at: planned.ends_at, actual_stops_completed: '3', actual_stops_failed: '1', actual_finish_at: '2026-06-01T09:20:00.000Z' });
  });
});

describe('GET /api/analytics/tours/{id}', () => {
  it('answers a tour no plan made with planned null and what happened; 404 to a manager who does not see it', async () => {
    const w = await planningWorld(t, 1);
    t.clock.set('2026-06-12T08:00:00.000Z');
    const booking = await createBooking(w.manager.client, { service_id: w.serviceId, managing_organization_ids: [w.org], stops: [stop('pickup', 1), stop('dropoff', 2)] });
    const tour = await tourEnRoute(w.manager.client, [booking.id], w.drivers[0]!.id);
    await at('2026-06-12T08:30:00.000Z', () => driveStop(w.drivers[0]!.client, booking.stops[0].id, 'completed'));
    const running = (await expectOk(w.manager.client.get(`/api/analytics/tours/${tour.id}`))).tour_analytics;
    expect(running).toEqual({ planned: null, actual: { stops_completed: 1, stops_failed: 0, distance_m: null, finish_at: null } });
    await at('2026-06-12T09:00:00.000Z', () => driveStop(w.drivers[0]!.client, booking.stops[1].id, 'completed'));
    const done = (await expectOk(w.manager.client.get(`/api/analytics/tours/${tour.id}`))).tour_analytics;
    expect(done.actual).toEqual({ stops_completed: 2, stops_failed: 0, distance_m: null, finish_at: '2026-06-12T09:00:00.000Z' });
    const stranger = await createUser(w.tenant.admin, { role: 'manager', organization_ids: [(await createOrganization(w.tenant.admin)).id] });
    expect((await stranger.client.get(`/api/analytics/tours/${tour.id}`)).status).toBe(404);
    expect((await w.drivers[0]!.client.get(`/api/analytics/tours/${tour.id}`)).status).toBe(403);
  });

  it('answers an applied plan’s promise against what happened', async () => {
    const w = await planningWorld(t, 0);
    t.clock.set('2026-06-15T08:00:00.000Z');
    const booking = await createBooking(w.manager.client, { service_id: w.serviceId, managing_organization_ids: [w.org], stops: [stop('pickup', 1), stop('dropoff', 2)] });
    const planned = await expectOk(w.manager.client.post('/api/hailing/dispatch/plan', { booking_ids: [booking.id], apply: true }), 201);
    const tourId = planned.plan.tours[0].tour_id;
    const finish = planned.plan.tours[0].etas.at(-1);
    const body = (await expectOk(w.manager.client.get(`/api/analytics/tours/${tourId}`))).tour_analytics;
    expect(body).toEqual({ planned: { stops: 2, distance_m: null, finish_at: new Date(finish).toISOString() }, actual: { stops_completed: 0, stops_failed: 0, distance_m: null, finish_at: null } });
  });
});
