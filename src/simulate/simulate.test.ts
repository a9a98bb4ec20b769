import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/app.ts';
import { haversineMeters } from '../modules/live/geo.ts';
import { importRegion } from '../modules/region/index.ts';
import { berlinLocations, legToStop, monacoPlaces, runSimulation } from './city.ts';
import { rng } from './rng.ts';

let t: TestApp;
let url: string;

beforeAll(async () => {
  t = await buildTestApp();
  // The simulator stamps fixes with real time; the server's clock must agree (it stays put, fixes may be ahead ≤ 5 min).
  t.clock.set(new Date());
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => t.close());

describe('tourbook simulate', () => {
  it('runs a short seeded, sped-up city through the HTTP API with zero errors', async () => {
    const tenant = await t.createTenant();
    const lines: string[] = [];
    const summary = await runSimulation({ url, token: tenant.adminToken, drivers: 2, bookingsPerMinute: 12, durationSeconds: 2, speedup: 50, seed: 42, log: (l) => lines.push(l), progressMs: 2_000 });
    expect(summary.errors).toEqual([]);
    expect(summary.bookings).toBeGreaterThan(0);
    expect(summary.positions).toBeGreaterThan(0);
    expect(summary.stopsDone + summary.failures).toBeGreaterThan(0);
    expect(summary.endpoints.map((e) => e.endpoint)).toContain('POST /api/hailing/tours/{id}/driver_location');
    expect(lines.some((l) => /bookings \d+, stops done \d+, failures \d+, \d+ req\/s/.test(l))).toBe(true);
  }, 120_000);

  it('reports a warm-up apart from the steady run', async () => {
    const tenant = await t.createTenant();
    const summary = await runSimulation({ url, token: tenant.adminToken, drivers: 4, bookingsPerMinute: 24, durationSeconds: 3, speedup: 50, seed: 7, warmupSeconds: 1, log: () => undefined });
    expect(summary.errors).toEqual([]);
    const names = summary.endpoints.map((e) => e.endpoint);
    expect(names).toContain('(warm-up) POST /api/hailing/bookings');
    expect(names).toContain('POST /api/hailing/bookings');
    expect(names.filter((n) => n.startsWith('(warm-up) ')).length).toBeGreaterThan(0);
  }, 120_000);

  it('drives along the roads where a region covers its city: Monaco, farther than the straight lines', async () => {
    // Its own app: the region is the installation's, and the Berlin runs above are to stay on straight lines.
    const m = await buildTestApp();
    try {
      m.clock.set(new Date());
      await importRegion(m.deps, path.resolve(import.meta.dirname, '../../regions/monaco.osm.pbf'), { name: 'monaco' });
      await m.app.listen({ port: 0, host: '127.0.0.1' });
      const base = `http://127.0.0.1:${(m.app.server.address() as AddressInfo).port}`;
      const tenant = await m.createTenant();
      const summary = await runSimulation({ url: base, token: tenant.adminToken, city: 'monaco', drivers: 3, bookingsPerMinute: 12, durationSeconds: 4, speedup: 60, seed: 5, log: () => undefined });
      expect(summary.errors).toEqual([]);
      expect(summary.stopsDone + summary.failures).toBeGreaterThan(0);
      expect(summary.endpoints.map((e) => e.endpoint)).toContain('GET /api/hailing/tours/{id}/route');
      // Monaco's roads are 1.8 × the straight line at the median (issue 38); a driver on straight lines scores 1.0.
      expect(summary.metersStraight).toBeGreaterThan(0);
      expect(summary.metersDriven / summary.metersStraight).toBeGreaterThan(1.2);
      // A second run in the same tenant finds its places' addresses taken and reuses those places.
      const again = await runSimulation({ url: base, token: tenant.adminToken, city: 'monaco', drivers: 1, bookingsPerMinute: 6, durationSeconds: 1, speedup: 60, seed: 5, log: () => undefined });
      expect(again.errors).toEqual([]);
    } finally {
      await m.close();
    }
  }, 180_000);

  it('cuts a route at the vertex where it comes closest to the next stop, and ends at the stop', () => {
    // A route to the stop S, snapped to its road at vertex 2, then on to a later stop: it passes S's road point again
    // at vertex 4 (the leg ends at the first) and within a metre of it at vertex 5. The snapped point is the road's
    // nearest to S, so no vertex of the route comes closer.
    const S = { lat: 43.7385, lng: 7.4245 };
    const line = [
      [7.42, 43.735],
      [7.422, 43.737],
      [7.42445, 43.73851],
      [7.427, 43.74],
      [7.42445, 43.73851],
      [7.42446, 43.73851],
      [7.43, 43.742],
    ];
    const leg = legToStop(line, S);
    expect(leg).toHaveLength(4);
    expect(leg[2]).toEqual({ lat: 43.73851, lng: 7.42445 });
    expect(leg[3]).toEqual(S);
    expect(legToStop([], S)).toEqual([S]);
  });

  it('ships Monaco addresses from the demo region, inside Monaco, each address once', () => {
    const places = monacoPlaces();
    expect(places.length).toBeGreaterThanOrEqual(150);
    const monaco = { lat: 43.7384, lng: 7.4246 };
    for (const p of places) expect(haversineMeters(p.location, monaco)).toBeLessThan(3_000);
    const keys = places.map((p) => `${p.address.street}|${p.address.number ?? ''}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('ships its Berlin coordinates inside the project', () => {
    const locations = berlinLocations();
    expect(locations.length).toBeGreaterThanOrEqual(300);
    for (const p of locations) {
      expect(p.lat).toBeGreaterThan(52.3);
      expect(p.lat).toBeLessThan(52.7);
      expect(p.lng).toBeGreaterThan(13.0);
      expect(p.lng).toBeLessThan(13.8);
    }
  });

  it('draws the same choices from the same seed', () => {
    const draw = (seed: number) => {
      const r = rng(seed);
      return Array.from({ length: 20 }, () => r.int(1000));
    };
    expect(draw(7)).toEqual(draw(7));
    expect(draw(7)).not.toEqual(draw(8));
  });

  it('permutes every index exactly once, the same way for the same seed', () => {
    for (const n of [0, 1, 2, 7, 500]) {
      const order = rng(3).permutation(n);
      expect([...order].sort((a, b) => a - b)).toEqual(Array.from({ length: n }, (_, k) => k));
      expect(rng(3).permutation(n)).toEqual(order);
    }
    expect(rng(3).permutation(50)).not.toEqual(rng(4).permutation(50));
  });
});
