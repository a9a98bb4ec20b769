// The deprecated legacy earnings surface (docs/api-guide.md "Deprecations and removals", docs/api-guide.md "Tour compensation, tips and legacy earnings"): booking or tour id, the event, the
// headers, enforce_sunsets; independent of the compensation in both directions.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { deprecationHeaders } from '../../compat/registry.ts';
import { buildTestApp, type TestApp, type TestTenant } from '../../../test/app.ts';
import { createBooking, createService, createUser, eventsOf, expectOk, mergeIntoTour, tourEnRoute } from '../../../test/factories.ts';

const REMOVAL = Date.parse('2026-11-06T00:00:00Z');
let t: TestApp;
let tenant: TestTenant;
let service: { id: string; service_area_id: string };

beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());
beforeEach(async () => {
  t.clock.set('2026-06-01T08:00:00Z');
  tenant = await t.createTenant();
  service = await createService(tenant.admin);
});

const earnings = (amount: number, currency = 'EUR') => ({ earnings: { amount, currency } });

/** `sunset`: false where the response also renders an item with an earlier date (the first Sunset wins). */
function expectDeprecated(headers: Record<string, unknown>, sunset = true) {
  expect(headers.deprecation).toMatch(/^@\d+$/);
  if (sunset) expect(headers.sunset).toBe('Fri, 06 Nov 2026 00:00:00 GMT');
  expect(String(headers.link)).toContain(deprecationHeaders('legacy_earnings').link);
}

describe('legacy earnings', () => {
  it('sets a booking’s earnings by booking id and answers the booking, with the deprecation headers', async () => {
    const booking = await createBooking(tenant.admin, { service_id: service.id });
    const res = await tenant.admin.put(`/api/hailing/bookings/${booking.id}/earnings`, earnings(1200));
    expect(res.status).toBe(200);
    expect(res.body.booking).toMatchObject({ id: booking.id, earnings: { amount: 1200, currency: 'EUR' } });
    expectDeprecated(res.headers);
    const shown = await tenant.admin.get(`/api/hailing/bookings/${booking.id}`);
    expect(shown.body.booking.earnings).toEqual({ amount: 1200, currency: 'EUR' });
    expectDeprecated(shown.headers, false);
    expect(await eventsOf(tenant.admin, booking.id, 'tour.earnings_updated')).toEqual([]);
  });

  it('sets a tour’s earnings by tour id, answers the tour and emits tour.earnings_updated; the compensation stays apart', async () => {
    const tour = await mergeIntoTour(tenant.admin, [(await createBooking(tenant.admin, { service_id: service.id })).id]);
    await expectOk(tenant.admin.put(`/api/tours/${tour.id}/compensation/base`, { amount: 5000, currency: 'EUR' }));
    const res = await tenant.admin.put(`/api/hailing/bookings/${tour.id}/earnings`, earnings(800));
    expect(res.status).toBe(200);
    expect(res.body.tour).toMatchObject({ id: tour.id, earnings: { amount: 800, currency: 'EUR' } });
    const events = await eventsOf(tenant.admin, tour.id, 'tour.earnings_updated');
    expect(events.map((e) => e.data)).toEqual([{ tour_id: tour.id, service_area_id: service.service_area_id, amount: 800, currency: 'EUR' }]);
    // Neither surface mirrors the other.
    expect((await expectOk(tenant.admin.get(`/api/tours/${tour.id}/compensation`))).compensation.total_amount).toBe(5000);
    expect((await expectOk(tenant.admin.get(`/api/tours/${tour.id}/compensation/history`))).history).toHaveLength(1);
    await expectOk(tenant.admin.put(`/api/tours/${tour.id}/compensation/bonus/x`, { amount: 1, currency: 'EUR' }));
    expect((await expectOk(tenant.admin.get(`/api/hailing/tours/${tour.id}`))).tour.earnings).toEqual({ amount: 800, currency: 'EUR' });
  });

  it('validates the body, answers 404 for an unknown or invisible id and 403 to a driver on its own tour', async () => {
    const booking = await createBooking(tenant.admin, { service_id: service.id });
    for (const body of [earnings(1.5), earnings(-1), { earnings: { amount: 1 } }, { amount: 1, currency: 'EUR' }]) {
      expect((await tenant.admin.put(`/api/hailing/bookings/${booking.id}/earnings`, body)).status).toBe(422);
    }
    expect((await tenant.admin.put('/api/hailing/bookings/0190c000-0000-7000-8000-000000000000/earnings', earnings(1))).status).toBe(404);
    const other = await t.createTenant();
    expect((await other.admin.put(`/api/hailing/bookings/${booking.id}/earnings`, earnings(1))).status).toBe(404);
    const driver = await createUser(tenant.admin, { role: 'driver' });
    const tour = await tourEnRoute(tenant.admin, [(await createBooking(tenant.admin, { service_id: service.id })).id], driver.id);
    expect((await driver.client.put(`/api/hailing/bookings/${tour.id}/earnings`, earnings(1))).status).toBe(403);
    expect((await expectOk(tenant.admin.get(`/api/hailing/tours/${tour.id}`))).tour.earnings).toBeNull();
  });

  it('keeps working past the sunset without enforce_sunsets; with it, the route is removed, the field omitted', async () => {
    const booking = await createBooking(tenant.admin, { service_id: service.id });
    const tour = await mergeIntoTour(tenant.admin, [booking.id]);
    t.clock.set(new Date(REMOVAL + 86_400_000));
    await expectOk(tenant.admin.put(`/api/hailing/bookings/${tour.id}/earnings`, earnings(300)));
    await expectOk(tenant.admin.patch('/api/admin/tenant', { tenant: { settings: { enforce_sunsets: true } } }));
    const removed = await tenant.admin.put(`/api/hailing/bookings/${tour.id}/earnings`, earnings(400));
    expect(removed.status).toBe(404);
    expect(removed.body).toMatchObject({ error_code: 'removed', removed_on: '2026-11-06' });
    // Removed before anything else is looked at: a malformed body changes nothing.
    expect((await tenant.admin.put(`/api/hailing/bookings/${tour.id}/earnings`, { nonsense: true })).body.error_code).toBe('removed');
    const shownTour = await tenant.admin.get(`/api/hailing/tours/${tour.id}`);
    expect(shownTour.body.tour).not.toHaveProperty('earnings');
    expect(shownTour.headers.sunset).toBeUndefined();
    const shownBooking = await tenant.admin.get(`/api/hailing/bookings/${booking.id}?view=compact`);
    expect(shownBooking.body.booking).not.toHaveProperty('earnings');
    expect((await eventsOf(tenant.admin, tour.id, 'tour.earnings_updated')).map((e) => e.data.amount)).toEqual([300]);
  });

  it('is still served before the removal date even with enforce_sunsets', async () => {
    const booking = await createBooking(tenant.admin, { service_id: service.id });
    await expectOk(tenant.admin.patch('/api/admin/tenant', { tenant: { settings: { enforce_sunsets: true } } }));
    t.clock.set(new Date(REMOVAL - 1));
    expect((await expectOk(tenant.admin.put(`/api/hailing/bookings/${booking.id}/earnings`, earnings(5)))).booking.earnings).toEqual({ amount: 5, currency: 'EUR' });
  });
});
