// GET /api/hailing/tours/{id}/route (contract §15, decision 1700): along the roads of the imported region through the
// remaining stops, from the driver's position while en route; the engines' route services through their protocol
// peers, an outage falling back; straight segments where no region holds the stops; the tour's door.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestTenant } from '../../../../test/app.ts';
import { createBooking, createService, createUser, driveStop, expectOk, mergeIntoTour, tourEnRoute } from '../../../../test/factories.ts';
import { bend, startOsrmPeer, startValhallaPeer, type PeerTimes, type RoutingPeer } from '../../../../test/routing-peers.ts';
import { importRegion } from '../import.ts';
import { clearTravelCache } from './matrix.ts';
import { haversineMeters, type Point } from './straight-line.ts';

const MONACO = path.resolve(import.meta.dirname, '../../../../regions/monaco.osm.pbf');
/** Three addresses in Monaco: Place du Casino, the port (Quai Albert 1er), the Rocher (Place du Palais). */
const CASINO = { lat: 43.73945, lng: 7.42776 };
const PORT = { lat: 43.73482, lng: 7.42152 };
const PALAIS = { lat: 43.73133, lng: 7.42025 };
const SYNTHETIC: PeerTimes = (a, b) => ({ seconds: haversineMeters(a, b) / 8, meters: haversineMeters(a, b) * 1.25 });

interface RouteBody {
  route: { geometry: { type: string; coordinates: [number, number][] }; distance_m: number; duration_s: number; travel_source: string };
}

const lineLength = (line: readonly [number, number][]): number => {
  let m = 0;
  for (let i = 1; i < line.length; i++) m += haversineMeters({ lat: line[i - 1]![1], lng: line[i - 1]![0] }, { lat: line[i]![1], lng: line[i]![0] });
  return m;
};
const near = (point: [number, number], to: Point, meters: number) => expect(haversineMeters({ lat: point[1], lng: point[0] }, to)).toBeLessThan(meters);

const stop = (type: 'pickup' | 'dropoff', location: Point) => ({ type, location, address: { street: 'Monaco', number: '1', city: 'Monaco' } });

async function bookingsThrough(tenant: TestTenant, serviceId: string, ...legs: [Point, Point][]): Promise<string[]> {
  const ids: string[] = [];
  for (const [from, to] of legs) ids.push((await createBooking(tenant.admin, { service_id: serviceId, stops: [stop('pickup', from), stop('dropoff', to)] })).id);
  return ids;
}
const tourThrough = async (tenant: TestTenant, serviceId: string, ...legs: [Point, Point][]) => ({ tour: await mergeIntoTour(tenant.admin, await bookingsThrough(tenant, serviceId, ...legs)) });

