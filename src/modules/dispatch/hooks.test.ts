// Dispatch's hooks as the answering modules see them: which reaction each change calls, with what, inside the writer's
// transaction (decision 0211).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestTenant } from '../../../test/app.ts';
import { createBooking, createService, createUser, driveStop, expectOk, mergeIntoTour, tourEnRoute } from '../../../test/factories.ts';
import type { DispatchHooks } from '../../seams/index.ts';
import { findTourById } from './index.ts';

/** What dispatch told other modules, with what the hook could read in the writer's transaction. */
type Call =
  | { hook: 'trackedToursChanged'; event: string; tours: { id: string; tracked: boolean }[] }
  | { hook: 'tipFactsChanged'; completedTourIds: string[]; bookingIds: string[]; statusesSeen: (string | null)[] };
const calls: Call[] = [];
let failTipHook = false;

const recorder: Partial<DispatchHooks> = {
  async trackedToursChanged(_tx, change) {
    calls.push({ hook: 'trackedToursChanged', event: change.event, tours: [...change.tours].sort((a, b) => (a.id < b.id ? -1 : 1)) });
  },
  async tipFactsChanged(tx, change) {
    if (failTipHook) throw new Error('a reacting module failed');
    const statusesSeen = await Promise.all(change.completedTourIds.map(async (id) => (await findTourById(tx, change.tenantId, id))?.status ?? null));
    calls.push({ hook: 'tipFactsChanged', completedTourIds: change.completedTourIds, bookingIds: change.bookingIds, statusesSeen });
  },
};

let t: TestApp;
let tenant: TestTenant;
let service: { id: string };

beforeAll(async () => {
  t = await buildTestApp({}, { hooks: { dispatch: recorder } });
  tenant = await t.createTenant();
  service = await createService(tenant.admin);
});
afterAll(async () => t.close());

describe('dispatch hooks', () => {
  it('tell live tracking which tours each change touched and whether a driver holds them', async () => {
    const driver = await createUser(tenant.admin, { role: 'driver' });
    const booking = await createBooking(tenant.admin, { service_id: service.id });
    let mark = calls.length;
    const tour = await tourEnRoute(tenant.admin, [booking.id], driver.id);
    expect(calls.slice(mark)).toEqual([
      { hook: 'trackedToursChanged', event: 'dispatch', tours: [{ id: tour.id, tracked: false }] },
      { hook: 'trackedToursChanged', event: 'force_assign', tours: [{ id: tour.id, tracked: true }] },
    ]);

    mark = calls.length;
    await driveStop(driver.client, booking.stops[0].id, 'completed');
    expect(calls.slice(mark)).toEqual(
      ['stop_approaching', 'stop_arrived', 'stop_completed'].map((event) => ({ hook: 'trackedToursChanged', event, tours: [{ id: tour.id, tracked: true }] })),
    );
  });

  it('tell compensation when a tour completes and its booking finishes, the tour already completed in the transaction', async () => {
    const driver = await createUser(tenant.admin, { role: 'driver' });
    const booking = await createBooking(tenant.admin, { service_id: service.id });
    const tour = await tourEnRoute(tenant.admin, [booking.id], driver.id);
    await driveStop(driver.client, booking.stops[0].id, 'completed');
    await driveStop(driver.client, booking.stops[1].id, 'arrived');
    const mark = calls.length;
    await expectOk(driver.client.post(`/api/stops/${booking.stops[1].id}/complete`, {}));
    expect(calls.slice(mark)).toEqual([
      { hook: 'tipFactsChanged', completedTourIds: [tour.id], bookingIds: [booking.id], statusesSeen: ['completed'] },
      { hook: 'trackedToursChanged', event: 'stop_completed', tours: [{ id: tour.id, tracked: false }] },
    ]);
  });

  it('tell live tracking when a stop fails on a tour and when stops move between tours', async () => {
    const driver = await createUser(tenant.admin, { role: 'driver' });
    const booking = await createBooking(tenant.admin, { service_id: service.id });
    const tour = await tourEnRoute(tenant.admin, [booking.id], driver.id);
    await driveStop(driver.client, booking.stops[0].id, 'arrived');
    let mark = calls.length;
    await expectOk(driver.client.post(`/api/stops/${booking.stops[0].id}/fail`, { outcome: 'skip_recovery' }));
    expect(calls.slice(mark)).toEqual([{ hook: 'trackedToursChanged', event: 'fail_stop', tours: [{ id: tour.id, tracked: true }] }]);

    const other = await createBooking(tenant.admin, { service_id: service.id });
    const from = await mergeIntoTour(tenant.admin, [other.id]);
    const to = await mergeIntoTour(tenant.admin, [(await createBooking(tenant.admin, { service_id: service.id })).id]);
    mark = calls.length;
    await expectOk(tenant.admin.post(`/api/hailing/tours/${to.id}/stops/insert`, { stop_ids: other.stops.map((s: { id: string }) => s.id) }));
    const both = [from.id, to.id].sort().map((id) => ({ id, tracked: false }));
    expect(calls.slice(mark)).toEqual([{ hook: 'trackedToursChanged', event: 'dispatch', tours: both }]);
  });

  it('tell compensation when a tip changes, and a hook that throws rolls the write back', async () => {
    const booking = await createBooking(tenant.admin, { service_id: service.id });
    const mark = calls.length;
    await expectOk(tenant.admin.put(`/api/hailing/bookings/${booking.id}/tip`, { tip: { amount: 300, currency: 'EUR' } }));
    expect(calls.slice(mark)).toEqual([{ hook: 'tipFactsChanged', completedTourIds: [], bookingIds: [booking.id], statusesSeen: [] }]);

    failTipHook = true;
    try {
      const res = await tenant.admin.put(`/api/hailing/bookings/${booking.id}/tip`, { tip: { amount: 900, currency: 'EUR' } });
      expect(res.status).toBe(500);
    } finally {
      failTipHook = false;
    }
    const shown = await expectOk(tenant.admin.get(`/api/hailing/bookings/${booking.id}`));
    expect(shown.booking.tip).toEqual({ amount: 300, currency: 'EUR' });
  });
});
