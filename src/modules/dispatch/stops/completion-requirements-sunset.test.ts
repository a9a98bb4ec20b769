// completion_requirements.fail is deprecated (removal 2026-10-07): every route rendering stops says so in its headers
// until the tenant enforces the sunset past that date; from then on the field is gone from stop payloads.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestTenant } from '../../../../test/app.ts';
import { createBooking, createService, createUser, expectOk } from '../../../../test/factories.ts';

const REMOVAL = Date.parse('2026-10-07T00:00:00Z');

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

interface Answer {
  route: string;
  status: number;
  headers: Record<string, unknown>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON bodies
  body: any;
}

const stopInput = { type: 'task', location: { lat: 52.52, lng: 13.42 }, address: { street: 'Invalidenstraße', number: '3', city: 'Berlin' } };

/** Calls every route whose response renders stops, each with a valid request, and returns the answers. */
async function callStopRoutes(tenant: TestTenant): Promise<Answer[]> {
  const admin = tenant.admin;
  const answers: Answer[] = [];
  const call = async (route: string, res: Promise<{ status: number; headers: Record<string, unknown>; body: unknown }>, status = 200) => {
    const answer = { route, ...(await res) } as Answer;
    expect(answer.status, `${route}: ${JSON.stringify(answer.body)}`).toBe(status);
    answers.push(answer);
    return answer.body;
  };
  const service = await createService(admin);
  const driver = await createUser(admin, { role: 'driver' });
  const stops = [
    { type: 'pickup', location: { lat: 52.5, lng: 13.4 }, address: { street: 'Chausseestraße', number: '1', city: 'Berlin' } },
    { type: 'dropoff', location: { lat: 52.51, lng: 13.41 }, address: { street: 'Torstraße', number: '2', city: 'Berlin' } },
  ];
  const booking = (
    await call('POST /api/hailing/bookings', admin.post('/api/hailing/bookings', { booking: { service_id: service.id, stops, packages: [{ pickup_stop_index: 0, dropoff_stop_index: 1 }] } }), 201)
  ).booking;
  const [pickup, dropoff] = booking.stops;
  const id = booking.id;
  await call('GET /api/hailing/bookings', admin.get('/api/hailing/bookings'));
  await call('GET /api/hailing/bookings/:id', admin.get(`/api/hailing/bookings/${id}`));
  await call('PUT /api/hailing/bookings/:id/tip', admin.put(`/api/hailing/bookings/${id}/tip`, { tip: { amount: 300, currency: 'EUR' } }));
  const custom = (await call('POST /api/hailing/bookings/:id/stops', admin.post(`/api/hailing/bookings/${id}/stops`, { stop: stopInput }), 201)).stop;
  await call('PUT /api/hailing/bookings/:id/stops/groups', admin.put(`/api/hailing/bookings/${id}/stops/groups`, { stops: [{ id: custom.id, group: 'docks' }] }));
  await call('PUT /api/hailing/bookings/:id/managing_organizations', admin.put(`/api/hailing/bookings/${id}/managing_organizations`, { managing_organization_ids: [] }));
  await call('PUT /api/bookings/:id/preferred_drivers', admin.put(`/api/bookings/${id}/preferred_drivers`, { preferred_driver_ids: [] }));
  await call('GET /api/stops/:id', admin.get(`/api/stops/${pickup.id}`));
  await call('PATCH /api/stops/:id/properties', admin.patch(`/api/stops/${custom.id}/properties`, { stop: { notes: 'Side entrance' } }));

  const tour = (await call('POST /api/hailing/bookings/merge', admin.post('/api/hailing/bookings/merge', { stop_ids: [pickup.id, dropoff.id] }), 201)).tour;
  await call('GET /api/hailing/tours', admin.get('/api/hailing/tours'));
  await call('GET /api/hailing/tours/:id', admin.get(`/api/hailing/tours/${tour.id}`));
  await call('POST /api/hailing/tours/:id/stops/insert', admin.post(`/api/hailing/tours/${tour.id}/stops/insert`, { stop_ids: [custom.id] }));
  await call('POST /api/hailing/tours/:id/stops', admin.post(`/api/hailing/tours/${tour.id}/stops`, { stop: stopInput }), 201);
  await call('PUT /api/tours/:id/preferred_drivers', admin.put(`/api/tours/${tour.id}/preferred_drivers`, { preferred_driver_ids: [] }));
  await call('POST /api/hailing/tours/:id/force_assign', admin.post(`/api/hailing/tours/${tour.id}/force_assign`, { driver_id: driver.id, start: true }));
  await call('POST /api/stops/:id/approach', driver.client.post(`/api/stops/${pickup.id}/approach`, {}));
  await call('POST /api/stops/:id/arrive', driver.client.post(`/api/stops/${pickup.id}/arrive`, {}));
  await call('POST /api/stops/:id/complete', driver.client.post(`/api/stops/${pickup.id}/complete`, {}));
  await driver.client.post(`/api/stops/${dropoff.id}/approach`, {});
  await call('POST /api/stops/:id/fail', driver.client.post(`/api/stops/${dropoff.id}/fail`, { outcome: 'skip_recovery' }));

  const other = await createBooking(admin, { service_id: service.id });
  await call('POST /api/hailing/bookings/:id/cancel', admin.post(`/api/hailing/bookings/${other.id}/cancel`, {}));
  const otherTour = (await expectOk(admin.post('/api/hailing/bookings/merge', { booking_ids: [(await createBooking(admin, { service_id: service.id })).id] }), 201)).tour;
  await call('POST /api/hailing/tours/:id/schedule', admin.post(`/api/hailing/tours/${otherTour.id}/schedule`, {}));
  return answers;
}

