// Where travel times come from (contract §15): the engines through their protocol peers — a 101-point matrix of the
// real OSRM times of a Sartori & Buriol instance, a 1,000-point one, each request within the engine's table limit, the
// per-pair cache — an outage falling back to the region's roads and then to straight lines, and the road network of
// the imported Monaco region with its one-way streets.
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../test/app.ts';
import { sartoriBuriol, startOsrmPeer, startValhallaPeer, type PeerTimes, type RoutingPeer } from '../../../../test/routing-peers.ts';
import type { Config } from '../../../config.ts';
import { importRegion } from '../import.ts';
import { clearTravelCache, travelMatrix, type TravelDeps } from './matrix.ts';
import { haversineMeters } from './straight-line.ts';

const MONACO = path.resolve(import.meta.dirname, '../../../../regions/monaco.osm.pbf');
const INSTANCE = sartoriBuriol(path.resolve(import.meta.dirname, '../../../../test/fixtures/sartori-buriol/bar-n100-1.txt'));
/** A peer's own times for any points: 1 s per 8 m of straight line, 1.25 × the straight line in meters. */
const SYNTHETIC: PeerTimes = (a, b) => ({ seconds: haversineMeters(a, b) / 8, meters: haversineMeters(a, b) * 1.25 });

let t: TestApp;
const peers: RoutingPeer[] = [];
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await Promise.all(peers.map((p) => p.close()));
  await t?.close();
});
beforeEach(() => clearTravelCache());

const deps = (routing: Partial<Config['routing']>): TravelDeps => ({
  db: t.deps.db,
  clock: t.clock,
  config: { live: t.config.live, routing: { engine: null, url: null, parallel: 4, cacheSeconds: 3600, ...routing } },
});
const peer = async (start: Promise<RoutingPeer>): Promise<RoutingPeer> => {
  const started = await start;
  peers.push(started);
  return started;
};
/** n points on a jittered grid over Barcelona (outside every imported region). */
const grid = (n: number) => Array.from({ length: n }, (_, i) => ({ lat: 41.38 + (i % 40) * 0.0011 + (i % 7) * 0.00003, lng: 2.12 + Math.floor(i / 40) * 0.0013 }));

describe('engines', () => {
  it('OSRM: a 101-point matrix equals the real OSRM times of a Sartori & Buriol instance, asked in blocks of 100 × 100 at most', async () => {
    const osrm = await peer(startOsrmPeer(INSTANCE.times));
    const matrix = await travelMatrix(deps({ engine: 'osrm', url: osrm.url }), INSTANCE.points, 30);
    expect(matrix.source).toBe('osrm');
    expect(matrix.seconds).toEqual(INSTANCE.minutes.map((row) => row.map((m) => m * 60)));
    // 2 × 2 blocks of sources × destinations; the last point to itself needs no request.
    expect(osrm.requests).toHaveLength(3);
    for (const r of osrm.requests) expect(r.sources * r.destinations).toBeLessThanOrEqual(100 * 100);
  });

  it('OSRM: a 1,000-point matrix equals the peer’s table, 100 requests within the limit; the second ask comes from the cache until it expires', async () => {
    const osrm = await peer(startOsrmPeer(SYNTHETIC));
    const points = grid(1000);
    const d = deps({ engine: 'osrm', url: osrm.url, cacheSeconds: 600 });
    const matrix = await travelMatrix(d, points, 30);
    expect(matrix.source).toBe('osrm');
    for (let i = 0; i < points.length; i += 37) for (let j = 0; j < points.length; j += 41) expect(matrix.seconds[i]![j]).toBeCloseTo(SYNTHETIC(points[i]!, points[j]!).seconds, 4);
    expect(matrix.meters[5]![999]).toBeCloseTo(SYNTHETIC(points[5]!, points[999]!).meters, 4);
    expect(osrm.requests).toHaveLength(100);
    expect(Math.max(...osrm.requests.map((r) => r.sources * r.destinations))).toBe(100 * 100);

    const again = await travelMatrix(d, points.slice(0, 150), 30);
    expect(again.seconds[149]![3]).toBe(matrix.seconds[149]![3]);
    expect(osrm.requests).toHaveLength(100);
    t.clock.set(new Date(t.clock.now().getTime() + 601_000));
    const expired = await travelMatrix(d, points.slice(0, 150), 30);
    expect(expired.source).toBe('osrm');
    expect(osrm.requests).toHaveLength(104);
  }, 180_000);

  it('Valhalla: a 101-point matrix equals the peer’s sources_to_targets, within 2,500 pairs a request', async () => {
    const valhalla = await peer(startValhallaPeer(INSTANCE.times));
    const matrix = await travelMatrix(deps({ engine: 'valhalla', url: valhalla.url }), INSTANCE.points, 30);
    expect(matrix.source).toBe('valhalla');
    expect(matrix.seconds).toEqual(INSTANCE.minutes.map((row) => row.map((m) => m * 60)));
    expect(matrix.meters[1]![2]).toBeCloseTo(INSTANCE.minutes[1]![2]! * 60 * (30 / 3.6), 0);
    // 3 × 3 blocks of 50; the last point to itself needs no request.
    expect(valhalla.requests).toHaveLength(8);
    for (const r of valhalla.requests) expect(r.sources * r.destinations).toBeLessThanOrEqual(2500);
  });

  it('an outage falls back to straight lines where no region holds the points, and says so', async () => {
    const osrm = await peer(startOsrmPeer(INSTANCE.times));
    osrm.mode = 'down';
    const points = INSTANCE.points.slice(0, 5);
    const matrix = await travelMatrix(deps({ engine: 'osrm', url: osrm.url }), points, 36);
    expect(matrix.source).toBe('straight_line');
    // haversine × 1.3 at 36 km/h (10 m/s).
    expect(matrix.seconds[0]![1]).toBeCloseTo((haversineMeters(points[0]!, points[1]!) * 1.3) / 10, 6);
    expect(matrix.seconds[0]![0]).toBe(0);
  });
});

