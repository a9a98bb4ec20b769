import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../test/app.ts';
import { expectOk, withToken } from '../test/factories.ts';
import { runDemo } from './demo.ts';

let t: TestApp;
let baseUrl: string;
beforeAll(async () => {
  t = await buildTestApp();
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => t.close());

describe('tourbook demo', () => {
  // Some forty requests over about twenty routes, each compiling its schemas on first use (decision 0130): on a busy
  // machine that takes longer than the default 30 s.
  it('loads bookings, a tour in progress and working API keys into a running service over HTTP', async () => {
    const tenant = await t.createTenant();
    const lines: string[] = [];
    const result = await runDemo({ baseUrl, adminToken: tenant.adminToken, log: (line) => lines.push(line) });
    expect(result.bookingIds).toHaveLength(6);
    // A day in Monaco (contract §14): its country reads the contacts' national numbers, the places are real addresses.
    const { service_area: area } = await expectOk(tenant.admin.get(`/api/admin/service_areas/${result.serviceAreaId}`));
    expect(area).toMatchObject({ name: 'Monaco', time_zone: 'Europe/Monaco', country_code: 'MC' });
    const { places } = await expectOk(tenant.admin.get(`/api/places?filters[service_area_id]=${result.serviceAreaId}&limit=100`));
    expect(places.map((p: { address: { city: string } }) => p.address.city)).toEqual(Array(5).fill('Monaco'));
    const depot = places.find((p: { is_hub: boolean }) => p.is_hub);
    expect(depot).toMatchObject({ address: { street: 'Rue du Gabian', number: '7' }, contact: { phone_number: '+37793501234' } });
    for (const p of places) {
      expect(p.location.lat).toBeGreaterThan(43.72);
      expect(p.location.lat).toBeLessThan(43.76);
    }
    const recipient = await expectOk(tenant.admin.get(`/api/hailing/bookings/${result.bookingIds[4]}`));
    expect(recipient.booking.stops[1]).toMatchObject({ place_id: null, address: { street: 'Avenue Albert II', city: 'Monaco' }, contact: { phone_number: '+377640123456' } });
    // Every driver has a shift today, from the depot.
    const { users: drivers } = await expectOk(tenant.admin.get('/api/users?filters[role]=driver&limit=100'));
    expect(drivers).toHaveLength(3);
    for (const driver of drivers) {
      const { shifts } = await expectOk(tenant.admin.get(`/api/drivers/${driver.id}/shifts`));
      expect(shifts).toHaveLength(1);
      expect(shifts[0].start_place_id).toBe(depot.id);
    }
    const tour = await expectOk(tenant.admin.get(`/api/hailing/tours/${result.tourInProgressId}`));
    expect(tour.tour.status).toBe('en_route');
    expect(tour.tour.stops[0].status).toBe('completed');
    const manager = withToken(tenant.admin, result.tokens['manager Anna Schulz']!);
    const list = await expectOk(manager.get('/api/hailing/bookings'));
    expect(list.bookings).toHaveLength(6);
    expect(lines.join('\n')).toContain('en route with Carla Weber');
    const { compensation } = await expectOk(tenant.admin.get(`/api/tours/${result.tourInProgressId}/compensation`));
    expect(compensation).toMatchObject({ total_amount: 4700, breakdown: { bonuses: [{ key: 'rush_hour', amount: 500 }] } });
    const services = await expectOk(tenant.admin.get('/api/admin/hailing/services'));
    expect(services.services.map((s: { tip_distribution_strategy: string }) => s.tip_distribution_strategy)).toContain('completed_dropoffs_on_tour');

    // The console: Anna signs in with the e-mail and password the demo printed.
    expect(lines.join('\n')).toContain(`${baseUrl}/console — sign in as Anna (manager) with ${result.signIn.emails.anna} and the password ${result.signIn.password}`);
    const session = await t.app.inject({
      method: 'POST',
      url: '/api/session',
      payload: { user: { email: result.signIn.emails.anna, password: result.signIn.password } },
    });
    expect(session.statusCode).toBe(200);
    expect(JSON.parse(session.body).user).toMatchObject({ role: 'manager', name: 'Anna Schulz' });
  }, 90_000);
});
