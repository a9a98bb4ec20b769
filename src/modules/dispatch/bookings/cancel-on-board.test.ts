// Cancelling a booking whose parcel is in the van (decision 1641): a return stop to the pickup right after the
// driver's current stop, the return_now recovery's events, a true custody history.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestTenant } from '../../../../test/app.ts';
import { createBooking, createService, createUser, driveStop, eventsOf, expectOk, tourEnRoute } from '../../../../test/factories.ts';

let t: TestApp;
let tenant: TestTenant;
let service: { id: string };

beforeAll(async () => {
  t = await buildTestApp();
  tenant = await t.createTenant();
  service = await createService(tenant.admin);
});
afterAll(async () => t.close());

const booking = (serviceId = service.id) => createBooking(tenant.admin, { service_id: serviceId });
const tourOf = async (id: string) => (await expectOk(tenant.admin.get(`/api/hailing/tours/${id}`))).tour;

describe('cancelling a booking with its parcel on board', () => {
  it("puts a return stop to the pickup place right after the driver's current stop and keeps the parcel in transit", async () => {
    const driver = await createUser(tenant.admin, { role: 'driver' });
    const [a, b] = [await booking(), await booking()];
    const tour = await tourEnRoute(tenant.admin, [a.id, b.id], driver.id);
    await driveStop(driver.client, a.stops[0].id, 'completed');
    await driveStop(driver.client, b.stops[0].id, 'arrived');
    const cancelled = await expectOk(tenant.admin.post(`/api/hailing/bookings/${a.id}/cancel`));
    expect(cancelled.booking.status).toBe('cancelled');
    const returnStop = cancelled.booking.stops.find((s: { recovery_kind: string | null }) => s.recovery_kind === 'return');
    expect(returnStop).toMatchObject({
      type: 'return',
      status: 'scheduled',
      tour_id: tour.id,
      recovery_of_stop_id: a.stops[1].id,
      location: a.stops[0].location,
      address: a.stops[0].address,
      package_ids: [a.packages[0].id],
    });
    expect(cancelled.booking.stops.find((s: { id: string }) => s.id === a.stops[1].id)).toMatchObject({ status: 'cancelled', tour_id: null });
    // The driver's tour: the completed pickup, b's pickup under way, the return right after it, then b's drop-off.
    const after = await expectOk(driver.client.get(`/api/hailing/tours/${tour.id}`));
    expect(after.tour.stops.map((s: { id: string; tour_position: number }) => [s.id, s.tour_position])).toEqual([
      [a.stops[0].id, 0],
      [b.stops[0].id, 1],
      [returnStop.id, 2],
      [b.stops[1].id, 3],
    ]);
    const pkg = cancelled.booking.packages[0];
    expect(pkg).toMatchObject({ status: 'in_transit', dropoff_stop_id: returnStop.id });
    expect(pkg.history.map((h: { event: string }) => h.event)).toEqual(['created', 'picked_up', 'return_started']);
    expect(await eventsOf(tenant.admin, a.id, 'booking.return_started')).toEqual([
      expect.objectContaining({ data: expect.objectContaining({ stop_id: returnStop.id, tour_id: tour.id }) }),
    ]);
    expect((await eventsOf(tenant.admin, tour.id, 'tour.modified')).length).toBeGreaterThan(0);

    // The driver hands the parcel back: returned, and its history says so.
    await expectOk(driver.client.post(`/api/stops/${b.stops[0].id}/complete`, {}));
    await driveStop(driver.client, returnStop.id, 'completed');
    const final = (await expectOk(tenant.admin.get(`/api/hailing/bookings/${a.id}`))).booking;
    expect(final.status).toBe('cancelled');
    expect(final.packages[0].status).toBe('returned');
    expect(final.packages[0].history.map((h: { event: string }) => h.event)).toEqual(['created', 'picked_up', 'return_started', 'returned']);
  });

  it('with the driver at the drop-off fails it (booking_cancelled) and the return comes right after it', async () => {
    const driver = await createUser(tenant.admin, { role: 'driver' });
    const [a, b] = [await booking(), await booking()];
    const tour = await tourEnRoute(tenant.admin, [a.id, b.id], driver.id);
    await driveStop(driver.client, a.stops[0].id, 'completed');
    await driveStop(driver.client, a.stops[1].id, 'arrived');
    const cancelled = await expectOk(tenant.admin.post(`/api/hailing/bookings/${a.id}/cancel`));
    const returnStop = cancelled.booking.stops.find((s: { recovery_kind: string | null }) => s.recovery_kind === 'return');
    expect(cancelled.booking.stops.find((s: { id: string }) => s.id === a.stops[1].id)).toMatchObject({ status: 'failed', failure: { outcome: 'skip_recovery', reason_key: 'booking_cancelled' } });
    expect((await tourOf(tour.id)).stops.map((s: { id: string }) => s.id)).toEqual([a.stops[0].id, a.stops[1].id, returnStop.id, b.stops[0].id, b.stops[1].id]);
  });

  it('cancels the parcels of a booking not yet picked up, and adds no return', async () => {
    const driver = await createUser(tenant.admin, { role: 'driver' });
    const a = await booking();
    await tourEnRoute(tenant.admin, [a.id], driver.id);
    const cancelled = await expectOk(tenant.admin.post(`/api/hailing/bookings/${a.id}/cancel`));
    expect(cancelled.booking.stops).toHaveLength(2);
    expect(cancelled.booking.packages[0].status).toBe('cancelled');
    expect(await eventsOf(tenant.admin, a.id, 'booking.return_started')).toEqual([]);
  });

  it('without a return stop type on the service cancels the parcel as before', async () => {
    const noReturns = await createService(tenant.admin, { return_stop_type: null });
    const driver = await createUser(tenant.admin, { role: 'driver' });
    const a = await booking(noReturns.id);
    await tourEnRoute(tenant.admin, [a.id], driver.id);
    await driveStop(driver.client, a.stops[0].id, 'completed');
    const cancelled = await expectOk(tenant.admin.post(`/api/hailing/bookings/${a.id}/cancel`));
    expect(cancelled.booking.stops).toHaveLength(2);
    expect(cancelled.booking.packages[0].status).toBe('cancelled');
  });
});
