// A proposed tour's distance comes from the same source as its times (contract §16, schemas.ts `distance_m`): on an
// imported region's roads it is the road metres of its legs, not the straight lines between its stops.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../test/app.ts';
import { createBooking, createServiceArea, expectOk } from '../../../../test/factories.ts';
import { at, planningWorld } from '../../../../test/planning.ts';
import { importRegion } from '../../region/index.ts';

/** A depot at the port (Quai Albert 1er), a pickup at Place du Casino, a drop-off at the Palace (Place du Palais). */
const PORT = { lat: 43.73482, lng: 7.42152 };
const CASINO = { lat: 43.73945, lng: 7.42776 };
const PALAIS = { lat: 43.73133, lng: 7.42025 };

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
  await importRegion(t.deps, path.resolve(import.meta.dirname, '../../../../regions/monaco.osm.pbf'), { name: 'monaco' });
}, 120_000);
afterAll(async () => t?.close());

describe('a proposed tour on the roads', () => {
  it('reports the road metres of its legs as its distance, from the same matrix as its times', async () => {
    const w = await planningWorld(t, 1);
    const area = await createServiceArea(w.tenant.admin, { name: 'Monaco', time_zone: 'Europe/Monaco' });
    const service = (await expectOk(w.tenant.admin.post('/api/admin/hailing/services', { service: { name: 'Monaco', service_area_id: area.id } }), 201)).service;
    const driver = w.drivers[0]!;
    await expectOk(w.manager.client.post(`/api/drivers/${driver.id}/shifts`, { shift: { starts_at: at('08:00'), ends_at: at('16:00'), start_location: PORT, end_location: PORT } }), 201);
    const address = (street: string) => ({ street, number: '1', city: 'Monaco' });
    const booking = await createBooking(w.manager.client, {
      service_id: service.id,
      managing_organization_ids: [w.org],
      stops: [
        { type: 'pickup', location: CASINO, address: address('Place du Casino') },
        { type: 'dropoff', location: PALAIS, address: address('Place du Palais') },
      ],
    });
    const plan = (await expectOk(w.manager.client.post('/api/hailing/dispatch/plan', { booking_ids: [booking.id], drivers: [driver.id], time_limit_ms: 300 }))).plan;
    expect(plan.travel_source).toBe('road_network');
    const [tour] = plan.tours;
    // Port → casino → palace → port, each leg's metres from the routing matrix over the same points.
    const matrix = (await expectOk(w.manager.client.post('/api/routing/matrix', { points: [PORT, CASINO, PALAIS] }))).matrix;
    const m = matrix.distances_m as number[][];
    expect(matrix.source).toBe('road_network');
    const road = m[0]![1]! + m[1]![2]! + m[2]![0]!;
    expect(Math.abs(tour.distance_m - road)).toBeLessThanOrEqual(2);
    // Monaco's roads climb and wind: well above the straight lines between the same points.
    const crow = (a: typeof PORT, b: typeof PORT) => 6_371_000 * Math.hypot(((b.lat - a.lat) * Math.PI) / 180, ((b.lng - a.lng) * Math.PI * Math.cos((a.lat * Math.PI) / 180)) / 180);
    expect(tour.distance_m).toBeGreaterThan(1.2 * (crow(PORT, CASINO) + crow(CASINO, PALAIS) + crow(PALAIS, PORT)));
  });
});
