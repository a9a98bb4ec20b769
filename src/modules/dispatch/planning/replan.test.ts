// Re-planning during the day through the HTTP API (docs/api-guide.md "Optimising tours and planning dispatch"; decision
// 1303): a driver's tour under way keeps its stops done and under way where they are, starts where the driver is, and
// takes new bookings when they fit; apply inserts them into it under its lock, or refuses when it changed meanwhile.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../../test/app.ts';
import { createBooking, driveStop, expectOk, tourEnRoute, type CreatedUser } from '../../../../test/factories.ts';
import { at, buildTestAppHeldAfterRouting, DEPOT, planningWorld, shift, type World } from '../../../../test/planning.ts';

let t: TestApp;
/** Run once a plan has its travel matrix (the solver's search comes next): a test's change "meanwhile". */
let routed: () => Promise<void> = async () => undefined;
beforeAll(async () => {
  t = await buildTestAppHeldAfterRouting(() => routed());
});
afterAll(async () => t?.close());

const address = (lng: number) => ({ street: 'Torstraße', number: String(Math.round(lng * 1000)), city: 'Berlin' });
const world = (drivers: number) => planningWorld(t, drivers);

/** A pickup at `from` (the depot by default) and a drop-off at `to`, one package. */
async function booking(w: World, to: number, from = DEPOT.lng) {
  return createBooking(w.manager.client, {
    service_id: w.serviceId,
    managing_organization_ids: [w.org],
    stops: [
      { type: 'pickup', location: { lat: 52.5, lng: from }, address: address(from) },
      { type: 'dropoff', location: { lat: 52.5, lng: to }, address: address(to) },
    ],
    packages: [{ pickup_stop_index: 0, dropoff_stop_index: 1, weight_grams: 1000 }],
  });
}

const idsOf = (b: { stops: { id: string }[] }) => b.stops.map((s) => s.id);

/** Bookings A and B on one tour the driver has started (A's pickup done, `current` under way); booking C waits. */
async function running(w: World, options: { current?: 'approaching' | 'completed' } = {}) {
  const driver = w.drivers[0]!;
  const a = await booking(w, 13.41);
  const b = await booking(w, 13.43);
  const tour = await tourEnRoute(w.manager.client, [a.id, b.id], driver.id);
  expect(tour.stops.map((s: { id: string }) => s.id)).toEqual([...idsOf(a), ...idsOf(b)]);
  await driveStop(driver.client, a.stops[0].id, 'completed');
  if (options.current) await driveStop(driver.client, a.stops[1].id, options.current);
  return { a, b, tour };
}

async function reportPosition(driver: CreatedUser, tourId: string, lng: number) {
  await expectOk(driver.client.post(`/api/hailing/tours/${tourId}/driver_location`, { location: { lat: 52.5, lng, recorded_at: t.clock.now().toISOString() } }));
}

const plan = (w: World, body: Record<string, unknown>, status = 200) => expectOk(w.manager.client.post('/api/hailing/dispatch/plan', { time_limit_ms: 300, ...body }), status);

/** Each stop's position in the list, for "before" checks. */
const indexIn = (list: readonly string[]) => (id: string) => list.indexOf(id);

