import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestTenant } from '../../../test/app.ts';
import { createBooking, createPlace, createService, createServiceArea, createUser, expectOk, mergeIntoTour, tourEnRoute } from '../../../test/factories.ts';
import { createWorker, type Worker } from '../../worker/loop.ts';

let t: TestApp;
let worker: Worker;

beforeAll(async () => {
  t = await buildTestApp();
  worker = createWorker(t.deps);
});
afterAll(async () => t.close());

const busynessEvents = async (tenant: TestTenant) =>
  [...(await expectOk(tenant.admin.get('/api/admin/events?filters[type]=busyness.place_changed&limit=100'))).events].reverse();

/** A tenant's service area with two places and a tour service in it. */
async function area(tenant: TestTenant) {
  const serviceArea = await createServiceArea(tenant.admin);
  const places = [await createPlace(tenant.admin, { service_area_id: serviceArea.id }), await createPlace(tenant.admin, { service_area_id: serviceArea.id })];
  const service = await createService(tenant.admin, { service_area_id: serviceArea.id });
  const booking = () => createBooking(tenant.admin, { service_id: service.id, places: places.map((p) => p.id) });
  return { serviceArea, places, booking };
}

/** Runs the busyness tick that is due BUSYNESS_INTERVAL_SECONDS after the last one. */
async function tick(): Promise<void> {
  t.clock.advanceSeconds(t.config.busynessIntervalSeconds);
  await worker.drain();
}

describe('busyness', () => {
  it('sends busyness.place_changed for each place of an area when its step changes, and nothing when it does not', async () => {
    const tenant = await t.createTenant({ extensions: ['busyness'] });
    const { serviceArea, places, booking } = await area(tenant);
    const open = await mergeIntoTour(tenant.admin, [(await booking()).id]);
    await expectOk(tenant.admin.post(`/api/hailing/tours/${open.id}/schedule`, {}));
    await tick();

    // 1 open tour, no busy driver: min(100, floor(10 × 1 / 1) × 10) = 100.
    let events = await busynessEvents(tenant);
    expect(events.map((e) => e.data.place_id).sort()).toEqual(places.map((p) => p.id).sort());
    for (const event of events) {
      expect(event.data).toEqual({
        place_id: event.data.place_id,
        service_area_id: serviceArea.id,
        busyness: 100,
        previous_busyness: 0,
        computed_at: t.clock.now().toISOString(),
      });
    }

    await tick();
    expect(await busynessEvents(tenant)).toHaveLength(2);

    // 1 open tour, 2 busy drivers: floor(10 × 1 / 2) × 10 = 50.
    for (let i = 0; i < 2; i++) {
      const driver = await createUser(tenant.admin, { role: 'driver' });
      await tourEnRoute(tenant.admin, [(await booking()).id], driver.id);
    }
    await tick();
    events = await busynessEvents(tenant);
    expect(events).toHaveLength(4);
    expect(events.slice(2).map((e) => [e.data.busyness, e.data.previous_busyness])).toEqual([
      [50, 100],
      [50, 100],
    ]);
  });

  it('computes nothing for tenants without the busyness extension', async () => {
    const tenant = await t.createTenant();
    const { booking } = await area(tenant);
    const open = await mergeIntoTour(tenant.admin, [(await booking()).id]);
    await expectOk(tenant.admin.post(`/api/hailing/tours/${open.id}/schedule`, {}));
    await tick();
    expect(await busynessEvents(tenant)).toEqual([]);
  });
});
