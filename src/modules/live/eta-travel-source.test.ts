// Stop ETAs say which travel source computed them (contract §15, decision 1702): straight lines while no region holds
// the stops, the region's roads once Monaco is imported — on the transactional recompute and on a position's fast
// path alike — and the tracking read keeps to its allow-list (contract §12: no travel_source there).
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestTenant } from '../../../test/app.ts';
import { type Client, createBooking, createService, createUser, driveStop, expectOk, tourEnRoute } from '../../../test/factories.ts';
import { createWorker, type Worker } from '../../worker/loop.ts';
import { importRegion } from '../region/index.ts';

const MONACO = path.resolve(import.meta.dirname, '../../../regions/monaco.osm.pbf');
/** Place du Casino, the port (Quai Albert 1er), the Rocher (Place du Palais). */
const CASINO = { lat: 43.73945, lng: 7.42776 };
const PORT = { lat: 43.73482, lng: 7.42152 };
const PALAIS = { lat: 43.73133, lng: 7.42025 };

interface StopView {
  id: string;
  type: string;
  tour_position: number | null;
  eta: string | null;
  travel_source: string | null;
}
type P = { lat: number; lng: number };

const stop = (type: 'pickup' | 'dropoff', location: P) => ({ type, location, address: { street: 'Monaco', number: '1', city: 'Monaco' } });

/** A Tourbook with one tenant: its tours, their stops' ETAs and positions. Tests run shuffled: each scene owns its app. */
async function scene() {
  const t: TestApp = await buildTestApp();
  const worker: Worker = createWorker(t.deps);
  const tenant: TestTenant = await t.createTenant();
  const serviceId = (await createService(tenant.admin)).id as string;
  const tour = async (...legs: [P, P][]) => {
    const ids: string[] = [];
    for (const [from, to] of legs) ids.push((await createBooking(tenant.admin, { service_id: serviceId, stops: [stop('pickup', from), stop('dropoff', to)] })).id);
    const driver = await createUser(tenant.admin, { role: 'driver' });
    const started = await tourEnRoute(tenant.admin, ids, driver.id);
    await worker.drain();
    return { tourId: started.id as string, bookingIds: ids, driver: driver.client as Client };
  };
  /** A tour of the factories' Berlin booking, which no region holds. */
  const berlinTour = async () => {
    const driver = await createUser(tenant.admin, { role: 'driver' });
    const started = await tourEnRoute(tenant.admin, [(await createBooking(tenant.admin, { service_id: serviceId })).id], driver.id);
    await worker.drain();
    return started.id as string;
  };
  const stopsOf = async (tourId: string): Promise<StopView[]> =>
    [...((await expectOk(tenant.admin.get(`/api/hailing/tours/${tourId}`))).tour.stops as StopView[])].sort((a, b) => (a.tour_position ?? 0) - (b.tour_position ?? 0));
  const sourcesOf = async (tourId: string) => (await stopsOf(tourId)).map((s) => [s.eta !== null, s.travel_source]);
  const position = async (driver: Client, tourId: string, at: P) => {
    t.clock.advanceSeconds(30);
    await expectOk(driver.post(`/api/hailing/tours/${tourId}/driver_location`, { location: { ...at, recorded_at: t.clock.now().toISOString() } }));
  };
  return { t, worker, tenant, tour, berlinTour, stopsOf, sourcesOf, position };
}

const both = (source: string, n: number) => Array.from({ length: n }, () => [true, source]);
const NEAR_PORT = { lat: PORT.lat + 0.0005, lng: PORT.lng };

describe('the travel source of stop ETAs', () => {
  it('is straight_line without a region, on the tour, the booking and after positions; road_network at the next position once Monaco is imported', async () => {
    const s = await scene();
    try {
      const tour = await s.tour([CASINO, PALAIS]);
      expect(await s.sourcesOf(tour.tourId)).toEqual(both('straight_line', 2));
      // The first position goes through the transaction, the next ones through the fast path.
      await s.position(tour.driver, tour.tourId, PORT);
      await s.position(tour.driver, tour.tourId, NEAR_PORT);
      expect(await s.sourcesOf(tour.tourId)).toEqual(both('straight_line', 2));
      const booking = (await expectOk(s.tenant.admin.get(`/api/hailing/bookings/${tour.bookingIds[0]}`))).booking;
      expect(booking.stops.map((x: StopView) => x.travel_source)).toEqual(['straight_line', 'straight_line']);
      await importRegion(s.t.deps, MONACO, { name: 'monaco' });
      // A fast-path position from the same place: the ETAs may move less than they are stored for, their source moved.
      await s.position(tour.driver, tour.tourId, NEAR_PORT);
      expect(await s.sourcesOf(tour.tourId)).toEqual(both('road_network', 2));
    } finally {
      await s.t.close();
    }
  }, 180_000);

  describe('with the Monaco region imported', () => {
    let s: Awaited<ReturnType<typeof scene>>;
    beforeAll(async () => {
      s = await scene();
      await importRegion(s.t.deps, MONACO, { name: 'monaco' });
    }, 180_000);
    afterAll(async () => s?.t.close());

    it('is road_network on a tour started now, with and without a driver position', async () => {
      const tour = await s.tour([CASINO, PALAIS], [PORT, CASINO]);
      expect(await s.sourcesOf(tour.tourId)).toEqual(both('road_network', 4));
      await s.position(tour.driver, tour.tourId, PORT);
      await s.position(tour.driver, tour.tourId, NEAR_PORT);
      expect(await s.sourcesOf(tour.tourId)).toEqual(both('road_network', 4));
    });

    it('is road_network on the one stop left without a position, and null on a stop that has no ETA', async () => {
      const tour = await s.tour([CASINO, PALAIS]);
      const [pickup] = await s.stopsOf(tour.tourId);
      await driveStop(tour.driver, pickup!.id, 'completed');
      await s.worker.drain();
      expect(await s.sourcesOf(tour.tourId)).toEqual([[false, null], [true, 'road_network']]);
    });

    it('stays straight_line for stops no region holds', async () => {
      expect(await s.sourcesOf(await s.berlinTour())).toEqual(both('straight_line', 2));
    });

    it('is not on the tracking read, whose allow-list (contract §12) does not name it', async () => {
      const tour = await s.tour([CASINO, PALAIS]);
      await s.position(tour.driver, tour.tourId, PORT);
      const booking = (await expectOk(s.tenant.admin.get(`/api/hailing/bookings/${tour.bookingIds[0]}`))).booking;
      const token = new URL(booking.tracking.url).pathname.split('/').pop();
      const { tracking } = await expectOk(s.t.anonymous.get(`/api/tracking/${token}`));
      expect(tracking.stops.some((x: { eta: string | null }) => x.eta !== null)).toBe(true);
      expect(JSON.stringify(tracking)).not.toContain('travel_source');
    });
  });
});
