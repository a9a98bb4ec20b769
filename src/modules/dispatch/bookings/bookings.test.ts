import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestTenant } from '../../../../test/app.ts';
import { createBooking, createOrganization, createPlace, createService, createUser, eventsOf, expectOk, type CreatedUser } from '../../../../test/factories.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

interface World {
  tenant: TestTenant;
  service: { id: string; service_area_id: string };
  orgId: string;
  manager: CreatedUser;
  places: { id: string }[];
}

async function world(serviceOverrides: Record<string, unknown> = {}): Promise<World> {
  const tenant = await t.createTenant();
  const org = await createOrganization(tenant.admin);
  const manager = await createUser(tenant.admin, { role: 'manager', organization_ids: [org.id] });
  const service = await createService(tenant.admin, serviceOverrides);
  const places = [await createPlace(tenant.admin), await createPlace(tenant.admin), await createPlace(tenant.admin)];
  return { tenant, service, orgId: org.id, manager, places };
}

describe('creating and reading bookings', () => {
  let w: World;
  beforeAll(async () => {
    w = await world();
  });

  it('builds stops from places, copying location and address, keeping place_id and grouping automatically', async () => {
    const booking = await createBooking(w.manager.client, { service_id: w.service.id, places: [w.places[0]!.id, w.places[1]!.id] });
    expect(booking).toMatchObject({ status: 'to_be_dispatched', service_area_id: w.service.service_area_id, managing_organization_ids: [w.orgId] });
    expect(booking.stops).toHaveLength(2);
    expect(booking.stops[0]).toMatchObject({
      type: 'pickup',
      status: 'to_be_dispatched',
      position: 0,
      place_id: w.places[0]!.id,
      group: `A-pickup-${w.places[0]!.id}`,
      address: { street: 'Invalidenstraße', city: 'Berlin' },
      completion_requirements: { fail: false },
    });
    expect(booking.stops[0]).not.toHaveProperty('failure_options');
    expect(booking.packages[0]).toMatchObject({ status: 'created', pickup_stop_id: booking.stops[0].id, dropoff_stop_id: booking.stops[1].id });
    expect(booking.packages[0].shortcode).toMatch(/^[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{8}$/);
    expect(booking.stops[1].package_ids).toEqual([booking.packages[0].id]);
    expect(booking).not.toHaveProperty('return_to_hub');

    const shown = await expectOk(w.manager.client.get(`/api/hailing/bookings/${booking.id}`));
    expect(shown.booking).toEqual(booking);
    const events = await eventsOf(w.tenant.admin, booking.id);
    expect(events.map((e: { type: string }) => e.type)).toEqual(['booking.created']);
    expect(events[0].data).toMatchObject({ booking_id: booking.id, service_area_id: w.service.service_area_id, customer_id: null, external_id: null });
  });

  // The create answers from the rows it wrote, a read from one aggregated statement, a list page from another:
  // all three must render the same booking.
  it('answers a create with the booking a read and the list return, field for field', async () => {
    const booking = await createBooking(w.manager.client, {
      service_id: w.service.id,
      external_id: 'same-everywhere',
      tip: { amount: 250, currency: 'EUR' },
      metadata: { ref: 'A-17' },
      stops: [
        { type: 'pickup', place_id: w.places[0]!.id, time_window: { starts_at: '2026-12-01T09:00:00.000Z', ends_at: '2026-12-01T10:30:00.000Z' } },
        { type: 'dropoff', location: { lat: 52.512345678901, lng: 13.398765432101 }, address: { street: 'Torstraße', city: 'Berlin' }, contact: { name: 'Ada' }, notes: 'ring twice' },
        { type: 'dropoff', place_id: w.places[1]!.id, service_duration_seconds: 300 },
      ],
      packages: [
        { pickup_stop_index: 0, dropoff_stop_index: 1, external_label: 'SAME-1', weight_grams: 1200 },
        { pickup_stop_index: 0, dropoff_stop_index: 2, description: 'fragile' },
        { pickup_stop_index: 0, dropoff_stop_index: 2 },
      ],
    });
    expect(booking.packages).toHaveLength(3);
    expect(booking.packages.map((p: { history: unknown[] }) => p.history.length)).toEqual([1, 1, 1]);
    expect(booking.stops[1].location).toEqual({ lat: 52.512345678901, lng: 13.398765432101 });

    const shown = await expectOk(w.manager.client.get(`/api/hailing/bookings/${booking.id}`));
    expect(shown.booking).toEqual(booking);
    const listed = await expectOk(w.manager.client.get('/api/hailing/bookings?filters[external_id]=same-everywhere'));
    expect(listed.bookings).toEqual([booking]);
  });

  it('keeps explicit groups and stops from raw addresses ungrouped', async () => {
    const booking = await createBooking(w.tenant.admin, {
      service_id: w.service.id,
      stops: [
        { type: 'pickup', place_id: w.places[0]!.id, group: 'dock 4' },
        { type: 'dropoff', location: { lat: 52.5, lng: 13.4 }, address: { street: 'Torstraße', city: 'Berlin' } },
      ],
    });
    expect(booking.stops.map((s: { group: string | null }) => s.group)).toEqual(['dock 4', null]);
  });

  // Responses render a stop without a window as `time_window: null`; a client that sends back what it read must not be
  // refused for it (api-guide "Creating a booking").
  it('accepts time_window: null on a stop as no window, on create and on an added stop', async () => {
    const booking = await createBooking(w.manager.client, {
      service_id: w.service.id,
      stops: [
        { type: 'pickup', place_id: w.places[0]!.id, time_window: null },
        { type: 'dropoff', place_id: w.places[1]!.id, time_window: { starts_at: '2026-12-01T09:00:00.000Z', ends_at: '2026-12-01T10:00:00.000Z' } },
      ],
    });
    expect(booking.stops.map((s: { time_window: unknown }) => s.time_window)).toEqual([null, { starts_at: '2026-12-01T09:00:00.000Z', ends_at: '2026-12-01T10:00:00.000Z' }]);

    const added = await expectOk(
      w.manager.client.post(`/api/hailing/bookings/${booking.id}/stops`, { stop: { type: 'dropoff', place_id: w.places[2]!.id, time_window: null } }),
      201,
    );
    expect(added.stop.time_window).toBeNull();
  });

  it.each([
    [{ group: 'A-mine' }, 'reserved_group_prefix', '/booking/stops/0/group'],
    [{ group: 'g'.repeat(51) }, 'group_too_long', '/booking/stops/0/group'],
  ])('rejects the group %o with %s and leaves nothing behind', async (extra, code, pointer) => {
    const res = await w.tenant.admin.post('/api/hailing/bookings', {
      booking: { service_id: w.service.id, external_id: `bad-${code}`, stops: [{ type: 'pickup', place_id: w.places[0]!.id, ...extra }, { type: 'dropoff', place_id: w.places[1]!.id }] },
    });
    expect(res.status).toBe(422);
    expect(res.body.error_code).toBe(code);
    expect(res.body.errors[0].pointer).toBe(pointer);
    const list = await expectOk(w.tenant.admin.get(`/api/hailing/bookings?filters[external_id]=bad-${code}`));
    expect(list.bookings).toEqual([]);
  });

  it.each([
    ['an unknown service', { service_id: '0190a6c4-7a3b-7c3e-8f00-000000000001' }, '/booking/service_id'],
    ['an unknown place', { stops: [{ type: 'pickup', place_id: '0190a6c4-7a3b-7c3e-8f00-000000000002' }] }, '/booking/stops/0/place_id'],
    ['an unknown organization', { managing_organization_ids: ['0190a6c4-7a3b-7c3e-8f00-000000000003'] }, '/booking/managing_organization_ids/0'],
  ])('rejects %s with 422 unknown_reference', async (_name, extra, pointer) => {
    const res = await w.tenant.admin.post('/api/hailing/bookings', {
      booking: { service_id: w.service.id, stops: [{ type: 'pickup', place_id: w.places[0]!.id }], ...extra },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([expect.objectContaining({ pointer, code: 'unknown_reference' })]);
  });

  it('rejects a package whose drop-off comes before its pickup, and a stop type the service lacks', async () => {
    const res = await w.tenant.admin.post('/api/hailing/bookings', {
      booking: {
        service_id: w.service.id,
        stops: [{ type: 'pickup', place_id: w.places[0]!.id }, { type: 'dropoff', place_id: w.places[1]!.id }],
        packages: [{ pickup_stop_index: 1, dropoff_stop_index: 0 }],
      },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors[0]).toMatchObject({ pointer: '/booking/packages/0/dropoff_stop_index', code: 'dropoff_before_pickup' });
    const badType = await w.tenant.admin.post('/api/hailing/bookings', { booking: { service_id: w.service.id, stops: [{ type: 'teleport', place_id: w.places[0]!.id }] } });
    expect(badType.status).toBe(422);
    expect(badType.body.errors[0]).toMatchObject({ pointer: '/booking/stops/0/type', code: 'invalid_value' });
  });

  it('refuses more stops than the service allows per booking with stop_limit_reached', async () => {
    const small = await createService(w.tenant.admin, { max_stops_per_booking: 2 });
    const res = await w.tenant.admin.post('/api/hailing/bookings', {
      booking: { service_id: small.id, stops: [0, 1, 2].map((i) => ({ type: 'dropoff', place_id: w.places[i]!.id })) },
    });
    expect(res.status).toBe(422);
    expect(res.body.error_code).toBe('stop_limit_reached');
  });

  it('lists bookings newest first with cursor pagination, filters and the compact view', async () => {
    const tenantWorld = await world();
    const created = [];
    for (let i = 0; i < 3; i++) created.push(await createBooking(tenantWorld.tenant.admin, { service_id: tenantWorld.service.id, external_id: `ext-${i}` }));
    const first = await tenantWorld.tenant.admin.get('/api/hailing/bookings?limit=2&view=compact');
    expect(first.status).toBe(200);
    expect(first.body.bookings.map((b: { id: string }) => b.id)).toEqual([created[2].id, created[1].id]);
    expect(first.body.bookings[0]).not.toHaveProperty('stops');
    expect(first.body.meta.has_more).toBe(true);
    expect(first.headers.link).toContain('rel="next"');
    const second = await expectOk(tenantWorld.tenant.admin.get(`/api/hailing/bookings?limit=2&cursor=${first.body.meta.next_cursor}`));
    expect(second.bookings.map((b: { id: string }) => b.id)).toEqual([created[0].id]);
    expect(second.bookings[0].stops).toHaveLength(2);
    const filtered = await expectOk(tenantWorld.tenant.admin.get('/api/hailing/bookings?filters[external_id]=ext-1&filters[status][]=to_be_dispatched'));
    expect(filtered.bookings.map((b: { id: string }) => b.id)).toEqual([created[1].id]);
    const forged = await tenantWorld.tenant.admin.get(`/api/hailing/bookings?cursor=${Buffer.from('["x"]').toString('base64url')}`);
    expect(forged.status).toBe(400);
    expect(forged.body.error_code).toBe('parameter_invalid');
    const unknown = await tenantWorld.tenant.admin.get('/api/hailing/bookings?filters[colour]=red');
    expect(unknown.status).toBe(400);
    expect(unknown.body.error_code).toBe('parameter_unknown');
  });

  it('shows customers only their own bookings', async () => {
    const customer = await createUser(w.tenant.admin, { role: 'customer' });
    const other = await createUser(w.tenant.admin, { role: 'customer' });
    const own = await createBooking(customer.client, { service_id: w.service.id });
    expect(own.customer_id).toBe(customer.id);
    expect((await other.client.get(`/api/hailing/bookings/${own.id}`)).status).toBe(404);
    const list = await expectOk(customer.client.get('/api/hailing/bookings'));
    expect(list.bookings.map((b: { id: string }) => b.id)).toEqual([own.id]);
  });

  it('answers 404 for another tenant’s booking', async () => {
    const booking = await createBooking(w.tenant.admin, { service_id: w.service.id });
    const stranger = await t.createTenant();
    expect((await stranger.admin.get(`/api/hailing/bookings/${booking.id}`)).status).toBe(404);
  });
});

// Decision 0205: a manager cannot hand a booking away from itself; refused before anything is written.
describe('a manager handing a booking away', () => {
  let w: World;
  let otherOrgId: string;
  beforeAll(async () => {
    w = await world();
    otherOrgId = (await createOrganization(w.tenant.admin)).id;
  });

  it('refuses a create naming only another organization with 422 and creates nothing', async () => {
    const eventsBefore = await expectOk(w.tenant.admin.get('/api/admin/events?limit=100'));
    const res = await w.manager.client.post('/api/hailing/bookings', {
      booking: { service_id: w.service.id, external_id: 'handed-away', managing_organization_ids: [otherOrgId], stops: [{ type: 'pickup', place_id: w.places[0]!.id }] },
    });
    expect(res.status).toBe(422);
    expect(res.body.error_code).toBe('must_include_own_organization');
    expect(res.body.errors).toEqual([expect.objectContaining({ pointer: '/booking/managing_organization_ids', code: 'must_include_own_organization' })]);
    const list = await expectOk(w.tenant.admin.get('/api/hailing/bookings?filters[external_id]=handed-away'));
    expect(list.bookings).toEqual([]);
    expect(await expectOk(w.tenant.admin.get('/api/admin/events?limit=100'))).toEqual(eventsBefore);
  });

  it.each([
    ['no organization', () => []],
    ['only another organization', () => [otherOrgId]],
  ])('refuses a managing organizations list of %s with 422, leaving the list and the events as they were', async (_name, list) => {
    const booking = await createBooking(w.manager.client, { service_id: w.service.id });
    const before = await eventsOf(w.tenant.admin, booking.id);
    const res = await w.manager.client.put(`/api/hailing/bookings/${booking.id}/managing_organizations`, { managing_organization_ids: list() });
    expect(res.status).toBe(422);
    expect(res.body.error_code).toBe('must_include_own_organization');
    expect(res.body.errors).toEqual([expect.objectContaining({ pointer: '/managing_organization_ids', code: 'must_include_own_organization' })]);
    const shown = await expectOk(w.manager.client.get(`/api/hailing/bookings/${booking.id}`));
    expect(shown.booking.managing_organization_ids).toEqual([w.orgId]);
    expect(await eventsOf(w.tenant.admin, booking.id)).toEqual(before);
  });

  it('lets a manager share a booking with another organization while keeping its own, and an admin set any list', async () => {
    const booking = await createBooking(w.manager.client, { service_id: w.service.id });
    const shared = await expectOk(w.manager.client.put(`/api/hailing/bookings/${booking.id}/managing_organizations`, { managing_organization_ids: [otherOrgId, w.orgId] }));
    expect(shared.booking.managing_organization_ids).toEqual([otherOrgId, w.orgId].sort());
    const cleared = await expectOk(w.tenant.admin.put(`/api/hailing/bookings/${booking.id}/managing_organizations`, { managing_organization_ids: [] }));
    expect(cleared.booking.managing_organization_ids).toEqual([]);
  });
});
