// Auto-dispatch through the API (decision 1350): the setting, the decision after a create, its events and the field.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestTenant } from '../../../../test/app.ts';
import { createBooking, createOrganization, createService, createServiceArea, createUser, eventsOf, expectOk, mergeIntoTour, type Client } from '../../../../test/factories.ts';
import { createWorker, type Worker } from '../../../worker/loop.ts';
import { decideAutoDispatch } from './decide.ts';

let t: TestApp;
let tenant: TestTenant;
let worker: Worker;
beforeAll(async () => {
  t = await buildTestApp();
  tenant = await t.createTenant();
  worker = createWorker(t.deps);
});
afterAll(async () => t?.close());

const stopAt = (type: 'pickup' | 'dropoff', lat: number, lng: number, extra: Record<string, unknown> = {}) => ({
  type,
  location: { lat, lng },
  address: { street: 'Teststraße', number: '1', city: 'Berlin' },
  ...extra,
});

/** A booking of a pickup and a drop-off near (lat, lng), with one package. */
const bookingNear = (admin: Client, serviceId: string, lat: number, lng: number, dropoff: Record<string, unknown> = {}) =>
  createBooking(admin, { service_id: serviceId, stops: [stopAt('pickup', lat, lng), stopAt('dropoff', lat + 0.002, lng + 0.002, dropoff)] });

/** A scheduled tour of one booking near (lat, lng). */
async function scheduledTourNear(admin: Client, serviceId: string, lat: number, lng: number) {
  const booking = await bookingNear(admin, serviceId, lat, lng);
  const tour = await mergeIntoTour(admin, [booking.id]);
  await expectOk(admin.post(`/api/hailing/tours/${tour.id}/schedule`));
  return tour;
}

/** A service in a new service area; auto-dispatch on unless told. */
async function autoService(overrides: Record<string, unknown> = {}, enabled = true) {
  const area = await createServiceArea(tenant.admin, { auto_dispatch: { enabled } });
  return createService(tenant.admin, { service_area_id: area.id, ...overrides });
}

const getBooking = async (id: string) => (await expectOk(tenant.admin.get(`/api/hailing/bookings/${id}`))).booking;

describe('the auto-dispatch setting', () => {
  it('is off by default with a 200 ms budget, and an admin turns it on and sets the budget', async () => {
    const area = await createServiceArea(tenant.admin);
    expect(area.auto_dispatch).toEqual({ enabled: false, budget_ms: 200 });
    const on = await expectOk(tenant.admin.patch(`/api/admin/service_areas/${area.id}`, { service_area: { auto_dispatch: { enabled: true } } }));
    expect(on.service_area.auto_dispatch).toEqual({ enabled: true, budget_ms: 200 });
    const budget = await expectOk(tenant.admin.patch(`/api/admin/service_areas/${area.id}`, { service_area: { auto_dispatch: { budget_ms: 50 } } }));
    expect(budget.service_area.auto_dispatch).toEqual({ enabled: true, budget_ms: 50 });
    expect((await expectOk(tenant.admin.get(`/api/admin/service_areas/${area.id}`))).service_area.auto_dispatch).toEqual({ enabled: true, budget_ms: 50 });
  });

  it('refuses a budget out of bounds or an unknown member with problem+json naming the field', async () => {
    const area = await createServiceArea(tenant.admin);
    const cases: [Record<string, unknown>, string][] = [
      [{ budget_ms: 5 }, '/service_area/auto_dispatch/budget_ms'],
      [{ budget_ms: 60_000 }, '/service_area/auto_dispatch/budget_ms'],
      [{ enabled: 'yes' }, '/service_area/auto_dispatch/enabled'],
      [{ budget: 100 }, '/service_area/auto_dispatch/budget'],
    ];
    for (const [setting, pointer] of cases) {
      const res = await tenant.admin.patch(`/api/admin/service_areas/${area.id}`, { service_area: { auto_dispatch: setting } });
      expect(res.status, JSON.stringify(setting)).toBe(422);
      expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
      expect(res.body.errors.map((e: { pointer: string }) => e.pointer), JSON.stringify(setting)).toContain(pointer);
    }
    const created = await tenant.admin.post('/api/admin/service_areas', { service_area: { name: 'X', currency: 'EUR', time_zone: 'UTC', auto_dispatch: { budget_ms: 0 } } });
    expect(created.status).toBe(422);
    expect(created.body.errors.map((e: { pointer: string }) => e.pointer)).toContain('/service_area/auto_dispatch/budget_ms');
  });
});

