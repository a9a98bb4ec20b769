import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestTenant } from '../../../test/app.ts';
import { createBooking, createService, createUser, driveStop, expectOk, mergeIntoTour, tourEnRoute } from '../../../test/factories.ts';
import type { Tx } from '../../db/client.ts';
import { findTourById } from './index.ts';
import type { DispatchHooks, TourStopsChange } from './index.ts';

/** What dispatch told other modules, with what the hook could read in the writer's transaction. */
const calls: { hook: keyof DispatchHooks; id: string; reason?: TourStopsChange; statusSeen?: string | null }[] = [];
let failTipHook = false;

const recorder: Partial<DispatchHooks> = {
  async tourCompleted(tx: Tx, tenantId, tourId) {
    calls.push({ hook: 'tourCompleted', id: tourId, statusSeen: (await findTourById(tx, tenantId, tourId))?.status ?? null });
  },
  async bookingTipChanged(_tx, _tenantId, bookingId) {
    if (failTipHook) throw new Error('a reacting module failed');
    calls.push({ hook: 'bookingTipChanged', id: bookingId });
  },
  async tourStopsChanged(_tx, _tenantId, tourId, reason) {
    calls.push({ hook: 'tourStopsChanged', id: tourId, reason });
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

const since = (mark: number) => calls.slice(mark).map(({ hook, reason, statusSeen }) => ({ hook, ...(reason ? { reason } : {}), ...(statusSeen ? { statusSeen } : {}) }));

describe('dispatch hooks', () => {
  it('tell other modules when stops join a tour, the tour starts, stops complete and the tour completes', async () => {
    const driver = await createUser(tenant.admin, { role: 'driver' });
    const booking = await createBooking(tenant.admin, { service_id: service.id });
    let mark = calls.length;
    const tour = await tourEnRoute(tenant.admin, [booking.id], driver.id);
    expect(since(mark)).toEqual([
      { hook: 'tourStopsChanged', reason: 'stops_inserted' },
      { hook: 'tourStopsChanged', reason: 'tour_started' },
    ]);
    expect(calls.slice(mark).every((c) => c.id === tour.id)).toBe(true);

    mark = calls.length;
    await driveStop(driver.client, booking.stops[0].id, 'completed');
    await driveStop(driver.client, booking.stops[1].id, 'completed');
    // The completed tour is already completed when its hook reads it, in the same transaction.
    expect(since(mark)).toEqual([
      { hook: 'tourStopsChanged', reason: 'stop_completed' },
      { hook: 'tourStopsChanged', reason: 'stop_completed' },
      { hook: 'tourCompleted', statusSeen: 'completed' },
    ]);
  });

  it('tells them when a stop fails on a tour and when stops move between tours', async () => {
    const driver = await createUser(tenant.admin, { role: 'driver' });
    const booking = await createBooking(tenant.admin, { service_id: service.id });
    const tour = await tourEnRoute(tenant.admin, [booking.id], driver.id);
    await driveStop(driver.client, booking.stops[0].id, 'arrived');
    let mark = calls.length;
    await expectOk(driver.client.post(`/api/stops/${booking.stops[0].id}/fail`, { outcome: 'skip_recovery' }));
    expect(calls.slice(mark)).toEqual([{ hook: 'tourStopsChanged', id: tour.id, reason: 'stop_failed' }]);

    const other = await createBooking(tenant.admin, { service_id: service.id });
    const from = await mergeIntoTour(tenant.admin, [other.id]);
    const to = await mergeIntoTour(tenant.admin, [(await createBooking(tenant.admin, { service_id: service.id })).id]);
    mark = calls.length;
    await expectOk(tenant.admin.post(`/api/hailing/tours/${to.id}/stops/insert`, { stop_ids: other.stops.map((s: { id: string }) => s.id) }));
    expect(calls.slice(mark)).toEqual([
      { hook: 'tourStopsChanged', id: to.id, reason: 'stops_inserted' },
      { hook: 'tourStopsChanged', id: from.id, reason: 'stops_removed' },
    ]);
  });

  it('tells them when a tip changes, and a hook that throws rolls the write back', async () => {
    const booking = await createBooking(tenant.admin, { service_id: service.id });
    const mark = calls.length;
    await expectOk(tenant.admin.put(`/api/hailing/bookings/${booking.id}/tip`, { tip: { amount: 300, currency: 'EUR' } }));
    expect(calls.slice(mark)).toEqual([{ hook: 'bookingTipChanged', id: booking.id }]);

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