describe('re-planning a tour under way', () => {
  it('the re-plan keeps finished stops: done and current stops stay in place and in order, new bookings join the running tour', async () => {
    const w = await world(1);
    await shift(w, w.drivers[0]!, '07:00', '18:00');
    const { a, b, tour } = await running(w, { current: 'approaching' });
    // The driver is far east of the stop under way: the open part starts once it has been reached and served.
    await reportPosition(w.drivers[0]!, tour.id, 13.6);
    const c = await booking(w, 13.42);
    const proposal = (await plan(w, { booking_ids: [c.id], drivers: [w.drivers[0]!.id] })).plan;
    expect(proposal.unplaced).toEqual([]);
    expect(proposal.tours).toHaveLength(1);
    const [replanned] = proposal.tours;
    expect(replanned).toMatchObject({ tour_id: tour.id, running: true, driver_id: w.drivers[0]!.id, kept_stop_ids: idsOf(a) });
    expect([...replanned.stop_ids].sort()).toEqual([...idsOf(b), ...idsOf(c)].sort());
    const pos = indexIn(replanned.stop_ids);
    expect(pos(b.stops[0].id)).toBeLessThan(pos(b.stops[1].id));
    expect(pos(c.stops[0].id)).toBeLessThan(pos(c.stops[1].id));
    // ~13 km from the driver to the stop under way at the area's speed: nothing open is reached before 08:20.
    expect(replanned.starts_at > at('08:20')).toBe(true);
    expect(replanned.etas[0] >= replanned.starts_at).toBe(true);

    const applied = await plan(w, { booking_ids: [c.id], drivers: [w.drivers[0]!.id], apply: true }, 201);
    expect(applied.plan.tours.map((x: { tour_id: string }) => x.tour_id)).toEqual([tour.id]);
    expect(applied.tours.map((x: { id: string }) => x.id)).toEqual([tour.id]);
    const after = (await expectOk(w.manager.client.get(`/api/hailing/tours/${tour.id}`))).tour;
    expect(after).toMatchObject({ status: 'en_route', driver_id: w.drivers[0]!.id, optimized: true });
    const stops = after.stops as { id: string; status: string; tour_position: number }[];
    expect(stops.map((s) => s.tour_position)).toEqual([0, 1, 2, 3, 4, 5]);
    // Done and under way, first and in order, untouched.
    expect(stops.slice(0, 2).map((s) => [s.id, s.status])).toEqual([[a.stops[0].id, 'completed'], [a.stops[1].id, 'approaching']]);
    // The rest in the applied plan's order, C's stops now scheduled on the tour.
    expect(stops.slice(2).map((s) => s.id)).toEqual(applied.plan.tours[0].stop_ids);
    expect(stops.filter((s) => idsOf(c).includes(s.id)).map((s) => s.status)).toEqual(['scheduled', 'scheduled']);
    expect((await expectOk(w.manager.client.get(`/api/hailing/bookings/${c.id}`))).booking.status).toBe('dispatched');
  });

  it("starts from the driver's last position when no stop is under way", async () => {
    const w = await world(1);
    await shift(w, w.drivers[0]!, '07:00', '18:00');
    const { tour } = await running(w, { current: 'completed' });
    await reportPosition(w.drivers[0]!, tour.id, 13.6);
    // C is picked up where the driver is: it comes first, reached at once.
    const c = await booking(w, 13.61, 13.6);
    const [replanned] = (await plan(w, { booking_ids: [c.id], drivers: [w.drivers[0]!.id] })).plan.tours;
    expect(replanned).toMatchObject({ tour_id: tour.id, running: true, starts_at: t.clock.now().toISOString() });
    expect(replanned.stop_ids[0]).toBe(c.stops[0].id);
    expect(replanned.etas[0]).toBe(replanned.starts_at);
  });

  it('creates a new tour for what does not fit the running one', async () => {
    const w = await world(2);
    const [busy, free] = w.drivers as [CreatedUser, CreatedUser];
    // The running tour's shift ends soon: there is no time left on it for a drop-off ~10 km away.
    await shift(w, busy, '07:00', '08:20');
    await shift(w, free, '08:00', '16:00');
    const { a, b, tour } = await running(w, { current: 'completed' });
    const c = await booking(w, 13.55);
    const body = { booking_ids: [c.id], drivers: [busy.id, free.id] };
    const proposal = (await plan(w, body)).plan;
    expect(proposal.unplaced).toEqual([]);
    const runningTour = proposal.tours.find((x: { running?: boolean }) => x.running);
    const fresh = proposal.tours.find((x: { running?: boolean }) => !x.running);
    expect(runningTour).toMatchObject({ tour_id: tour.id, driver_id: busy.id, stop_ids: idsOf(b) });
    expect(fresh).toMatchObject({ tour_id: null, driver_id: free.id, stop_ids: idsOf(c) });

    const applied = await plan(w, { ...body, apply: true }, 201);
    const created = applied.tours.find((x: { id: string }) => x.id !== tour.id);
    expect(created).toMatchObject({ status: 'claimed', driver_id: free.id });
    expect(created.stops.map((s: { id: string }) => s.id)).toEqual(idsOf(c));
    // The running tour was left as it was.
    const after = (await expectOk(w.manager.client.get(`/api/hailing/tours/${tour.id}`))).tour;
    expect(after.stops.map((s: { id: string }) => s.id)).toEqual([...idsOf(a), ...idsOf(b)]);
  });

  it('refuses to apply the same bookings twice and leaves the tour as the first apply made it', async () => {
    const w = await world(1);
    await shift(w, w.drivers[0]!, '07:00', '18:00');
    const { tour } = await running(w, { current: 'approaching' });
    const c = await booking(w, 13.42);
    const body = { booking_ids: [c.id], drivers: [w.drivers[0]!.id], apply: true };
    await plan(w, body, 201);
    const first = (await expectOk(w.manager.client.get(`/api/hailing/tours/${tour.id}`))).tour;
    const again = await w.manager.client.post('/api/hailing/dispatch/plan', { ...body, time_limit_ms: 300 });
    expect([again.status, again.body.errors?.[0]?.code]).toEqual([422, 'nothing_to_dispatch']);
    const after = (await expectOk(w.manager.client.get(`/api/hailing/tours/${tour.id}`))).tour;
    expect(after.stops.map((s: { id: string; tour_position: number }) => [s.id, s.tour_position])).toEqual(first.stops.map((s: { id: string; tour_position: number }) => [s.id, s.tour_position]));
  });

  it('refuses to apply (409 plan_outdated, naming the tour) when the running tour changed while the plan searched', async () => {
    const w = await world(1);
    await shift(w, w.drivers[0]!, '07:00', '18:00');
    const { a, tour } = await running(w, { current: 'approaching' });
    const c = await booking(w, 13.42);
    // The plan has read the tour and routed; before its search ends, the driver arrives at the stop under way.
    routed = async () => {
      routed = async () => undefined;
      await expectOk(w.drivers[0]!.client.post(`/api/stops/${a.stops[1].id}/arrive`, {}));
    };
    const res = await w.manager.client.post('/api/hailing/dispatch/plan', { booking_ids: [c.id], drivers: [w.drivers[0]!.id], apply: true, time_limit_ms: 100 });
    expect([res.status, res.body.error_code, res.body.tour_id]).toEqual([409, 'plan_outdated', tour.id]);
    // Nothing was written: C still waits, the tour holds only A and B.
    expect((await expectOk(w.manager.client.get(`/api/hailing/bookings/${c.id}`))).booking.status).toBe('to_be_dispatched');
    expect((await expectOk(w.manager.client.get(`/api/hailing/tours/${tour.id}`))).tour.stops).toHaveLength(4);
  });
});
