import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestTenant } from '../../../../test/app.ts';
import { createBooking, createOrganization, createPlace, createService, createUser, eventsOf, expectOk, mergeIntoTour, type CreatedUser } from '../../../../test/factories.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

let tenant: TestTenant;
let serviceId: string;
let orgId: string;
let manager: CreatedUser;
let driver: CreatedUser;
let places: { id: string }[];
beforeAll(async () => {
  tenant = await t.createTenant();
  orgId = (await createOrganization(tenant.admin)).id;
  manager = await createUser(tenant.admin, { role: 'manager', organization_ids: [orgId] });
  driver = await createUser(tenant.admin, { role: 'driver', organization_ids: [orgId] });
  serviceId = (await createService(tenant.admin)).id;
  places = [await createPlace(tenant.admin), await createPlace(tenant.admin)];
});

const newBooking = () => createBooking(manager.client, { service_id: serviceId, places: [places[0]!.id, places[1]!.id] });

describe('stops, groups and bookings over time', () => {
  it('inserts a custom stop into a booking with its automatic group and reports the route change', async () => {
    const booking = await newBooking();
    const res = await manager.client.post(`/api/hailing/bookings/${booking.id}/stops`, { stop: { type: 'dropoff', place_id: places[0]!.id }, position: 1 });
    expect(res.status).toBe(201);
    expect(res.body.stop).toMatchObject({ booking_id: booking.id, position: 1, group: `A-dropoff-${places[0]!.id}`, status: 'to_be_dispatched' });
    const after = await expectOk(manager.client.get(`/api/hailing/bookings/${booking.id}`));
    expect(after.booking.stops.map((s: { position: number }) => s.position)).toEqual([0, 1, 2]);
    expect((await eventsOf(tenant.admin, booking.id, 'booking.route_changed')).length).toBe(1);
  });

  it('inserts a tour-only stop into a tour', async () => {
    const booking = await newBooking();
    const tour = await mergeIntoTour(manager.client, [booking.id]);
    const res = await manager.client.post(`/api/hailing/tours/${tour.id}/stops`, { stop: { type: 'task', place_id: places[1]!.id }, position: 0 });
    expect(res.status).toBe(201);
    expect(res.body.stop).toMatchObject({ booking_id: null, tour_id: tour.id, tour_position: 0, status: 'scheduled', group: `A-task-${places[1]!.id}` });
    const shown = await expectOk(manager.client.get(`/api/hailing/tours/${tour.id}`));
    expect(shown.tour.stops.map((s: { tour_position: number }) => s.tour_position)).toEqual([0, 1, 2]);
  });

  it('updates groups in bulk: custom groups set, null restores the automatic group, reserved prefix refused', async () => {
    const booking = await newBooking();
    const [a, b] = booking.stops;
    const set = await expectOk(manager.client.put(`/api/hailing/bookings/${booking.id}/stops/groups`, { stops: [{ id: a.id, group: 'ramp' }, { id: b.id, group: 'ramp' }] }));
    expect(set.booking.stops.map((s: { group: string }) => s.group)).toEqual(['ramp', 'ramp']);
    const restored = await expectOk(manager.client.put(`/api/hailing/bookings/${booking.id}/stops/groups`, { stops: [{ id: a.id, group: null }] }));
    expect(restored.booking.stops[0].group).toBe(`A-pickup-${places[0]!.id}`);
    const reserved = await manager.client.put(`/api/hailing/bookings/${booking.id}/stops/groups`, { stops: [{ id: b.id, group: 'A-x' }] });
    expect(reserved.status).toBe(422);
    expect(reserved.body).toMatchObject({ error_code: 'reserved_group_prefix', errors: [expect.objectContaining({ pointer: '/stops/0/group' })] });
    const other = await newBooking();
    const foreign = await manager.client.put(`/api/hailing/bookings/${booking.id}/stops/groups`, { stops: [{ id: other.stops[0].id, group: 'x' }] });
    expect(foreign.status).toBe(422);
    expect(foreign.body.errors[0]).toMatchObject({ pointer: '/stops/0/id', code: 'unknown_reference' });
  });

  it('moves an automatic group to the new type when the stop type changes, and keeps explicit groups', async () => {
    const booking = await newBooking();
    const res = await expectOk(manager.client.patch(`/api/stops/${booking.stops[0].id}/properties`, { stop: { type: 'task', notes: 'ring twice' } }));
    expect(res.stop).toMatchObject({ type: 'task', group: `A-task-${places[0]!.id}`, notes: 'ring twice' });
    await expectOk(manager.client.put(`/api/hailing/bookings/${booking.id}/stops/groups`, { stops: [{ id: booking.stops[1].id, group: 'mine' }] }));
    const kept = await expectOk(manager.client.patch(`/api/stops/${booking.stops[1].id}/properties`, { stop: { type: 'task' } }));
    expect(kept.stop.group).toBe('mine');
    const bad = await manager.client.patch(`/api/stops/${booking.stops[1].id}/properties`, { stop: { type: 'warp' } });
    expect(bad.status).toBe(422);
  });

  it('completes the rest of a group on the tour when the driver completes its first stop', async () => {
    const b1 = await createBooking(manager.client, { service_id: serviceId, places: [places[0]!.id, places[1]!.id] });
    const b2 = await createBooking(manager.client, { service_id: serviceId, places: [places[0]!.id, places[1]!.id] });
    const tour = await mergeIntoTour(manager.client, [b1.id, b2.id]);
    await expectOk(manager.client.post(`/api/hailing/tours/${tour.id}/ready_to_pick`));
    await expectOk(driver.client.post(`/api/hailing/tours/${tour.id}/pick`));
    await expectOk(driver.client.post(`/api/stops/${b1.stops[0].id}/arrive`));
    await expectOk(driver.client.post(`/api/stops/${b1.stops[0].id}/complete`));
    const second = await expectOk(driver.client.get(`/api/stops/${b2.stops[0].id}`));
    expect(second.stop.status).toBe('completed');
    expect((await expectOk(driver.client.get(`/api/stops/${b2.stops[1].id}`))).stop.status).toBe('scheduled');
    await expectOk(driver.client.post(`/api/hailing/tours/${tour.id}/ditch`));
  });

  it('refuses a second stop under way on the tour', async () => {
    const booking = await createBooking(manager.client, { service_id: serviceId, packages: [] });
    const tour = await mergeIntoTour(manager.client, [booking.id]);
    await expectOk(manager.client.post(`/api/hailing/tours/${tour.id}/ready_to_pick`));
    const d = await createUser(tenant.admin, { role: 'driver', organization_ids: [orgId] });
    await expectOk(d.client.post(`/api/hailing/tours/${tour.id}/pick`));
    await expectOk(d.client.post(`/api/stops/${booking.stops[0].id}/approach`));
    const res = await d.client.post(`/api/stops/${booking.stops[1].id}/approach`);
    expect(res.status).toBe(409);
    expect(res.body.error_code).toBe('another_stop_in_progress');
    expect((await driver.client.post(`/api/stops/${booking.stops[0].id}/arrive`)).status).toBe(404);
  });

  it('cancels a booking: stops leave their tour, packages are cancelled, booking.transition says so', async () => {
    const booking = await newBooking();
    const tour = await mergeIntoTour(manager.client, [booking.id]);
    const res = await expectOk(manager.client.post(`/api/hailing/bookings/${booking.id}/cancel`));
    expect(res.booking.status).toBe('cancelled');
    expect(res.booking.stops.map((s: { status: string; tour_id: string | null }) => [s.status, s.tour_id])).toEqual([
      ['cancelled', null],
      ['cancelled', null],
    ]);
    expect(res.booking.packages[0].status).toBe('cancelled');
    expect((await expectOk(manager.client.get(`/api/hailing/tours/${tour.id}`))).tour.stops).toEqual([]);
    const transitions = await eventsOf(tenant.admin, booking.id, 'booking.transition');
    expect(transitions.at(-1).data).toMatchObject({ from: 'dispatched', to: 'cancelled', event: 'cancel' });
    expect((await manager.client.post(`/api/hailing/bookings/${booking.id}/cancel`)).status).toBe(409);
  });

  it('refuses a new stop on a cancelled booking (409) and leaves it cancelled', async () => {
    const booking = await newBooking();
    await expectOk(manager.client.post(`/api/hailing/bookings/${booking.id}/cancel`));
    const res = await manager.client.post(`/api/hailing/bookings/${booking.id}/stops`, { stop: { type: 'dropoff', place_id: places[0]!.id } });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ error_code: 'invalid_transition', from: 'cancelled' });
    const after = await expectOk(manager.client.get(`/api/hailing/bookings/${booking.id}`));
    expect(after.booking.status).toBe('cancelled');
    expect(after.booking.stops).toHaveLength(2);
  });

  it('sets the tip, managing organizations and preferred drivers of the managing organizations only', async () => {
    const booking = await newBooking();
    const tipped = await expectOk(manager.client.put(`/api/hailing/bookings/${booking.id}/tip`, { tip: { amount: 300, currency: 'EUR' } }));
    expect(tipped.booking.tip).toEqual({ amount: 300, currency: 'EUR' });
    const preferred = await expectOk(manager.client.put(`/api/bookings/${booking.id}/preferred_drivers`, { preferred_driver_ids: [driver.id] }));
    expect(preferred.booking.preferred_driver_ids).toEqual([driver.id]);
    const stranger = await createUser(tenant.admin, { role: 'driver' });
    const refused = await manager.client.put(`/api/bookings/${booking.id}/preferred_drivers`, { preferred_driver_ids: [stranger.id] });
    expect(refused.status).toBe(422);
    expect(refused.body.errors[0]).toMatchObject({ pointer: '/preferred_driver_ids/0', code: 'driver_not_eligible' });
    const otherOrg = (await createOrganization(tenant.admin)).id;
    const moved = await tenant.admin.put(`/api/hailing/bookings/${booking.id}/managing_organizations`, { managing_organization_ids: [otherOrg] });
    expect(moved.body.booking.managing_organization_ids).toEqual([otherOrg]);
    expect((await manager.client.get(`/api/hailing/bookings/${booking.id}`)).status).toBe(404);
    expect((await t.anonymous.get(`/api/hailing_bookings/${booking.id}/preferred_drivers`)).status).toBe(404);
  });

  it('sets preferred drivers of a tour, which only they then see', async () => {
    const booking = await newBooking();
    const tour = await mergeIntoTour(manager.client, [booking.id]);
    await expectOk(manager.client.post(`/api/hailing/tours/${tour.id}/ready_to_pick`));
    const other = await createUser(tenant.admin, { role: 'driver', organization_ids: [orgId] });
    const set = await expectOk(manager.client.put(`/api/tours/${tour.id}/preferred_drivers`, { preferred_driver_ids: [driver.id] }));
    expect(set.tour.preferred_driver_ids).toEqual([driver.id]);
    expect((await other.client.get(`/api/hailing/tours/${tour.id}`)).status).toBe(404);
    expect((await driver.client.get(`/api/hailing/tours/${tour.id}`)).status).toBe(200);
  });
});
