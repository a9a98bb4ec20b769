// Races of edits that keep bookings whole (decisions 1640, 1641), which only a real PostgreSQL shows (PGlite has one
// session): run with TEST_DATABASE_URL set; on PGlite they are reported as skipped. A session holds the tour's row
// lock as the driver's request does and writes what that request writes; the dispatcher's request must wait for it
// and act on what it committed. Without the tour lock the request runs through on what it read before.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestTenant } from '../../../../test/app.ts';
import { createBooking, createService, createUser, driveStop, expectOk, mergeIntoTour, tourEnRoute } from '../../../../test/factories.ts';
import { waitUntilSettledOrWaitingForALock } from '../../../../test/locks.ts';

describe.skipIf(!process.env.TEST_DATABASE_URL)('edits that keep bookings whole, racing the driver, on PostgreSQL', () => {
  let t: TestApp;
  let tenant: TestTenant;
  let serviceId: string;
  beforeAll(async () => {
    t = await buildTestApp();
    tenant = await t.createTenant();
    serviceId = (await createService(tenant.admin)).id;
  });
  afterAll(async () => t?.close());

  const tourOf = async (id: string) => (await expectOk(tenant.admin.get(`/api/hailing/tours/${id}`))).tour;

  it('a cancel racing the pickup completion sees the parcel on board and returns it, never cancels a parcel in the van', async () => {
    const driver = await createUser(tenant.admin, { role: 'driver' });
    const booking = await createBooking(tenant.admin, { service_id: serviceId });
    const tour = await tourEnRoute(tenant.admin, [booking.id], driver.id);
    const [pickup] = booking.stops;
    await driveStop(driver.client, pickup.id, 'arrived');
    const lostBefore = t.deps.database.lostRaces();
    const completion = await t.deps.database.pool!.connect();
    try {
      await completion.query('BEGIN');
      await completion.query('SELECT id FROM tours WHERE tenant_id = $1 AND id = $2 FOR UPDATE', [tenant.tenantId, tour.id]);
      const cancelling = tenant.admin.post(`/api/hailing/bookings/${booking.id}/cancel`);
      await waitUntilSettledOrWaitingForALock(t.deps.database.pool!, cancelling);
      await completion.query("UPDATE stops SET status = 'completed', completed_at = now() WHERE tenant_id = $1 AND id = $2", [tenant.tenantId, pickup.id]);
      await completion.query("UPDATE packages SET status = 'in_transit' WHERE tenant_id = $1 AND booking_id = $2", [tenant.tenantId, booking.id]);
      await completion.query('COMMIT');
      const cancelled = await expectOk(cancelling);
      const returnStop = cancelled.booking.stops.find((s: { recovery_kind: string | null }) => s.recovery_kind === 'return');
      expect(cancelled.booking.packages[0]).toMatchObject({ status: 'in_transit', dropoff_stop_id: returnStop?.id });
      expect(returnStop).toMatchObject({ status: 'scheduled', tour_id: tour.id, tour_position: 1 });
      expect(cancelled.booking.stops.find((s: { id: string }) => s.id === pickup.id).status).toBe('completed');
      // It waited for the tour, instead of writing the pickup first and losing a deadlock to the completion.
      expect(t.deps.database.lostRaces()).toBe(lostBefore);
    } finally {
      completion.release();
    }
  });

  it("a move of a booking racing the driver's arrival at its pickup moves nothing: the arrived pickup stays, so the drop-off may not go alone", async () => {
    const driver = await createUser(tenant.admin, { role: 'driver' });
    const booking = await createBooking(tenant.admin, { service_id: serviceId });
    const running = await tourEnRoute(tenant.admin, [booking.id], driver.id);
    const target = await mergeIntoTour(tenant.admin, [(await createBooking(tenant.admin, { service_id: serviceId })).id]);
    const [pickup, dropoff] = booking.stops;
    const arrival = await t.deps.database.pool!.connect();
    try {
      await arrival.query('BEGIN');
      await arrival.query('SELECT id FROM tours WHERE tenant_id = $1 AND id = $2 FOR UPDATE', [tenant.tenantId, running.id]);
      const moving = tenant.admin.post(`/api/hailing/tours/${target.id}/stops/insert`, { booking_ids: [booking.id] });
      await waitUntilSettledOrWaitingForALock(t.deps.database.pool!, moving);
      await arrival.query("UPDATE stops SET status = 'arrived', arrived_at = now() WHERE tenant_id = $1 AND id = $2 AND tour_id = $3", [tenant.tenantId, pickup.id, running.id]);
      await arrival.query('COMMIT');
      const moved = await moving;
      expect(moved.status).toBe(409);
      expect(moved.body).toMatchObject({ error_code: 'booking_split', stop_ids: [pickup.id] });
    } finally {
      arrival.release();
    }
    expect((await tourOf(running.id)).stops.map((s: { id: string; status: string }) => [s.id, s.status])).toEqual([[pickup.id, 'arrived'], [dropoff.id, 'scheduled']]);
    expect((await tourOf(target.id)).stops).toHaveLength(2);
  });
});
