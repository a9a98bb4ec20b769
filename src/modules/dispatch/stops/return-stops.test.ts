import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestTenant } from '../../../../test/app.ts';
import { createBooking, createService, createUser, driveStop, expectOk, tourEnRoute } from '../../../../test/factories.ts';

let t: TestApp;
let tenant: TestTenant;
let service: { id: string };

beforeAll(async () => {
  t = await buildTestApp();
  tenant = await t.createTenant();
  service = await createService(tenant.admin);
});
afterAll(async () => t.close());

/** A pickup-then-drop-off booking with one package, en route with a fresh driver: pickup completed, drop-off arrived. */
async function arrivedDropoff() {
  const driver = await createUser(tenant.admin, { role: 'driver' });
  const booking = await createBooking(tenant.admin, {
    service_id: service.id,
    stops: [
      { type: 'pickup', location: { lat: 52.5, lng: 13.4 }, address: { street: 'Chausseestraße', number: '1', city: 'Berlin' } },
      { type: 'dropoff', location: { lat: 52.51, lng: 13.41 }, address: { street: 'Torstraße', number: '2', city: 'Berlin' } },
    ],
    packages: [{ pickup_stop_index: 0, dropoff_stop_index: 1 }],
  });
  await tourEnRoute(tenant.admin, [booking.id], driver.id);
  const [pickup, dropoff] = booking.stops;
  await driveStop(driver.client, pickup.id, 'completed');
  await driveStop(driver.client, dropoff.id, 'arrived');
  return { driver, booking, dropoff, packageId: booking.packages[0].id as string };
}

const packageOf = async (bookingId: string, packageId: string) =>
  (await expectOk(tenant.admin.get(`/api/hailing/bookings/${bookingId}`))).booking.packages.find((p: { id: string }) => p.id === packageId);

describe('completing a return stop', () => {
  it('marks its packages returned, not delivered, and records the return in their history', async () => {
    const { driver, booking, dropoff, packageId } = await arrivedDropoff();
    const failed = await expectOk(driver.client.post(`/api/stops/${dropoff.id}/fail`, { outcome: 'return_now' }));
    const returnStop = failed.recovery_stop;
    expect(returnStop).toMatchObject({ recovery_kind: 'return', package_ids: [packageId] });

    await driveStop(driver.client, returnStop.id, 'completed');
    expect((await expectOk(tenant.admin.get(`/api/stops/${returnStop.id}`))).stop.status).toBe('completed');

    const pkg = await packageOf(booking.id, packageId);
    expect(pkg.status).toBe('returned');
    expect(pkg.history.map((h: { event: string }) => h.event)).toEqual(['created', 'picked_up', 'stop_failed', 'returned']);
    expect(pkg.history.at(-1)).toMatchObject({ stop_id: returnStop.id, tour_id: returnStop.tour_id, actor_id: driver.id });
  });

  it('still marks packages delivered when an ordinary drop-off completes', async () => {
    const { driver, booking, dropoff, packageId } = await arrivedDropoff();
    await expectOk(driver.client.post(`/api/stops/${dropoff.id}/complete`, {}));
    const pkg = await packageOf(booking.id, packageId);
    expect(pkg.status).toBe('delivered');
    expect(pkg.history.at(-1)).toMatchObject({ event: 'delivered', stop_id: dropoff.id });
  });
});
