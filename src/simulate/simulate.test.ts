import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/app.ts';
import { berlinLocations, runSimulation } from './city.ts';
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
