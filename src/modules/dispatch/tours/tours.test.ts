import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestTenant } from '../../../../test/app.ts';
import {
  createBooking,
  createOrganization,
  createPlace,
  createSchedulingConfig,
  createService,
  createUser,
  eventsOf,
  expectOk,
  mergeIntoTour,
  type CreatedUser,
} from '../../../../test/factories.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

interface World {
  tenant: TestTenant;
  service: { id: string; service_area_id: string };
  orgA: string;
  orgB: string;
  managerA: CreatedUser;
  managerB: CreatedUser;
  driverA: CreatedUser;
  driverA2: CreatedUser;
  driverB: CreatedUser;
  places: { id: string }[];
}

async function world(serviceOverrides: Record<string, unknown> = {}): Promise<World> {
  const tenant = await t.createTenant();
  const [a, b] = [await createOrganization(tenant.admin), await createOrganization(tenant.admin)];
  const service = await createService(tenant.admin, serviceOverrides);
  return {
    tenant,
    service,
    orgA: a.id,
    orgB: b.id,
    managerA: await createUser(tenant.admin, { role: 'manager', organization_ids: [a.id] }),
    managerB: await createUser(tenant.admin, { role: 'manager', organization_ids: [b.id] }),
    driverA: await createUser(tenant.admin, { role: 'driver', organization_ids: [a.id] }),
    driverA2: await createUser(tenant.admin, { role: 'driver', organization_ids: [a.id] }),
    driverB: await createUser(tenant.admin, { role: 'driver', organization_ids: [b.id] }),
    places: [await createPlace(tenant.admin), await createPlace(tenant.admin), await createPlace(tenant.admin)],
  };
}

/** A booking managed by organization A, merged into a new tour that is released to drivers as `status`. */
async function tourFor(w: World, status: 'to_be_dispatched' | 'scheduled' | 'pickable' = 'scheduled', managing?: string[]) {
  const booking = await createBooking(w.managerA.client, {
    service_id: w.service.id,
    places: [w.places[0]!.id, w.places[1]!.id],
    ...(managing ? { managing_organization_ids: managing } : {}),
  });
  const admin = w.tenant.admin;
  const tour = await mergeIntoTour(admin, [booking.id]);
  if (status === 'scheduled') await expectOk(admin.post(`/api/hailing/tours/${tour.id}/schedule`));
  if (status === 'pickable') await expectOk(admin.post(`/api/hailing/tours/${tour.id}/ready_to_pick`));
  return { booking, tourId: tour.id as string };
}

const activeTourOf = async (w: World, driver: CreatedUser) => (await expectOk(driver.client.get('/api/user'))).user.active_tour_id;

