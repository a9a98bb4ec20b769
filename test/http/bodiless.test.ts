// Bodiless actions (issue 12, decision 0131): no body, `{}`, and an empty body sent as application/json are all
// accepted, by actions that take no body and by ones whose fields are all optional (fail a stop).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type Client, type RequestOptions, type TestApp, type TestTenant } from '../app.ts';
import { createBooking, createOrganization, createService, createUser, expectOk, mergeIntoTour, tourEnRoute, type CreatedUser } from '../factories.ts';

let t: TestApp;
let tenant: TestTenant;
let organizationId: string;
let serviceId: string;

beforeAll(async () => {
  t = await buildTestApp();
  tenant = await t.createTenant();
  organizationId = (await createOrganization(tenant.admin)).id;
  serviceId = (await createService(tenant.admin)).id;
});
afterAll(async () => t.close());

type Form = 'no body' | '{}' | 'empty application/json';
const FORMS: Form[] = ['no body', '{}', 'empty application/json'];

/** POSTs an action in one of the three bodiless forms. */
function send(client: Client, url: string, form: Form) {
  if (form === 'no body') return client.post(url);
  if (form === '{}') return client.post(url, {});
  const options: RequestOptions = { raw: '', headers: { 'content-type': 'application/json' } };
  return client.post(url, undefined, options);
}

describe.each(FORMS)('a bodiless action sent with %s', (form) => {
  it('approach, arrive and fail a stop (fail without a body defaults to skip_recovery)', async () => {
    // A driver holds one tour under way at a time: one driver per form.
    const driver: CreatedUser = await createUser(tenant.admin, { role: 'driver', organization_ids: [organizationId] });
    const booking = await createBooking(tenant.admin, { service_id: serviceId });
    const tour = await tourEnRoute(tenant.admin, [booking.id], driver.id);
    const stopId = tour.stops[0].id as string;
    await expectOk(send(driver.client, `/api/stops/${stopId}/approach`, form));
    await expectOk(send(driver.client, `/api/stops/${stopId}/arrive`, form));
    const failed = await expectOk(send(driver.client, `/api/stops/${stopId}/fail`, form));
    expect(failed.stop.status).toBe('failed');
    expect(failed.recovery_stop).toBeNull();
  });

  it('cancels a tour', async () => {
    const booking = await createBooking(tenant.admin, { service_id: serviceId });
    const tour = await mergeIntoTour(tenant.admin, [booking.id]);
    const cancelled = await expectOk(send(tenant.admin, `/api/hailing/tours/${tour.id}/cancel`, form));
    expect(cancelled.tour.status).toBe('cancelled');
  });

  it('cancels a booking', async () => {
    const booking = await createBooking(tenant.admin, { service_id: serviceId });
    const cancelled = await expectOk(send(tenant.admin, `/api/hailing/bookings/${booking.id}/cancel`, form));
    expect(cancelled.booking.status).toBe('cancelled');
  });
});

describe('what stays refused', () => {
  it('a body an action requires is still required: an empty create is 422', async () => {
    for (const form of FORMS) {
      const res = await send(tenant.admin, '/api/hailing/bookings', form);
      expect(res.status, form).toBe(422);
      expect(res.body.error_code, form).toBe('validation_failed');
    }
  });

  it('a body that is not JSON is still 400 malformed_request', async () => {
    const booking = await createBooking(tenant.admin, { service_id: serviceId });
    const res = await tenant.admin.post(`/api/hailing/bookings/${booking.id}/cancel`, undefined, { raw: '{', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.body.error_code).toBe('malformed_request');
  });

  it('a stray member on an action that takes none is still 422 unknown_field', async () => {
    const booking = await createBooking(tenant.admin, { service_id: serviceId });
    const res = await tenant.admin.post(`/api/hailing/bookings/${booking.id}/cancel`, { force: true });
    expect(res.status).toBe(422);
    expect(res.body.errors[0].code).toBe('unknown_field');
  });
});

describe('an unknown route', () => {
  // Routing comes before any look at the body (decision 0131): a client is never told to fix a body for a route that does not exist.
  const url = '/api/no_such_thing/0193b2c4-0000-7000-8000-000000000000/things';
  const bodies: [string, RequestOptions][] = [
    ['a JSON object with members', { raw: '{"thing":{"name":"x"}}', headers: { 'content-type': 'application/json' } }],
    ['an empty JSON object', { raw: '{}', headers: { 'content-type': 'application/json' } }],
    ['JSON that does not parse', { raw: '{', headers: { 'content-type': 'application/json' } }],
    ['a NUL inside a JSON string', { raw: '{"a":"\\u0000"}', headers: { 'content-type': 'application/json' } }],
    ['a content type no route takes', { raw: 'a=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } }],
    ['a multipart body', { raw: '--b\r\nContent-Disposition: form-data; name="x"\r\n\r\n1\r\n--b--\r\n', headers: { 'content-type': 'multipart/form-data; boundary=b' } }],
    ['no body', {}],
  ];

  it.each(bodies)('answers 404 not_found to a POST with %s, as an admin and anonymously', async (_name, options) => {
    for (const client of [tenant.admin, t.anonymous]) {
      const res = await client.post(url, undefined, options);
      expect(res.status, res.text).toBe(404);
      expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
      expect(res.body.error_code).toBe('not_found');
    }
  });
});