/** Every stop a response renders, whatever its envelope. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON bodies
function stopsIn(body: any): Record<string, unknown>[] {
  const containers = [body.booking, body.tour, ...(body.bookings ?? []), ...(body.tours ?? [])].filter(Boolean);
  return [...containers.flatMap((c) => c.stops ?? []), body.stop, body.recovery_stop].filter(Boolean);
}

async function tenantEnforcingSunsets(enforce: boolean): Promise<TestTenant> {
  const tenant = await t.createTenant();
  await expectOk(tenant.admin.patch('/api/admin/tenant', { tenant: { settings: { enforce_sunsets: enforce } } }));
  return tenant;
}

describe('completion_requirements.fail on stop payloads', () => {
  it('is rendered with Deprecation, Sunset and Link headers the moment before its removal date, even when sunsets are enforced', async () => {
    t.clock.set(new Date(REMOVAL - 1));
    const answers = await callStopRoutes(await tenantEnforcingSunsets(true));
    for (const { route, headers, body } of answers) {
      expect(headers.deprecation, route).toBe(`@${Date.parse('2026-01-01T00:00:00Z') / 1000}`);
      expect(headers.sunset, route).toBe('Wed, 07 Oct 2026 00:00:00 GMT');
      // Tour and booking responses also name the legacy earnings' successor (its own deprecated field).
      expect(String(headers.link).split(', ')[0], route).toBe('</docs/guide#failure-options>; rel="successor-version"');
      const stops = stopsIn(body);
      expect(stops.length, route).toBeGreaterThan(0);
      for (const stop of stops) expect(stop.completion_requirements, route).toEqual({ fail: expect.any(Boolean) });
    }
  });

  it('is omitted, without deprecation headers, from its removal date on when the tenant enforces sunsets', async () => {
    t.clock.set(new Date(REMOVAL));
    const answers = await callStopRoutes(await tenantEnforcingSunsets(true));
    for (const { route, headers, body } of answers) {
      // Tour and booking responses still carry the legacy earnings' headers (removal 2026-11-06), nothing of this item.
      expect(String(headers.link ?? ''), route).not.toContain('failure-options');
      expect(headers.sunset ?? 'Fri, 06 Nov 2026 00:00:00 GMT', route).toBe('Fri, 06 Nov 2026 00:00:00 GMT');
      const stops = stopsIn(body);
      expect(stops.length, route).toBeGreaterThan(0);
      for (const stop of stops) expect(stop, route).not.toHaveProperty('completion_requirements');
    }
  });

  it('keeps working unchanged past its removal date for a tenant that does not enforce sunsets', async () => {
    t.clock.set(new Date(REMOVAL + 86_400_000));
    const answers = await callStopRoutes(await tenantEnforcingSunsets(false));
    for (const { route, headers, body } of answers) {
      expect(headers.sunset, route).toBe('Wed, 07 Oct 2026 00:00:00 GMT');
      for (const stop of stopsIn(body)) expect(stop.completion_requirements, route).toEqual({ fail: expect.any(Boolean) });
    }
  });
});

describe('compact views', () => {
  it('announce no completion_requirements deprecation: they render no stops', async () => {
    t.clock.set(new Date(REMOVAL - 86_400_000));
    const tenant = await tenantEnforcingSunsets(false);
    const service = await createService(tenant.admin);
    const booking = await createBooking(tenant.admin, { service_id: service.id });
    const tour = (await expectOk(tenant.admin.post('/api/hailing/bookings/merge', { booking_ids: [booking.id] }), 201)).tour;
    for (const url of [`/api/hailing/bookings/${booking.id}`, '/api/hailing/bookings', `/api/hailing/tours/${tour.id}`, '/api/hailing/tours']) {
      const compact = await tenant.admin.get(`${url}?view=compact`);
      expect(compact.status, url).toBe(200);
      expect(JSON.stringify(compact.body), url).not.toContain('completion_requirements');
      // Compact tours and bookings still render the deprecated legacy `earnings`, so only that item is announced.
      expect(String(compact.headers.link ?? ''), url).not.toContain('failure-options');
      expect(compact.headers.sunset, url).toBe('Fri, 06 Nov 2026 00:00:00 GMT');
      expect((await tenant.admin.get(url)).headers.deprecation, url).toMatch(/^@\d+$/);
    }
  });
});