describe('dispatching into tours', () => {
  let w: World;
  beforeAll(async () => {
    w = await world();
  });

  it('merges bookings into a new tour, pickups first, and derives the booking status', async () => {
    const b1 = await createBooking(w.managerA.client, { service_id: w.service.id, places: [w.places[0]!.id, w.places[1]!.id] });
    const b2 = await createBooking(w.managerA.client, { service_id: w.service.id, places: [w.places[0]!.id, w.places[2]!.id] });
    const res = await w.managerA.client.post('/api/hailing/bookings/merge', { booking_ids: [b1.id, b2.id] });
    expect(res.status).toBe(201);
    const tour = res.body.tour;
    expect(tour).toMatchObject({ status: 'to_be_dispatched', driver_id: null, managing_organization_ids: [w.orgA] });
    expect(tour.stops.map((s: { id: string }) => s.id)).toEqual([b1.stops[0].id, b1.stops[1].id, b2.stops[0].id, b2.stops[1].id]);
    expect(tour.stops.map((s: { tour_position: number }) => s.tour_position)).toEqual([0, 1, 2, 3]);
    expect(tour.stops.every((s: { status: string }) => s.status === 'scheduled')).toBe(true);
    expect(tour).not.toHaveProperty('return_to_hub');
    const booking = await expectOk(w.managerA.client.get(`/api/hailing/bookings/${b1.id}`));
    expect(booking.booking.status).toBe('dispatched');
    const [created] = await eventsOf(w.tenant.admin, tour.id, 'tour.created');
    expect(created.data).toEqual({ tour_id: tour.id, service_area_id: w.service.service_area_id, status: 'to_be_dispatched', dispatched_booking_ids: [b1.id, b2.id].sort() });
    const transitions = await eventsOf(w.tenant.admin, b1.id, 'booking.transition');
    expect(transitions.map((e: { data: unknown }) => e.data)).toEqual([
      expect.objectContaining({ booking_id: b1.id, from: 'to_be_dispatched', to: 'dispatched', event: 'dispatch' }),
    ]);
  });

  it('dispatches one stop into a new tour and leaves the booking partially dispatched', async () => {
    const b = await createBooking(w.managerA.client, { service_id: w.service.id, places: [w.places[0]!.id, w.places[1]!.id], packages: [] });
    await expectOk(w.managerA.client.post('/api/hailing/bookings/merge', { stop_ids: [b.stops[0].id] }), 201);
    expect((await expectOk(w.managerA.client.get(`/api/hailing/bookings/${b.id}`))).booking.status).toBe('partially_dispatched');
  });

  it('inserts waiting stops into an existing tour at a position and moves stops between tours', async () => {
    const { tourId, booking } = await tourFor(w, 'to_be_dispatched');
    const other = await createBooking(w.managerA.client, { service_id: w.service.id, places: [w.places[2]!.id, w.places[1]!.id] });
    const inserted = await expectOk(w.managerA.client.post(`/api/hailing/tours/${tourId}/stops/insert`, { stop_ids: [other.stops[0].id, other.stops[1].id], position: 0 }));
    expect(inserted.tour.stops.map((s: { id: string }) => s.id)).toEqual([other.stops[0].id, other.stops[1].id, booking.stops[0].id, booking.stops[1].id]);
    const second = await mergeIntoTour(w.tenant.admin, [(await createBooking(w.managerA.client, { service_id: w.service.id })).id]);
    const moved = await expectOk(w.tenant.admin.post(`/api/hailing/tours/${second.id}/stops/insert`, { stop_ids: [other.stops[0].id, other.stops[1].id] }));
    expect(moved.tour.stops.slice(-2).map((s: { id: string }) => s.id)).toEqual([other.stops[0].id, other.stops[1].id]);
    const source = await expectOk(w.tenant.admin.get(`/api/hailing/tours/${tourId}`));
    expect(source.tour.stops.map((s: { id: string; tour_position: number }) => [s.id, s.tour_position])).toEqual([
      [booking.stops[0].id, 0],
      [booking.stops[1].id, 1],
    ]);
  });

  it('refuses a drop-off placed before its pickup and leaves the tour as it was', async () => {
    const { tourId } = await tourFor(w, 'to_be_dispatched');
    const other = await createBooking(w.managerA.client, { service_id: w.service.id });
    const res = await w.tenant.admin.post(`/api/hailing/tours/${tourId}/stops/insert`, { stop_ids: [other.stops[1].id, other.stops[0].id] });
    expect(res.status).toBe(422);
    expect(res.body.error_code).toBe('pickup_after_dropoff');
    expect((await expectOk(w.tenant.admin.get(`/api/hailing/tours/${tourId}`))).tour.stops).toHaveLength(2);
  });

  it('refuses more stops than the service allows per tour', async () => {
    const small = await createService(w.tenant.admin, { service_area_id: w.service.service_area_id, max_stops_per_tour: 3 });
    const b1 = await createBooking(w.tenant.admin, { service_id: small.id });
    const b2 = await createBooking(w.tenant.admin, { service_id: small.id });
    const res = await w.tenant.admin.post('/api/hailing/bookings/merge', { booking_ids: [b1.id, b2.id] });
    expect(res.status).toBe(422);
    expect(res.body.error_code).toBe('stop_limit_reached');
  });

  it('answers unknown or invisible stop ids with 422 unknown_reference', async () => {
    const b = await createBooking(w.managerA.client, { service_id: w.service.id });
    const res = await w.managerB.client.post('/api/hailing/bookings/merge', { stop_ids: [b.stops[0].id] });
    expect(res.status).toBe(422);
    expect(res.body.errors[0]).toMatchObject({ pointer: '/stop_ids/0', code: 'unknown_reference' });
  });

  it('creates the tour at once for an auto-dispatch service', async () => {
    const config = await createSchedulingConfig(w.tenant.admin, { mode: 'instant' });
    const auto = await createService(w.tenant.admin, { service_area_id: w.service.service_area_id, dispatch_mode: 'auto', scheduling_config_id: config.id });
    const b = await createBooking(w.tenant.admin, { service_id: auto.id });
    expect(b.status).toBe('dispatched');
    const tour = await expectOk(w.tenant.admin.get(`/api/hailing/tours/${b.stops[0].tour_id}`));
    expect(tour.tour.status).toBe('pickable');
  });
});

