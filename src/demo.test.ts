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
    expect(result.bookingIds).toHaveLength(4);
    const tour = await expectOk(tenant.admin.get(`/api/hailing/tours/${result.tourInProgressId}`));
    expect(tour.tour.status).toBe('en_route');
    expect(tour.tour.stops[0].status).toBe('completed');
    const manager = withToken(tenant.admin, result.tokens['manager Anna Schulz']!);
    const list = await expectOk(manager.get('/api/hailing/bookings'));
    expect(list.bookings).toHaveLength(4);
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
