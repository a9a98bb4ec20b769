// The generated TypeScript client (clients/typescript) against a live server over real HTTP: the example program
// creates a booking, dispatches it and reads its failure options; typed errors carry the Problem shape.
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatchABooking } from '../../clients/typescript/examples/dispatch-a-booking.ts';
import { createTourbookClient, querySerializer } from '../../clients/typescript/src/index.ts';
import { buildTestApp, type TestApp, type TestTenant } from '../app.ts';
import { createService, createUser } from '../factories.ts';

let t: TestApp;
let tenant: TestTenant;
let baseUrl: string;

beforeAll(async () => {
  t = await buildTestApp();
  tenant = await t.createTenant();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => t.close());

describe('the typed client', () => {
  it('runs the example program: create a booking, dispatch it, read its failure options', async () => {
    const service = await createService(tenant.admin);
    const driver = await createUser(tenant.admin, { role: 'driver' });
    const result = await dispatchABooking({ baseUrl, dispatcherToken: tenant.adminToken, driverToken: driver.token, serviceId: service.id, driverId: driver.id });
    expect(result.tour).toMatchObject({ status: 'en_route', driver_id: driver.id });
    expect(Object.keys(result.options.outcomes).sort()).toEqual(['reattempt_later', 'reattempt_now', 'return_later', 'return_now', 'skip_recovery']);
    expect(result.options.outcomes.skip_recovery.allowed).toBe(true);
  });

  it('gets errors typed as Problem, localized by the client option', async () => {
    const client = createTourbookClient({ baseUrl, token: tenant.adminToken, language: 'de' });
    const { data, error, response } = await client.GET('/api/places/{id}', { params: { path: { id: 'not-an-id' } } });
    expect(data).toBeUndefined();
    expect(response.status).toBe(404);
    expect(error).toMatchObject({ status: 404, error_code: 'not_found' });
    const anonymous = createTourbookClient({ baseUrl, token: 'tb_wrong' });
    expect((await anonymous.GET('/api/user')).error?.error_code).toBe('unauthenticated');
  });

  it('serializes filters the way the API parses them', () => {
    expect(querySerializer({ filters: { status: ['scheduled', 'pickable'], service_area_id: 'a b' }, limit: 5 })).toBe(
      'filters[status][]=scheduled&filters[status][]=pickable&filters[service_area_id]=a%20b&limit=5',
    );
  });
});
