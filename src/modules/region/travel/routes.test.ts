// POST /api/routing/matrix (contract §15): who may ask, the 2–1,000 points and their ranges (422 with the pointer,
// never a 5xx), and the answer's shape and source.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestTenant } from '../../../../test/app.ts';
import { createUser } from '../../../../test/factories.ts';

let t: TestApp;
let tenant: TestTenant;
beforeAll(async () => {
  t = await buildTestApp();
  tenant = await t.createTenant();
});
afterAll(async () => t?.close());

const berlin = (n: number) => Array.from({ length: n }, (_, i) => ({ lat: 52.5 + i * 0.0001, lng: 13.4 }));

describe('POST /api/routing/matrix', () => {
  it('answers a directed matrix with its source; straight lines where no region holds the points', async () => {
    const res = await tenant.admin.post('/api/routing/matrix', { points: [{ lat: 52.52, lng: 13.41 }, { lat: 52.5, lng: 13.33 }, { lat: 52.47, lng: 13.4 }] });
    expect(res.status).toBe(200);
    const { matrix } = res.body as { matrix: { durations_s: number[][]; distances_m: number[][]; source: string } };
    expect(matrix.source).toBe('straight_line');
    expect(matrix.durations_s).toHaveLength(3);
    expect(matrix.durations_s[0]![0]).toBe(0);
    expect(matrix.distances_m[0]![1]).toBeGreaterThan(5000);
    // 30 km/h: meters / (30 / 3.6).
    expect(matrix.durations_s[0]![1]).toBeCloseTo(matrix.distances_m[0]![1]! / (30 / 3.6), 0);
  });

  it('managers may ask, drivers and customers may not', async () => {
    const manager = await createUser(tenant.admin, { role: 'manager' });
    expect((await manager.client.post('/api/routing/matrix', { points: berlin(2) })).status).toBe(200);
    const driver = await createUser(tenant.admin, { role: 'driver' });
    expect((await driver.client.post('/api/routing/matrix', { points: berlin(2) })).status).toBe(403);
  });

  it('1,001 points, one point, or a latitude out of range → 422 with the pointer', async () => {
    for (const [points, pointer] of [
      [berlin(1001), '/points'],
      [berlin(1), '/points'],
      [[{ lat: 91, lng: 0 }, { lat: 0, lng: 0 }], '/points/0/lat'],
      [[{ lat: 'NaN', lng: 0 }, { lat: 0, lng: 0 }], '/points/0/lat'],
    ] as const) {
      const res = await tenant.admin.post('/api/routing/matrix', { points });
      expect(res.status).toBe(422);
      expect(JSON.stringify(res.body)).toContain(`"pointer":"${pointer}"`);
    }
  });
});
