// Planning with drivers' shifts through the HTTP API (docs/api-guide.md "Optimising tours and planning dispatch"; decisions 1301, 1302).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../test/app.ts';
import { createBooking, createUser, createWebhook, eventsOf, expectOk, type CreatedUser } from '../../../../test/factories.ts';
import { at, DEPOT, planningWorld, shift, type World } from '../../../../test/planning.ts';
import { startWebhookReceiver, verifyWebhook } from '../../../../test/webhook-receiver.ts';
import { createWorker } from '../../../worker/loop.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t?.close());

const world = (drivers: number) => planningWorld(t, drivers);
const place = (lng: number) => ({ location: { lat: 52.5, lng }, address: { street: 'Torstraße', number: String(Math.round(lng * 1000)), city: 'Berlin' } });

/** A pickup at the depot and a drop-off at `lng`, with `packages` packages (1 kg each) and the drop-off's extras. */
async function booking(w: World, lng: number, options: { packages?: number; dropoff?: Record<string, unknown> } = {}) {
  return createBooking(w.manager.client, {
    service_id: w.serviceId,
    managing_organization_ids: [w.org],
    stops: [
      { type: 'pickup', location: DEPOT, address: { street: 'Depot', number: '1', city: 'Berlin' } },
      { type: 'dropoff', ...place(lng), ...(options.dropoff ?? {}) },
    ],
    packages: Array.from({ length: options.packages ?? 1 }, () => ({ pickup_stop_index: 0, dropoff_stop_index: 1, weight_grams: 1000 })),
  });
}

interface PlannedTour {
  tour_id: string | null;
  driver_id: string;
  shift_id: string;
  starts_at: string;
  ends_at: string;
  stop_ids: string[];
  booking_ids: string[];
  etas: string[];
}