describe('the tour state machine over HTTP', () => {
  let w: World;
  beforeAll(async () => {
    w = await world();
  });

  it('lets an eligible driver claim, start and finish a tour, completing booking and tour automatically', async () => {
    const { tourId, booking } = await tourFor(w);
    const claimed = await expectOk(w.driverA.client.post(`/api/hailing/tours/${tourId}/claim`));
    expect(claimed.tour).toMatchObject({ status: 'claimed', driver_id: w.driverA.id, executing_organization_id: w.orgA });
    expect(claimed.tour.claim_expires_at).toBe(new Date(t.clock.now().getTime() + 900_000).toISOString());
    await expectOk(w.driverA.client.post(`/api/hailing/tours/${tourId}/start`));
    expect(await activeTourOf(w, w.driverA)).toBe(tourId);

    const [pickup, dropoff] = booking.stops;
    await expectOk(w.driverA.client.post(`/api/stops/${pickup.id}/approach`));
    const arrived = await expectOk(w.driverA.client.post(`/api/stops/${pickup.id}/arrive`));
    expect(arrived.stop.status).toBe('arrived');
    expect(arrived.stop.failure_options.outcomes.skip_recovery).toEqual({ allowed: true, reason: null, reason_key: null });
    expect(arrived.stop.completion_requirements).toEqual({ fail: true });
    await expectOk(w.driverA.client.post(`/api/stops/${pickup.id}/complete`));
    const pkg = (await expectOk(w.driverA.client.get(`/api/hailing/bookings/${booking.id}`))).booking.packages[0];
    expect(pkg.status).toBe('in_transit');
    await expectOk(w.driverA.client.post(`/api/stops/${dropoff.id}/arrive`));
    await expectOk(w.driverA.client.post(`/api/stops/${dropoff.id}/complete`, { packages: [{ id: pkg.id, result: 'delivered' }] }));

    const tour = await expectOk(w.driverA.client.get(`/api/hailing/tours/${tourId}`));
    expect(tour.tour).toMatchObject({ status: 'completed', driver_id: w.driverA.id });
    const done = await expectOk(w.driverA.client.get(`/api/hailing/bookings/${booking.id}`));
    expect(done.booking.status).toBe('completed');
    expect(done.booking.packages[0].status).toBe('delivered');
    expect(done.booking.packages[0].history.map((h: { event: string }) => h.event)).toEqual(['created', 'picked_up', 'delivered']);
    expect(await activeTourOf(w, w.driverA)).toBeNull();
    const statuses = await eventsOf(w.tenant.admin, tourId, 'tour.active_status_changed');
    expect(statuses.map((e: { data: { event: string; to: string } }) => [e.data.event, e.data.to])).toEqual([
      ['schedule', 'scheduled'],
      ['claim', 'claimed'],
      ['start', 'en_route'],
      ['complete', 'completed'],
    ]);
    expect(statuses[1].data).toMatchObject({ from: 'scheduled', driver_id: w.driverA.id, affected_user_ids: [w.driverA.id] });

    // A completed booking never becomes dispatchable again.
    const res = await w.tenant.admin.post(`/api/hailing/bookings/${booking.id}/stops`, { stop: { type: 'dropoff', place_id: w.places[2]!.id } });
    expect(res.status).toBe(409);
  });

  it('names from and to when an action does not fit the state', async () => {
    const { tourId } = await tourFor(w, 'to_be_dispatched');
    const res = await w.tenant.admin.post(`/api/hailing/tours/${tourId}/hold`);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ error_code: 'invalid_transition', from: 'to_be_dispatched', to: 'to_be_dispatched' });
  });

  it('refuses dispatcher actions to drivers and driver actions to dispatchers', async () => {
    const { tourId } = await tourFor(w);
    expect((await w.driverA.client.post(`/api/hailing/tours/${tourId}/cancel`)).status).toBe(403);
    expect((await w.managerA.client.post(`/api/hailing/tours/${tourId}/claim`)).status).toBe(403);
  });

  it('hides another driver’s tour from a driver (404), a late claimer included (decision 0206)', async () => {
    const { tourId } = await tourFor(w);
    await expectOk(w.driverA.client.post(`/api/hailing/tours/${tourId}/claim`));
    expect((await w.driverA2.client.post(`/api/hailing/tours/${tourId}/start`)).status).toBe(404);
    expect((await w.driverA2.client.get(`/api/hailing/tours/${tourId}`)).status).toBe(404);
    const late = await w.driverA2.client.post(`/api/hailing/tours/${tourId}/claim`);
    expect(late.status).toBe(404);
    expect(late.body).not.toHaveProperty('from');
  });

  it('answers 404, not the state, to an eligible driver claiming or picking a tour it cannot see', async () => {
    const { tourId } = await tourFor(w, 'to_be_dispatched');
    for (const action of ['claim', 'pick']) {
      const res = await w.driverA.client.post(`/api/hailing/tours/${tourId}/${action}`);
      expect(res.status).toBe(404);
      expect(res.body).not.toHaveProperty('from');
    }
    const { tourId: done } = await tourFor(w, 'pickable');
    await expectOk(w.driverA.client.post(`/api/hailing/tours/${done}/pick`));
    await expectOk(w.tenant.admin.post(`/api/hailing/tours/${done}/cancel`));
    expect((await w.driverA2.client.post(`/api/hailing/tours/${done}/claim`)).status).toBe(404);
  });

  it('keeps a driver on at most one en_route tour', async () => {
    const first = await tourFor(w, 'pickable');
    const second = await tourFor(w, 'pickable');
    await expectOk(w.driverA2.client.post(`/api/hailing/tours/${first.tourId}/pick`));
    const res = await w.driverA2.client.post(`/api/hailing/tours/${second.tourId}/pick`);
    expect(res.status).toBe(409);
    expect(res.body.error_code).toBe('driver_busy');
    expect((await expectOk(w.tenant.admin.get(`/api/hailing/tours/${second.tourId}`))).tour.status).toBe('pickable');
    await expectOk(w.driverA2.client.post(`/api/hailing/tours/${first.tourId}/ditch`));
    expect(await activeTourOf(w, w.driverA2)).toBeNull();
  });

  it('expires a claim when the claim window passes, through the worker', async () => {
    const { tourId } = await tourFor(w);
    await expectOk(w.driverA.client.post(`/api/hailing/tours/${tourId}/claim`));
    const { createWorker } = await import('../../../worker/loop.ts');
    const worker = createWorker(t.deps);
    t.clock.advanceSeconds(899);
    await worker.drain();
    expect((await expectOk(w.tenant.admin.get(`/api/hailing/tours/${tourId}`))).tour.status).toBe('claimed');
    t.clock.advanceSeconds(2);
    await worker.drain();
    const tour = await expectOk(w.tenant.admin.get(`/api/hailing/tours/${tourId}`));
    expect(tour.tour).toMatchObject({ status: 'scheduled', driver_id: null, claim_expires_at: null });
    const [last] = (await eventsOf(w.tenant.admin, tourId, 'tour.active_status_changed')).slice(-1);
    expect(last.data).toMatchObject({ event: 'expire_claim', from: 'claimed', to: 'scheduled' });
  });

  it('force-assigns and force-unassigns with their events', async () => {
    const { tourId } = await tourFor(w);
    const assigned = await expectOk(w.managerA.client.post(`/api/hailing/tours/${tourId}/force_assign`, { driver_id: w.driverA.id, start: true }));
    expect(assigned.tour).toMatchObject({ status: 'en_route', driver_id: w.driverA.id });
    expect(await activeTourOf(w, w.driverA)).toBe(tourId);
    await expectOk(w.managerA.client.post(`/api/hailing/tours/${tourId}/force_unassign`));
    expect(await activeTourOf(w, w.driverA)).toBeNull();
    expect((await eventsOf(w.tenant.admin, tourId, 'tour.force_assigned'))[0].data).toEqual({ tour_id: tourId, service_area_id: w.service.service_area_id, driver_id: w.driverA.id });
    expect((await eventsOf(w.tenant.admin, tourId, 'tour.force_unassigned'))[0].data).toMatchObject({ driver_id: w.driverA.id });
    const notEligible = await w.managerA.client.post(`/api/hailing/tours/${tourId}/force_assign`, { driver_id: w.driverB.id });
    expect(notEligible.status).toBe(422);
    expect(notEligible.body.errors[0]).toMatchObject({ pointer: '/driver_id', code: 'driver_not_eligible' });
  });

  it('cancelling a tour hands its open stops back to their bookings', async () => {
    const { tourId, booking } = await tourFor(w);
    await expectOk(w.managerA.client.post(`/api/hailing/tours/${tourId}/cancel`));
    const b = await expectOk(w.managerA.client.get(`/api/hailing/bookings/${booking.id}`));
    expect(b.booking.status).toBe('to_be_dispatched');
    expect(b.booking.stops.map((s: { status: string; tour_id: string | null }) => [s.status, s.tour_id])).toEqual([
      ['to_be_dispatched', null],
      ['to_be_dispatched', null],
    ]);
  });
});