describe('a tour’s route', () => {
  let t: TestApp;
  let tenant: TestTenant;
  let serviceId: string;
  beforeAll(async () => {
    t = await buildTestApp();
    tenant = await t.createTenant();
    serviceId = (await createService(tenant.admin)).id;
  });
  afterAll(async () => t?.close());

  it('is straight segments through the stops where no region holds them, and says so', async () => {
    const berlin: [Point, Point] = [{ lat: 52.52, lng: 13.405 }, { lat: 52.5, lng: 13.33 }];
    const { tour } = await tourThrough(tenant, serviceId, berlin);
    const { route } = (await expectOk(tenant.admin.get(`/api/hailing/tours/${tour.id}/route`))) as RouteBody;
    expect(route.travel_source).toBe('straight_line');
    expect(route.geometry).toEqual({ type: 'LineString', coordinates: berlin.map((p) => [p.lng, p.lat]) });
    expect(route.distance_m).toBeCloseTo(haversineMeters(berlin[0], berlin[1]) * 1.3, 0);
    expect(route.duration_s).toBeGreaterThan(0);
    const ids = await bookingsThrough(tenant, serviceId, berlin);
    const { plan } = (await expectOk(tenant.admin.post('/api/hailing/dispatch/plan', { booking_ids: ids, time_limit_ms: 200 }))) as { plan: { travel_source: string; tours: { route: RouteBody['route'] }[] } };
    expect(plan.travel_source).toBe('straight_line');
    expect(plan.tours[0]!.route.travel_source).toBe('straight_line');
  });

  describe('on the Monaco region', () => {
    beforeAll(async () => {
      await importRegion(t.deps, MONACO, { name: 'monaco' });
    });

    it('follows the roads through the stops in tour order, as long as its line and as fast as the matrix', async () => {
      const { tour } = await tourThrough(tenant, serviceId, [CASINO, PALAIS]);
      const { route } = (await expectOk(tenant.admin.get(`/api/hailing/tours/${tour.id}/route`))) as RouteBody;
      expect(route.travel_source).toBe('road_network');
      const line = route.geometry.coordinates;
      expect(line.length).toBeGreaterThan(10);
      near(line[0]!, CASINO, 60);
      near(line[line.length - 1]!, PALAIS, 60);
      // Along the roads: longer than the crow flies, and its line is its distance.
      expect(route.distance_m).toBeGreaterThan(haversineMeters(CASINO, PALAIS) * 1.1);
      expect(Math.abs(lineLength(line) - route.distance_m)).toBeLessThan(route.distance_m * 0.03);
      const { matrix } = (await expectOk(tenant.admin.post('/api/routing/matrix', { points: [CASINO, PALAIS] }))) as { matrix: { durations_s: number[][]; distances_m: number[][] } };
      expect(route.duration_s).toBeCloseTo(matrix.durations_s[0]![1]!, 0);
      expect(route.distance_m).toBeCloseTo(matrix.distances_m[0]![1]!, 0);
    });

    it('while en route starts at the driver’s last position and leaves the stops already served out', async () => {
      const driver = await createUser(tenant.admin, { role: 'driver' });
      const tour = await tourEnRoute(tenant.admin, await bookingsThrough(tenant, serviceId, [CASINO, PALAIS]), driver.id);
      const pickup = tour.stops.find((s: { type: string }) => s.type === 'pickup');
      await driveStop(driver.client, pickup.id, 'completed');
      await expectOk(driver.client.post(`/api/hailing/tours/${tour.id}/driver_location`, { location: { ...PORT, recorded_at: t.clock.now().toISOString() } }));
      const { route } = (await expectOk(driver.client.get(`/api/hailing/tours/${tour.id}/route`))) as RouteBody;
      expect(route.travel_source).toBe('road_network');
      const line = route.geometry.coordinates;
      near(line[0]!, PORT, 60);
      near(line[line.length - 1]!, PALAIS, 60);
      // From the port, not from the casino: the served pickup is behind.
      for (const point of line) expect(haversineMeters({ lat: point[1], lng: point[0] }, CASINO)).toBeGreaterThan(150);
    });

    it('is a line at one point when one stop is left, and empty when none is', async () => {
      const driver = await createUser(tenant.admin, { role: 'driver' });
      const tour = await tourEnRoute(tenant.admin, await bookingsThrough(tenant, serviceId, [CASINO, PALAIS]), driver.id);
      const [pickup, dropoff] = [...tour.stops].sort((a: { tour_position: number }, b: { tour_position: number }) => a.tour_position - b.tour_position);
      await driveStop(driver.client, pickup.id, 'completed');
      const one = ((await expectOk(tenant.admin.get(`/api/hailing/tours/${tour.id}/route`))) as RouteBody).route;
      expect(one.geometry.coordinates).toEqual([[PALAIS.lng, PALAIS.lat], [PALAIS.lng, PALAIS.lat]]);
      expect(one.distance_m).toBe(0);
      await driveStop(driver.client, dropoff.id, 'completed');
      const none = ((await expectOk(tenant.admin.get(`/api/hailing/tours/${tour.id}/route`))) as RouteBody).route;
      expect(none.geometry.coordinates).toEqual([]);
      expect(none.duration_s).toBe(0);
    });

    it('a plan’s proposed tours carry their route and travel_source, as their times', async () => {
      const ids = await bookingsThrough(tenant, serviceId, [CASINO, PALAIS], [PORT, CASINO]);
      const { plan } = (await expectOk(tenant.admin.post('/api/hailing/dispatch/plan', { booking_ids: ids, time_limit_ms: 200 }))) as {
        plan: { travel_source: string; tours: { stop_ids: string[]; travel_seconds: number; travel_source: string; route: RouteBody['route'] }[] };
      };
      expect(plan.travel_source).toBe('road_network');
      expect(plan.tours.length).toBeGreaterThan(0);
      for (const tour of plan.tours) {
        expect(tour.travel_source).toBe('road_network');
        expect(tour.route.travel_source).toBe('road_network');
        expect(tour.route.geometry.coordinates.length).toBeGreaterThan(tour.stop_ids.length);
        // The same roads as the plan's times: the route drives what the plan counts.
        expect(Math.abs(tour.route.duration_s - tour.travel_seconds)).toBeLessThan(2 * tour.stop_ids.length);
      }
    });

    it('is 404 for whoever does not see the tour, before anything else', async () => {
      const { tour } = await tourThrough(tenant, serviceId, [CASINO, PORT]);
      const stranger = await createUser(tenant.admin, { role: 'driver' });
      const other = await t.createTenant();
      for (const client of [stranger.client, other.admin]) {
        const res = await client.get(`/api/hailing/tours/${tour.id}/route`);
        expect(res.status).toBe(404);
        expect(res.body).toMatchObject({ error_code: 'not_found' });
      }
      expect((await tenant.admin.get('/api/hailing/tours/not-a-uuid/route')).status).toBe(404);
    });
  });
});