describe('planning with drivers', () => {
  it('places a booking of one pickup and two drop-offs on a free 8-hour shift (was unplaced: shift_too_short)', async () => {
    const w = await world(1);
    await shift(w, w.drivers[0]!, '08:00', '16:00');
    const b = await createBooking(w.manager.client, {
      service_id: w.serviceId,
      managing_organization_ids: [w.org],
      stops: [{ type: 'pickup', location: DEPOT, address: { street: 'Depot', number: '1', city: 'Berlin' } }, { type: 'dropoff', ...place(13.45) }, { type: 'dropoff', ...place(13.38) }],
      packages: [{ pickup_stop_index: 0, dropoff_stop_index: 1, weight_grams: 1000 }, { pickup_stop_index: 0, dropoff_stop_index: 2, weight_grams: 1000 }],
    });
    const plan = (await expectOk(w.manager.client.post('/api/hailing/dispatch/plan', { booking_ids: [b.id], drivers: [w.drivers[0]!.id], time_limit_ms: 300 }))).plan;
    expect(plan.unplaced).toEqual([]);
    expect(plan.tours).toHaveLength(1);
    expect(plan.tours[0].stop_ids[0]).toBe(b.stops[0].id);
    expect([...plan.tours[0].stop_ids].sort()).toEqual(b.stops.map((s: { id: string }) => s.id).sort());
  });

  it('gives each tour one shift: inside its hours, within its capacity, starting and ending at its depot', async () => {
    const w = await world(2);
    const shifts = [await shift(w, w.drivers[0]!, '08:00', '16:00', { capacity: { packages: 3 } }), await shift(w, w.drivers[1]!, '09:00', '17:00', { capacity: { packages: 3 } })];
    const bookings = [];
    for (let i = 0; i < 5; i++) bookings.push(await booking(w, 13.41 + i * 0.01));
    const body = await expectOk(w.manager.client.post('/api/hailing/dispatch/plan', { booking_ids: bookings.map((b) => b.id), drivers: w.drivers.map((d) => d.id), time_limit_ms: 300 }));
    const plan = body.plan;
    expect(plan.objective).toBe('balanced');
    expect(plan.unplaced).toEqual([]);
    const tours = plan.tours as PlannedTour[];
    // 5 packages, 3 per vehicle: both shifts are needed.
    expect(tours).toHaveLength(2);
    expect(tours.flatMap((x) => x.booking_ids).sort()).toEqual(bookings.map((b) => b.id).sort());
    for (const tour of tours) {
      const s = shifts.find((x) => x.id === tour.shift_id)!;
      expect(tour.driver_id).toBe(s.driver_id);
      expect(tour.starts_at >= s.starts_at).toBe(true);
      expect(tour.ends_at <= s.ends_at).toBe(true);
      for (const eta of tour.etas) expect(eta >= s.starts_at && eta <= s.ends_at).toBe(true);
      // At most 3 packages on board: pickups at the depot come before their drop-offs, 1 package per booking.
      expect(tour.booking_ids.length).toBeLessThanOrEqual(3);
    }
    expect(body.tours).toEqual([]);
  });

  it('names why a booking is unplaced: window, skills, capacity, shift too short, no driver', async () => {
    const w = await world(2);
    const [early, late] = w.drivers as [CreatedUser, CreatedUser];
    const s1 = await shift(w, early, '08:00', '12:00', { capacity: { packages: 4, weight_kg: 100 }, skills: ['cooling'] });
    await shift(w, late, '12:00', '13:00', { capacity: { packages: 4, weight_kg: 100 } });
    const fits = await booking(w, 13.42);
    const window = await booking(w, 13.42, { dropoff: { time_window: { starts_at: at('06:00'), ends_at: at('07:00') } } });
    const skills = await booking(w, 13.42, { dropoff: { required_skills: ['crane'] } });
    const heavy = await booking(w, 13.42, { packages: 5 });
    // 2° of longitude east of Berlin is ~135 km: hours away at the area's speed, more than either shift.
    const far = await booking(w, 15.4);
    const plan = (await expectOk(w.manager.client.post('/api/hailing/dispatch/plan', { booking_ids: [fits, window, skills, heavy, far].map((b) => b.id), drivers: [early.id, late.id], time_limit_ms: 300 }))).plan;
    expect((plan.tours as PlannedTour[]).flatMap((x) => x.booking_ids)).toEqual([fits.id]);
    const reasonOf = (id: string) => {
      const entries = (plan.unplaced as { booking_id: string; reason: string; detail: string }[]).filter((u) => u.booking_id === id);
      expect(entries).toHaveLength(2);
      return entries[0]!;
    };
    expect(reasonOf(window.id)).toMatchObject({ reason: 'time_window' });
    expect(reasonOf(window.id).detail).toContain(at('07:00'));
    expect(reasonOf(skills.id)).toMatchObject({ reason: 'skills' });
    expect(reasonOf(skills.id).detail).toContain('"crane"');
    expect(reasonOf(heavy.id)).toMatchObject({ reason: 'capacity' });
    expect(reasonOf(far.id)).toMatchObject({ reason: 'shift_too_short' });
    expect(reasonOf(far.id).detail).toContain(s1.id);
    // A driver without a shift in the bookings' time: nobody to plan with.
    const idle = await createUser(w.tenant.admin, { role: 'driver', organization_ids: [w.org] });
    const none = (await expectOk(w.manager.client.post('/api/hailing/dispatch/plan', { booking_ids: [fits.id], drivers: [idle.id], time_limit_ms: 100 }))).plan;
    expect(none.tours).toEqual([]);
    expect(none.unplaced.map((u: { reason: string }) => u.reason)).toEqual(['no_driver_available', 'no_driver_available']);
  });

  it('applies: the tours are created and force-assigned to their drivers for the shift start', async () => {
    const w = await world(1);
    const s = await shift(w, w.drivers[0]!, '10:00', '18:00');
    const bookings = [await booking(w, 13.41), await booking(w, 13.43)];
    const body = await expectOk(w.manager.client.post('/api/hailing/dispatch/plan', { booking_ids: bookings.map((b) => b.id), drivers: [w.drivers[0]!.id], apply: true, time_limit_ms: 200 }), 201);
    expect(body.plan.applied).toBe(true);
    expect(body.tours).toHaveLength(1);
    expect(body.tours[0]).toMatchObject({ status: 'claimed', driver_id: w.drivers[0]!.id, scheduled_at: s.starts_at });
    expect(body.plan.tours[0].tour_id).toBe(body.tours[0].id);
    // The driver sees its tour.
    expect((await w.drivers[0]!.client.get(`/api/hailing/tours/${body.tours[0].id}`)).status).toBe(200);
  });

  it('refuses drivers the caller may not dispatch to, and objectives that need drivers', async () => {
    const w = await world(1);
    const other = await createUser(w.tenant.admin, { role: 'driver' });
    const b = await booking(w, 13.41);
    const res = await w.manager.client.post('/api/hailing/dispatch/plan', { booking_ids: [b.id], drivers: [w.drivers[0]!.id, other.id] });
    expect(res.status).toBe(422);
    expect(res.body.errors[0]).toMatchObject({ pointer: '/drivers/1', code: 'unknown_reference' });
    const objective = await w.manager.client.post('/api/hailing/dispatch/plan', { booking_ids: [b.id], objective: 'balanced' });
    expect(objective.status).toBe(422);
    expect(objective.body.errors[0]).toMatchObject({ pointer: '/objective', code: 'requires_drivers' });
  });

  it('plans with named shifts: only those, and refuses unknown or invisible shifts and drivers given too', async () => {
    const w = await world(2);
    const [first, second] = w.drivers as [CreatedUser, CreatedUser];
    await shift(w, first, '08:00', '16:00');
    const chosen = await shift(w, second, '09:00', '17:00');
    const b = await booking(w, 13.41);
    const plan = (await expectOk(w.manager.client.post('/api/hailing/dispatch/plan', { booking_ids: [b.id], shift_ids: [chosen.id], time_limit_ms: 200 }))).plan;
    expect(plan.objective).toBe('balanced');
    expect(plan.tours).toHaveLength(1);
    expect(plan.tours[0]).toMatchObject({ tour_id: null, driver_id: second.id, shift_id: chosen.id, booking_ids: [b.id] });
    // Both ways of naming the fleet at once.
    const both = await w.manager.client.post('/api/hailing/dispatch/plan', { booking_ids: [b.id], drivers: [first.id], shift_ids: [chosen.id] });
    expect(both.status).toBe(422);
    expect(both.body.errors[0]).toMatchObject({ pointer: '/shift_ids', code: 'exclusive' });
    // A shift that does not exist, and one of a driver of another organization: as an unknown driver.
    const stranger = await createUser(w.tenant.admin, { role: 'driver' });
    const theirs = (await expectOk(w.tenant.admin.post(`/api/drivers/${stranger.id}/shifts`, { shift: { starts_at: at('08:00'), ends_at: at('16:00'), start_location: DEPOT } }), 201)).shift;
    const unknown = await w.manager.client.post('/api/hailing/dispatch/plan', { booking_ids: [b.id], shift_ids: [chosen.id, '0193b2e4-0c1d-7a2e-8f30-00000000dead'] });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors[0]).toMatchObject({ pointer: '/shift_ids/1', code: 'unknown_reference' });
    const invisible = await w.manager.client.post('/api/hailing/dispatch/plan', { booking_ids: [b.id], shift_ids: [theirs.id], async: true });
    expect(invisible.status).toBe(422);
    expect(invisible.body.errors[0]).toMatchObject({ pointer: '/shift_ids/0', code: 'unknown_reference' });
    // An admin may plan with it (the booking's managing organization is not the driver's: nobody may serve it).
    const admins = (await expectOk(w.tenant.admin.post('/api/hailing/dispatch/plan', { booking_ids: [b.id], shift_ids: [theirs.id], time_limit_ms: 100 }))).plan;
    expect(admins.tours).toEqual([]);
    expect(admins.unplaced[0]).toMatchObject({ booking_id: b.id, reason: 'no_driver_available' });
  });

  it('runs a plan as a job: 202, polled until done, applied, and dispatch.plan_ready delivered', async () => {
    const w = await world(1);
    const receiver = await startWebhookReceiver();
    const hook = await createWebhook(w.tenant.admin, receiver.url, { events: ['dispatch.plan_ready'] });
    await shift(w, w.drivers[0]!, '08:00', '16:00');
    const bookings = [await booking(w, 13.41), await booking(w, 13.42)];
    const started = await expectOk(w.manager.client.post('/api/hailing/dispatch/plan', { booking_ids: bookings.map((b) => b.id), drivers: [w.drivers[0]!.id], apply: true, async: true, time_limit_ms: 200 }), 202);
    expect(started.plan).toMatchObject({ status: 'running', finished_at: null });
    const url = `/api/hailing/dispatch/plans/${started.plan.id}`;
    expect((await expectOk(w.manager.client.get(url))).plan.status).toBe('running');
    // Only whoever asked (and admins) see it.
    const stranger = await createUser(w.tenant.admin, { role: 'manager', organization_ids: [w.org] });
    expect((await stranger.client.get(url)).status).toBe(404);
    await createWorker(t.deps).drain();
    const done = (await expectOk(w.tenant.admin.get(url))).plan;
    expect(done).toMatchObject({ status: 'done', applied: true, objective: 'balanced', unplaced: [] });
    expect(done.tour_ids).toHaveLength(1);
    expect(done.tours[0].tour_id).toBe(done.tour_ids[0]);
    const tour = (await expectOk(w.manager.client.get(`/api/hailing/tours/${done.tour_ids[0]}`))).tour;
    expect(tour).toMatchObject({ status: 'claimed', driver_id: w.drivers[0]!.id });
    const events = await eventsOf(w.tenant.admin, started.plan.id, 'dispatch.plan_ready');
    expect(events).toHaveLength(1);
    expect(events[0].data).toMatchObject({ plan_id: started.plan.id, status: 'done', applied: true, tour_ids: done.tour_ids, unplaced_count: 0 });
    try {
      await createWorker(t.deps).drain();
      await receiver.waitFor(1);
      const [delivered] = receiver.received;
      expect(delivered!.json).toMatchObject({ type: 'dispatch.plan_ready', resource_type: 'dispatch', event: 'plan_ready', data: { plan_id: started.plan.id, status: 'done' } });
      verifyWebhook(hook.secret, delivered!, t.clock.now());
    } finally {
      await receiver.close();
    }
  });

  it('fails a job whose stops were dispatched meanwhile, with the reason', async () => {
    const w = await world(1);
    await shift(w, w.drivers[0]!, '08:00', '16:00');
    const b = await booking(w, 13.41);
    const started = await expectOk(w.manager.client.post('/api/hailing/dispatch/plan', { booking_ids: [b.id], drivers: [w.drivers[0]!.id], apply: true, async: true, time_limit_ms: 100 }), 202);
    await expectOk(w.manager.client.post('/api/hailing/bookings/merge', { booking_ids: [b.id] }), 201);
    await createWorker(t.deps).drain();
    const failed = (await expectOk(w.manager.client.get(`/api/hailing/dispatch/plans/${started.plan.id}`))).plan;
    expect(failed.status).toBe('failed');
    expect(failed.error.error_code).toBe('validation_failed');
  });
});
