// Each proposed tour of a plan with drivers reports its work (decision 1644): stops, driving, waiting, working time and
// distance; a tour leaves its start when it must, not at the shift's start when its first stop opens later.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../test/app.ts';
import { createBooking, expectOk } from '../../../../test/factories.ts';
import { at, DEPOT, planningWorld, shift, type World } from '../../../../test/planning.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t?.close());

const address = (lng: number) => ({ street: 'Torstraße', number: String(Math.round(lng * 1000)), city: 'Berlin' });

async function booking(w: World, to: number, windows: { pickup?: [string, string]; dropoff?: [string, string] } = {}) {
  const window = (w?: [string, string]) => (w ? { time_window: { starts_at: at(w[0]), ends_at: at(w[1]) } } : {});
  return createBooking(w.manager.client, {
    service_id: w.serviceId,
    managing_organization_ids: [w.org],
    stops: [
      { type: 'pickup', location: DEPOT, address: address(DEPOT.lng), ...window(windows.pickup) },
      { type: 'dropoff', location: { lat: DEPOT.lat, lng: to }, address: address(to), ...window(windows.dropoff) },
    ],
  });
}

const seconds = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / 1000;
/** Metres between the depot and a point east of it on its latitude (great circle). */
const eastOfDepot = (lng: number) => 2 * 6_371_000 * Math.asin(Math.cos((DEPOT.lat * Math.PI) / 180) * Math.sin((((lng - DEPOT.lng) * Math.PI) / 180) / 2));

describe('the work of a proposed tour', () => {
  it('leaves when its first stop opens, not at the shift start: no waiting, working time from leaving to the end', async () => {
    const w = await planningWorld(t, 1);
    await shift(w, w.drivers[0]!, '08:00', '16:00');
    const b = await booking(w, 13.43, { pickup: ['10:00', '12:00'] });
    const [tour] = (await expectOk(w.manager.client.post('/api/hailing/dispatch/plan', { booking_ids: [b.id], drivers: [w.drivers[0]!.id], time_limit_ms: 300 }))).plan.tours;
    expect(tour.starts_at).toBe(at('10:00'));
    expect(tour.etas[0]).toBe(at('10:00'));
    expect(tour).toMatchObject({ stops_count: 2, waiting_s: 0, driving_s: tour.travel_seconds });
    expect(tour.working_s).toBe(seconds(tour.starts_at, tour.ends_at));
    // Two service durations (120 s each) and the driving: nothing else.
    expect(tour.working_s).toBe(tour.driving_s + 240);
    expect(tour.distance_m).toBeGreaterThan(2 * eastOfDepot(13.43) - 2);
    expect(tour.distance_m).toBeLessThan(2 * eastOfDepot(13.43) + 2);
  });

  it('counts the wait for a drop-off window after the tour left as waiting, and working time adds up', async () => {
    const w = await planningWorld(t, 1);
    await shift(w, w.drivers[0]!, '08:00', '16:00');
    // Collected by 09:00, delivered from 13:00: the wait between is the tour's.
    const b = await booking(w, 13.43, { pickup: ['08:00', '09:00'], dropoff: ['13:00', '14:00'] });
    const [tour] = (await expectOk(w.manager.client.post('/api/hailing/dispatch/plan', { booking_ids: [b.id], drivers: [w.drivers[0]!.id], time_limit_ms: 300 }))).plan.tours;
    expect(tour.etas[1]).toBe(at('13:00'));
    expect(tour.waiting_s).toBeGreaterThan(3 * 3600);
    expect(tour.working_s).toBe(seconds(tour.starts_at, tour.ends_at));
    expect(tour.working_s).toBe(tour.driving_s + tour.waiting_s + 240);
  });

  it('does not park a loaded van: a tour whose drop-off opens at 13:00 leaves late enough to wait for nothing', async () => {
    const w = await planningWorld(t, 1);
    await shift(w, w.drivers[0]!, '08:00', '16:00');
    const b = await booking(w, 13.43, { dropoff: ['13:00', '14:00'] });
    const [tour] = (await expectOk(w.manager.client.post('/api/hailing/dispatch/plan', { booking_ids: [b.id], drivers: [w.drivers[0]!.id], time_limit_ms: 300 }))).plan.tours;
    expect(tour.etas[1]).toBe(at('13:00'));
    expect(tour.waiting_s).toBe(0);
    // Picked up at the depot just in time to drive out: the pickup's ETA is the tour's start.
    expect(tour.etas[0]).toBe(tour.starts_at);
    expect(tour.starts_at > at('12:00')).toBe(true);
    expect(tour.working_s).toBe(tour.driving_s + 240);
  });
});