describe('auto-dispatch of a new booking', () => {
  it('leaves a booking waiting with no decision and no event when the service area has it off (the default)', async () => {
    const service = await autoService({}, false);
    await scheduledTourNear(tenant.admin, service.id, 52.5, 13.4);
    const booking = await bookingNear(tenant.admin, service.id, 52.5, 13.4);
    await worker.drain();
    const after = await getBooking(booking.id);
    expect(after).toMatchObject({ status: 'to_be_dispatched', auto_dispatch: null });
    expect(after.stops.map((s: { tour_id: string | null }) => s.tour_id)).toEqual([null, null]);
    expect(await eventsOf(tenant.admin, booking.id, 'booking.auto_dispatched')).toEqual([]);
    expect(await eventsOf(tenant.admin, booking.id, 'booking.auto_dispatch_skipped')).toEqual([]);
  });

  it('inserts the stops into the open tour where they cost least, after the create answered', async () => {
    const service = await autoService();
    const far = await scheduledTourNear(tenant.admin, service.id, 52.4, 13.1);
    const near = await scheduledTourNear(tenant.admin, service.id, 52.52, 13.4);
    const booking = await bookingNear(tenant.admin, service.id, 52.521, 13.401);
    // The create answers before the decision: the booking waits until the worker ran its job.
    expect(booking).toMatchObject({ status: 'to_be_dispatched', auto_dispatch: null });
    t.clock.advance(1000);
    await worker.drain();
    const after = await getBooking(booking.id);
    expect(after.status).toBe('dispatched');
    expect(after.auto_dispatch).toEqual({ status: 'dispatched', tour_id: near.id, reason: null, constraint: null, decided_at: t.clock.now().toISOString() });
    expect(after.stops.map((s: { tour_id: string; status: string }) => [s.tour_id, s.status])).toEqual([
      [near.id, 'scheduled'],
      [near.id, 'scheduled'],
    ]);
    const tour = (await expectOk(tenant.admin.get(`/api/hailing/tours/${near.id}`))).tour;
    expect(tour.stops).toHaveLength(4);
    expect(tour.stops.map((s: { tour_position: number }) => s.tour_position)).toEqual([0, 1, 2, 3]);
    const ids = tour.stops.map((s: { id: string }) => s.id);
    expect(ids.indexOf(booking.stops[0].id)).toBeLessThan(ids.indexOf(booking.stops[1].id));
    expect((await expectOk(tenant.admin.get(`/api/hailing/tours/${far.id}`))).tour.stops).toHaveLength(2);
    const [event] = await eventsOf(tenant.admin, booking.id, 'booking.auto_dispatched');
    expect(event.data).toEqual({ booking_id: booking.id, customer_id: null, external_id: null, service_area_id: service.service_area_id, tour_id: near.id });
    expect(event.actor).toMatchObject({ type: 'system', id: null });
    expect(await eventsOf(tenant.admin, booking.id, 'booking.auto_dispatch_skipped')).toEqual([]);
  });

  it('skips with no_open_tour when the service has no scheduled or running tour (a draft tour is not one)', async () => {
    const service = await autoService();
    const draft = await mergeIntoTour(tenant.admin, [(await bookingNear(tenant.admin, service.id, 52.5, 13.4)).id]);
    const booking = await bookingNear(tenant.admin, service.id, 52.5, 13.4);
    await worker.drain();
    const after = await getBooking(booking.id);
    expect(after).toMatchObject({ status: 'to_be_dispatched', auto_dispatch: { status: 'skipped', tour_id: null, reason: 'no_open_tour', constraint: null } });
    const [event] = await eventsOf(tenant.admin, booking.id, 'booking.auto_dispatch_skipped');
    expect(event.data).toMatchObject({ booking_id: booking.id, reason: 'no_open_tour', constraint: null });
    expect((await expectOk(tenant.admin.get(`/api/hailing/tours/${draft.id}`))).tour.stops).toHaveLength(2);
  });

  it('skips with no_fit and stop_limit when every tour is at its stop limit', async () => {
    const service = await autoService({ max_stops_per_tour: 3 });
    const tour = await scheduledTourNear(tenant.admin, service.id, 52.5, 13.4);
    const booking = await bookingNear(tenant.admin, service.id, 52.5, 13.4);
    await worker.drain();
    expect((await getBooking(booking.id)).auto_dispatch).toMatchObject({ status: 'skipped', reason: 'no_fit', constraint: 'stop_limit' });
    const [event] = await eventsOf(tenant.admin, booking.id, 'booking.auto_dispatch_skipped');
    expect(event.data).toMatchObject({ reason: 'no_fit', constraint: 'stop_limit' });
    expect((await expectOk(tenant.admin.get(`/api/hailing/tours/${tour.id}`))).tour.stops).toHaveLength(2);
  });

  it("skips with no_fit and time_window when the booking's window closes before any tour could get there", async () => {
    const service = await autoService();
    // The tour starts in five hours; the drop-off must be made within the hour.
    const first = await bookingNear(tenant.admin, service.id, 52.5, 13.4);
    const tour = await expectOk(tenant.admin.post('/api/hailing/bookings/merge', { booking_ids: [first.id], scheduled_at: new Date(t.clock.now().getTime() + 5 * 3600_000).toISOString() }), 201);
    await expectOk(tenant.admin.post(`/api/hailing/tours/${tour.tour.id}/schedule`));
    const window = { time_window: { starts_at: t.clock.now().toISOString(), ends_at: new Date(t.clock.now().getTime() + 3600_000).toISOString() } };
    const booking = await bookingNear(tenant.admin, service.id, 52.5, 13.4, window);
    await worker.drain();
    expect((await getBooking(booking.id)).auto_dispatch).toMatchObject({ status: 'skipped', reason: 'no_fit', constraint: 'time_window' });
  });

  /** A tour near (lat, lng) force-assigned to a driver whose shift covers now, with the given vehicle and end. */
  async function tourOfDriverWithShift(serviceId: string, shift: { endsInSeconds: number; packages?: number }) {
    const org = (await createOrganization(tenant.admin)).id;
    const driver = await createUser(tenant.admin, { role: 'driver', organization_ids: [org] });
    const now = t.clock.now().getTime();
    await expectOk(
      tenant.admin.post(`/api/drivers/${driver.id}/shifts`, {
        shift: {
          starts_at: new Date(now - 3600_000).toISOString(),
          ends_at: new Date(now + shift.endsInSeconds * 1000).toISOString(),
          start_location: { lat: 52.5, lng: 13.4 },
          ...(shift.packages !== undefined ? { vehicle: { capacity: { packages: shift.packages } } } : {}),
        },
      }),
      201,
    );
    const tour = await mergeIntoTour(tenant.admin, [(await bookingNear(tenant.admin, serviceId, 52.5, 13.4)).id]);
    await expectOk(tenant.admin.post(`/api/hailing/tours/${tour.id}/force_assign`, { driver_id: driver.id }));
    return tour;
  }

  it("skips with no_fit and capacity when the booking's packages exceed the vehicle of the driver's shift", async () => {
    const service = await autoService();
    await tourOfDriverWithShift(service.id, { endsInSeconds: 8 * 3600, packages: 1 });
    const two = await createBooking(tenant.admin, {
      service_id: service.id,
      stops: [stopAt('pickup', 52.5, 13.4), stopAt('dropoff', 52.501, 13.401)],
      packages: [
        { pickup_stop_index: 0, dropoff_stop_index: 1 },
        { pickup_stop_index: 0, dropoff_stop_index: 1 },
      ],
    });
    const one = await bookingNear(tenant.admin, service.id, 52.5, 13.4);
    await worker.drain();
    expect((await getBooking(two.id)).auto_dispatch).toMatchObject({ status: 'skipped', reason: 'no_fit', constraint: 'capacity' });
    // One package fits: after the tour's own delivery, the vehicle is empty again.
    expect((await getBooking(one.id)).auto_dispatch).toMatchObject({ status: 'dispatched' });
  });

  it("skips with no_fit and shift when the stops could not be served before the driver's shift ends", async () => {
    const service = await autoService();
    const tour = await tourOfDriverWithShift(service.id, { endsInSeconds: 10 * 60 });
    // About 20 km away: some forty minutes' drive at 30 km/h.
    const far = await bookingNear(tenant.admin, service.id, 52.68, 13.4);
    await worker.drain();
    expect((await getBooking(far.id)).auto_dispatch).toMatchObject({ status: 'skipped', reason: 'no_fit', constraint: 'shift' });
    expect((await expectOk(tenant.admin.get(`/api/hailing/tours/${tour.id}`))).tour.stops).toHaveLength(2);
  });

  it('skips with budget_exceeded when the budget is spent before any tour was searched', async () => {
    const service = await autoService();
    const tour = await scheduledTourNear(tenant.admin, service.id, 52.5, 13.4);
    const booking = await bookingNear(tenant.admin, service.id, 52.5, 13.4);
    // A clock that moves a second at every look: the 200 ms budget is gone before the first tour.
    let ms = 0;
    const decision = await decideAutoDispatch(t.deps, tenant.tenantId, booking.id, { elapsedClock: () => (ms += 1000) });
    expect(decision).toMatchObject({ status: 'skipped', reason: 'budget_exceeded', constraint: null });
    const [event] = await eventsOf(tenant.admin, booking.id, 'booking.auto_dispatch_skipped');
    expect(event.data).toMatchObject({ reason: 'budget_exceeded', constraint: null });
    expect((await expectOk(tenant.admin.get(`/api/hailing/tours/${tour.id}`))).tour.stops).toHaveLength(2);
    // Decided once: the job that runs later leaves it as it is.
    await worker.drain();
    expect((await getBooking(booking.id)).auto_dispatch).toMatchObject({ reason: 'budget_exceeded' });
  });

  it('leaves alone a booking a dispatcher dispatched before the job ran: no decision, no event', async () => {
    const service = await autoService();
    await scheduledTourNear(tenant.admin, service.id, 52.5, 13.4);
    const booking = await bookingNear(tenant.admin, service.id, 52.5, 13.4);
    const own = await mergeIntoTour(tenant.admin, [booking.id]);
    await worker.drain();
    const after = await getBooking(booking.id);
    expect(after.auto_dispatch).toBeNull();
    expect(after.stops[0].tour_id).toBe(own.id);
    expect(await eventsOf(tenant.admin, booking.id, 'booking.auto_dispatch_skipped')).toEqual([]);
  });

  it('decides for each booking of a bulk create, as for single creates', async () => {
    const service = await autoService();
    const tour = await scheduledTourNear(tenant.admin, service.id, 52.5, 13.4);
    const item = (key: string) => ({ idempotency_key: key, booking: { service_id: service.id, stops: [stopAt('pickup', 52.5, 13.4), stopAt('dropoff', 52.501, 13.401)] } });
    const bulk = await expectOk(tenant.admin.post('/api/hailing/bookings/bulk', { bookings: [item(`a-${service.id}`), item(`b-${service.id}`)] }));
    await worker.drain();
    for (const result of bulk.results) expect((await getBooking(result.booking.id)).auto_dispatch).toMatchObject({ status: 'dispatched', tour_id: tour.id });
  });
});