describe('a tour’s route from an engine', () => {
  const peers: RoutingPeer[] = [];
  const apps: TestApp[] = [];
  afterAll(async () => {
    await Promise.all(apps.map((a) => a.close()));
    await Promise.all(peers.map((p) => p.close()));
  });

  for (const [engine, start] of [['osrm', startOsrmPeer], ['valhalla', startValhallaPeer]] as const) {
    it(`${engine}: the engine's line, distance and duration; an outage falls back, and says so`, async () => {
      const peer = await start(SYNTHETIC);
      peers.push(peer);
      const t = await buildTestApp({ routing: { engine, url: peer.url, parallel: 4, cacheSeconds: 0 } });
      apps.push(t);
      clearTravelCache();
      const tenant = await t.createTenant();
      const serviceId = (await createService(tenant.admin)).id;
      const { tour } = await tourThrough(tenant, serviceId, [CASINO, PALAIS], [PORT, PALAIS]);
      const stops = [...tour.stops].sort((a: { tour_position: number }, b: { tour_position: number }) => a.tour_position - b.tour_position).map((s: { location: Point }) => s.location);
      const { route } = (await expectOk(tenant.admin.get(`/api/hailing/tours/${tour.id}/route`))) as RouteBody;
      expect(route.travel_source).toBe(engine);
      expect(peer.routes).toEqual([4]);
      const expected = [stops[0]!, ...stops.slice(1).flatMap((to, i) => [bend(stops[i]!, to), to])];
      expect(route.geometry.coordinates).toHaveLength(expected.length);
      route.geometry.coordinates.forEach((p, i) => near(p, expected[i]!, 0.5));
      const legs = stops.slice(1).map((to, i) => SYNTHETIC(stops[i]!, to));
      expect(route.distance_m).toBeCloseTo(legs.reduce((s, l) => s + l.meters, 0), 0);
      expect(route.duration_s).toBeCloseTo(legs.reduce((s, l) => s + l.seconds, 0), 0);

      peer.mode = 'down';
      const fallback = ((await expectOk(tenant.admin.get(`/api/hailing/tours/${tour.id}/route`))) as RouteBody).route;
      // This app imported no region (the matrix tests show an outage falling back to one): straight segments.
      expect(fallback.travel_source).toBe('straight_line');
      expect(fallback.geometry.coordinates).toHaveLength(stops.length);
    }, 120_000);
  }
});