describe('the road network of an imported region', () => {
  beforeAll(async () => {
    await importRegion(t.deps, MONACO, { name: 'monaco' });
  }, 120_000);

  // The Casino, the port (Fontvieille), Monte-Carlo beach, the palace and the station: points on Monaco's streets.
  const MONACO_POINTS = [
    { lat: 43.7396, lng: 7.4275 },
    { lat: 43.7311, lng: 7.4197 },
    { lat: 43.7487, lng: 7.4382 },
    { lat: 43.7313, lng: 7.4232 },
    { lat: 43.7389, lng: 7.4197 },
  ];

  it('answers from the roads: longer than the straight line, asymmetric where one-way streets make it so', async () => {
    const matrix = await travelMatrix(deps({}), MONACO_POINTS, 30);
    expect(matrix.source).toBe('road_network');
    let asymmetric = 0;
    for (let i = 0; i < MONACO_POINTS.length; i++) {
      for (let j = 0; j < MONACO_POINTS.length; j++) {
        if (i === j) continue;
        expect(matrix.meters[i]![j]).toBeGreaterThan(haversineMeters(MONACO_POINTS[i]!, MONACO_POINTS[j]!) * 0.95);
        expect(matrix.meters[i]![j]).toBeLessThan(haversineMeters(MONACO_POINTS[i]!, MONACO_POINTS[j]!) * 15);
        if (Math.abs(matrix.meters[i]![j]! - matrix.meters[j]![i]!) > 0.05 * matrix.meters[i]![j]!) asymmetric++;
      }
    }
    expect(asymmetric).toBeGreaterThan(0);
  });

  it('an engine outage falls back to the region, not to straight lines', async () => {
    const osrm = await peer(startOsrmPeer(SYNTHETIC));
    osrm.mode = 'down';
    const matrix = await travelMatrix(deps({ engine: 'osrm', url: osrm.url }), MONACO_POINTS, 30);
    expect(matrix.source).toBe('road_network');
  });

  it('a point at sea (inside the region’s box, far from every road) makes the whole matrix straight lines', async () => {
    const matrix = await travelMatrix(deps({}), [...MONACO_POINTS, { lat: 43.72, lng: 7.45 }], 30);
    expect(matrix.source).toBe('straight_line');
  });
});
