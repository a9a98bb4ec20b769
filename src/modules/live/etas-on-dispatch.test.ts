import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/app.ts';
import { type Client, createBooking, createPlace, createService, createServiceArea, createUser, driveStop, eventsOf, expectOk, mergeIntoTour, tourEnRoute } from '../../../test/factories.ts';
import { createWorker, type Worker } from '../../worker/loop.ts';

let t: TestApp;
let worker: Worker;

beforeAll(async () => {
  t = await buildTestApp();
  worker = createWorker(t.deps);
});
afterAll(async () => t.close());

async function scene() {
  const tenant = await t.createTenant();
  const area = await createServiceArea(tenant.admin, { average_speed_kmh: 36 });
  const service = await createService(tenant.admin, { service_area_id: area.id });
  const places = await Promise.all([0, 1, 2, 3, 4, 5].map((i) => createPlace(tenant.admin, { service_area_id: area.id, location: { lat: 52.5 + i * 0.01, lng: 13.4 } })));
  const booking = (a: number, b: number) => createBooking(tenant.admin, { service_id: service.id, places: [places[a].id, places[b].id] });
  const driver = await createUser(tenant.admin, { role: 'driver' });
  return { tenant, booking, driver };
}

const tourOf = async (client: Client, id: string) => (await expectOk(client.get(`/api/hailing/tours/${id}`))).tour;
const etas = (tour: { stops: { eta: string | null }[] }) => tour.stops.map((s) => s.eta);

describe('ETAs follow dispatch changes', () => {
  it('renders every open stop\'s ETA once the tour starts, and tells the first ETAs', async () => {
    const s = await scene();
    const b = await s.booking(0, 1);
    const tour = await tourEnRoute(s.tenant.admin, [b.id], s.driver.id);
    expect(etas(tour)).toEqual([null, null]);
    await worker.drain();
    const started = await tourOf(s.tenant.admin, tour.id);
    // No position yet: the first open stop is the start (ETA now), the next one a leg and a service later.
    expect(started.stops[0].eta).toBe(t.clock.now().toISOString());
    expect(new Date(started.stops[1].eta).getTime()).toBeGreaterThan(t.clock.now().getTime());
    const [event] = await eventsOf(s.tenant.admin, tour.id, 'tour.etas_recalculated');
    expect(event.data.unfinished_stops_info.map((i: { eta: string }) => i.eta)).toEqual(etas(started));
    // The booking renders the same ETAs on its stops.
    const booking = (await expectOk(s.tenant.admin.get(`/api/hailing/bookings/${b.id}`))).booking;
    expect(booking.stops.map((x: { eta: string | null }) => x.eta)).toEqual(etas(started));
  });

  it('recomputes when a stop completes: the completed stop renders none, the rest move up', async () => {
    const s = await scene();
    const b = await s.booking(0, 3);
    const tour = await tourEnRoute(s.tenant.admin, [b.id], s.driver.id);
    await worker.drain();
    const before = await tourOf(s.tenant.admin, tour.id);
    t.clock.advanceSeconds(600);
    await driveStop(s.driver.client, tour.stops[0].id, 'completed');
    await worker.drain();
    const after = await tourOf(s.tenant.admin, tour.id);
    expect(after.stops[0].eta).toBeNull();
    // The remaining stop is now the start: its ETA is now.
    expect(after.stops[1].eta).toBe(t.clock.now().toISOString());
    expect(after.stops[1].eta).not.toBe(before.stops[1].eta);
  });

  it('recomputes when a stop fails', async () => {
    const s = await scene();
    const b1 = await s.booking(0, 1);
    const b2 = await s.booking(2, 3);
    const tour = await tourEnRoute(s.tenant.admin, [b1.id, b2.id], s.driver.id);
    await worker.drain();
    const told = (await eventsOf(s.tenant.admin, tour.id, 'tour.etas_recalculated')).length;
    t.clock.advanceSeconds(900);
    await driveStop(s.driver.client, tour.stops[0].id, 'arrived');
    await expectOk(s.driver.client.post(`/api/stops/${tour.stops[0].id}/fail`, { outcome: 'skip_recovery' }));
    await worker.drain();
    const after = await tourOf(s.tenant.admin, tour.id);
    const open = after.stops.filter((x: { status: string }) => !['completed', 'failed', 'cancelled'].includes(x.status));
    expect(open.length).toBeGreaterThan(0);
    expect(open.every((x: { eta: string | null }) => x.eta !== null)).toBe(true);
    expect(after.stops.find((x: { id: string }) => x.id === tour.stops[0].id).eta).toBeNull();
    expect((await eventsOf(s.tenant.admin, tour.id, 'tour.etas_recalculated')).length).toBeGreaterThan(told);
  });

  it('gives stops inserted into a started tour their ETAs', async () => {
    const s = await scene();
    const b1 = await s.booking(0, 1);
    const tour = await tourEnRoute(s.tenant.admin, [b1.id], s.driver.id);
    await worker.drain();
    const b2 = await s.booking(4, 5);
    await expectOk(s.tenant.admin.post(`/api/hailing/tours/${tour.id}/stops/insert`, { stop_ids: b2.stops.map((x: { id: string }) => x.id) }));
    await worker.drain();
    const after = await tourOf(s.tenant.admin, tour.id);
    expect(after.stops).toHaveLength(4);
    expect(after.stops.every((x: { eta: string | null }) => x.eta !== null)).toBe(true);
    const times = after.stops.map((x: { eta: string }) => new Date(x.eta).getTime());
    expect([...times].sort((a, b) => a - b)).toEqual(times);
  });

  it('drops the ETAs of a tour its driver leaves', async () => {
    const s = await scene();
    const b = await s.booking(0, 1);
    const tour = await tourEnRoute(s.tenant.admin, [b.id], s.driver.id);
    await worker.drain();
    expect(etas(await tourOf(s.tenant.admin, tour.id)).every((e: string | null) => e !== null)).toBe(true);
    await expectOk(s.tenant.admin.post(`/api/hailing/tours/${tour.id}/force_unassign`, {}));
    expect(etas(await tourOf(s.tenant.admin, tour.id))).toEqual([null, null]);
  });

  it('computes no ETAs for a tour nobody drives', async () => {
    const s = await scene();
    const b = await s.booking(0, 1);
    const tour = await mergeIntoTour(s.tenant.admin, [b.id]);
    await worker.drain();
    expect(etas(await tourOf(s.tenant.admin, tour.id))).toEqual([null, null]);
    expect(await eventsOf(s.tenant.admin, tour.id, 'tour.etas_recalculated')).toEqual([]);
  });
});
