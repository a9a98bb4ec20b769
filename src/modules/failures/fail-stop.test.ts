import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type Client, type TestApp, type TestTenant } from '../../../test/app.ts';
import {
  createBooking,
  createOrganization,
  createPlace,
  createService,
  createUser,
  driveStop,
  eventsOf,
  expectOk,
  mergeIntoTour,
  tourEnRoute,
  type CreatedUser,
} from '../../../test/factories.ts';

let t: TestApp;
let tenant: TestTenant;
let organizationId: string;
let manager: CreatedUser;
let service: { id: string; service_area_id: string };

beforeAll(async () => {
  t = await buildTestApp();
  tenant = await t.createTenant();
  organizationId = (await createOrganization(tenant.admin)).id;
  manager = await createUser(tenant.admin, { role: 'manager', organization_ids: [organizationId] });
  service = await createService(tenant.admin);
});
afterAll(async () => t.close());

type Role = 'admin' | 'manager' | 'driver';
const ROLES: Role[] = ['admin', 'manager', 'driver'];

interface Scene {
  driver: CreatedUser;
  caller: Client;
  booking: { id: string; stops: { id: string; type: string }[] };
  tour: { id: string };
  pickup: { id: string };
  dropoff: { id: string };
}

/**
 * A pickup-then-drop-off booking on an en_route tour of a fresh driver (of the manager's organization): the pickup
 * completed, the drop-off arrived. `caller` is the client of `role`.
 */
async function arrivedDropoff(role: Role, options: { serviceId?: string; pickupPlaceId?: string; dropoffs?: number } = {}): Promise<Scene> {
  const driver = await createUser(tenant.admin, { role: 'driver', organization_ids: [organizationId] });
  const pickupStop = options.pickupPlaceId
    ? { type: 'pickup', place_id: options.pickupPlaceId }
    : { type: 'pickup', location: { lat: 52.5, lng: 13.4 }, address: { street: 'Chausseestraße', number: '1', city: 'Berlin' }, contact: { name: 'Sender', phone_number: '+49301234' } };
  const dropoffs = Array.from({ length: options.dropoffs ?? 1 }, (_, i) => ({
    type: 'dropoff',
    location: { lat: 52.51 + i / 100, lng: 13.41 },
    address: { street: 'Torstraße', number: String(i + 2), city: 'Berlin' },
    time_window: { starts_at: '2026-06-01T09:00:00Z', ends_at: '2026-06-01T12:00:00Z' },
    notes: 'Ring twice',
  }));
  const booking = await createBooking(tenant.admin, {
    service_id: options.serviceId ?? service.id,
    managing_organization_ids: [organizationId],
    stops: [pickupStop, ...dropoffs],
    packages: dropoffs.map((_, i) => ({ pickup_stop_index: 0, dropoff_stop_index: i + 1 })),
  });
  const tour = await tourEnRoute(tenant.admin, [booking.id], driver.id);
  const [pickup, dropoff] = booking.stops;
  await driveStop(driver.client, pickup.id, 'completed');
  await driveStop(driver.client, dropoff.id, 'arrived');
  const caller = { admin: tenant.admin, manager: manager.client, driver: driver.client }[role];
  return { driver, caller, booking, tour, pickup, dropoff };
}

/** Event types recorded for the booking and the tour after `since` (a list of event ids seen before). */
async function newEventTypes(scene: Scene, seen: Set<string>) {
  const all = [...(await eventsOf(tenant.admin, scene.booking.id)), ...(await eventsOf(tenant.admin, scene.tour.id))];
  return all.filter((e) => !seen.has(e.id)).map((e) => e.type).sort();
}
async function seenEvents(scene: Scene) {
  const all = [...(await eventsOf(tenant.admin, scene.booking.id)), ...(await eventsOf(tenant.admin, scene.tour.id))];
  return new Set<string>(all.map((e) => e.id));
}

const getBooking = async (client: Client, id: string) => (await expectOk(client.get(`/api/hailing/bookings/${id}`))).booking;
const getStop = async (client: Client, id: string) => (await expectOk(client.get(`/api/stops/${id}`))).stop;
const getTour = async (client: Client, id: string) => (await expectOk(client.get(`/api/hailing/tours/${id}`))).tour;

describe.each(ROLES)('failing a stop as %s', (role) => {
  it('renders failure_options with every outcome open on the arrived drop-off, and completion_requirements.fail', async () => {
    const scene = await arrivedDropoff(role);
    const stop = (await getBooking(scene.caller, scene.booking.id)).stops.find((s: { id: string }) => s.id === scene.dropoff.id);
    expect(Object.keys(stop.failure_options.outcomes).sort()).toEqual(['reattempt_later', 'reattempt_now', 'return_later', 'return_now', 'skip_recovery']);
    for (const option of Object.values(stop.failure_options.outcomes)) expect(option).toEqual({ allowed: true, reason: null, reason_key: null });
    expect(stop.completion_requirements).toEqual({ fail: true });
    // The completed pickup is no longer failable: no failure_options, fail false.
    const pickup = await getStop(scene.caller, scene.pickup.id);
    expect(pickup).not.toHaveProperty('failure_options');
    expect(pickup.completion_requirements).toEqual({ fail: false });
  });

  it('skip_recovery (the default): the stop fails, no recovery stop, and the booking completes with its last stop', async () => {
    const scene = await arrivedDropoff(role);
    const seen = await seenEvents(scene);
    const res = await scene.caller.post(`/api/stops/${scene.dropoff.id}/fail`, { reason_key: 'customer_absent', note: 'Nobody opened' });
    expect(res.status).toBe(200);
    expect(res.body.recovery_stop).toBeNull();
    expect(res.body.stop).toMatchObject({
      id: scene.dropoff.id,
      status: 'failed',
      tour_id: scene.tour.id,
      failure: { outcome: 'skip_recovery', reason_key: 'customer_absent', note: 'Nobody opened' },
      completion_requirements: { fail: false },
    });
    expect(res.body.stop.failed_at).toBe(t.clock.now().toISOString());
    expect(res.headers.sunset).toBe('Wed, 07 Oct 2026 00:00:00 GMT');
    expect(res.headers.link).toBe('</docs/guide#failure-options>; rel="successor-version", </docs/guide#failure-options>; rel="deprecation"');
    expect(res.body.stop).not.toHaveProperty('failure_options');
    const booking = await getBooking(tenant.admin, scene.booking.id);
    expect(booking.status).toBe('completed');
    expect(booking.stops).toHaveLength(2);
    expect(booking.packages[0].status).toBe('failed');
    expect(await newEventTypes(scene, seen)).toEqual(
      ['booking.modified', 'booking.stop_failed', 'booking.transition', 'tour.active_status_changed', 'tour.modified'].sort(),
    );
    const [failed] = await eventsOf(tenant.admin, scene.booking.id, 'booking.stop_failed');
    expect(failed.data).toMatchObject({
      booking_id: scene.booking.id,
      stop_id: scene.dropoff.id,
      tour_id: scene.tour.id,
      outcome: 'skip_recovery',
      failure_reason: { key: 'customer_absent', label: 'Nobody present', note: 'Nobody opened' },
      recovery_stop_id: null,
    });
  });

  it('return_now: a return stop at the pickup’s address and contact, with the packages, dispatched right after the failed stop', async () => {
    const scene = await arrivedDropoff(role, { dropoffs: 2 });
    const seen = await seenEvents(scene);
    const res = await scene.caller.post(`/api/stops/${scene.dropoff.id}/fail`, { outcome: 'return_now' });
    expect(res.status).toBe(200);
    const pickup = await getStop(tenant.admin, scene.pickup.id);
    const failed = res.body.stop;
    const ret = res.body.recovery_stop;
    expect(ret).toMatchObject({
      booking_id: scene.booking.id,
      tour_id: scene.tour.id,
      type: 'return',
      status: 'scheduled',
      location: pickup.location,
      address: pickup.address,
      contact: pickup.contact,
      time_window: null,
      recovery_of_stop_id: scene.dropoff.id,
      recovery_kind: 'return',
      position: 3,
    });
    expect(ret.tour_position).toBe(failed.tour_position + 1);
    // The package the failed drop-off was to deliver now travels back with the return stop.
    const packages = (await getBooking(tenant.admin, scene.booking.id)).packages;
    const returning = packages.filter((p: { dropoff_stop_id: string }) => p.dropoff_stop_id === ret.id);
    expect(returning).toHaveLength(1);
    expect(ret.package_ids).toEqual([returning[0].id]);
    expect(returning[0].history.at(-1)).toMatchObject({ event: 'stop_failed', stop_id: scene.dropoff.id, tour_id: scene.tour.id });
    // The other drop-off moved one place back on the tour.
    const tourStops = (await getTour(tenant.admin, scene.tour.id)).stops.map((s: { id: string }) => s.id);
    expect(tourStops).toEqual([scene.pickup.id, scene.dropoff.id, ret.id, scene.booking.stops[2]!.id]);
    expect(failed).toMatchObject({ status: 'failed', tour_id: scene.tour.id, failure: { outcome: 'return_now' } });
    expect(await newEventTypes(scene, seen)).toEqual(['booking.modified', 'booking.return_started', 'booking.route_changed', 'booking.stop_failed', 'tour.modified']);
    const [started] = await eventsOf(tenant.admin, scene.booking.id, 'booking.return_started');
    expect(started.data).toMatchObject({ stop_id: ret.id, tour_id: scene.tour.id });
  });

  it('return_later: the return stop is appended to the booking and waits for dispatch', async () => {
    const scene = await arrivedDropoff(role);
    const seen = await seenEvents(scene);
    const res = await scene.caller.post(`/api/stops/${scene.dropoff.id}/fail`, { outcome: 'return_later' });
    expect(res.status).toBe(200);
    expect(res.body.recovery_stop).toMatchObject({ type: 'return', status: 'to_be_dispatched', tour_id: null, tour_position: null, recovery_kind: 'return' });
    const booking = await getBooking(tenant.admin, scene.booking.id);
    expect(booking.status).toBe('to_be_dispatched');
    expect(booking.stops.map((s: { id: string }) => s.id)).toEqual([scene.pickup.id, scene.dropoff.id, res.body.recovery_stop.id]);
    // The failing tour had nothing else to do: it completes; the booking stays active for its return.
    expect((await getTour(tenant.admin, scene.tour.id)).status).toBe('completed');
    expect(await newEventTypes(scene, seen)).toEqual(
      ['booking.modified', 'booking.route_changed', 'booking.stop_failed', 'booking.transition', 'tour.active_status_changed', 'tour.modified'].sort(),
    );
  });

  it('reattempt_now: a full copy of the failed stop dispatched onto the failing tour', async () => {
    const scene = await arrivedDropoff(role);
    const seen = await seenEvents(scene);
    const res = await scene.caller.post(`/api/stops/${scene.dropoff.id}/fail`, { outcome: 'reattempt_now' });
    expect(res.status).toBe(200);
    const { stop, recovery_stop: copy } = res.body;
    const pick = (s: Record<string, unknown>) => ({
      type: s.type,
      location: s.location,
      address: s.address,
      contact: s.contact,
      group: s.group,
      time_window: s.time_window,
      notes: s.notes,
      service_duration_seconds: s.service_duration_seconds,
    });
    expect(pick(copy)).toEqual(pick(stop));
    expect(copy).toMatchObject({ tour_id: scene.tour.id, status: 'scheduled', tour_position: stop.tour_position + 1, recovery_of_stop_id: stop.id, recovery_kind: 'reattempt' });
    expect(copy.package_ids).toHaveLength(1);
    expect((await getBooking(tenant.admin, scene.booking.id)).status).toBe('dispatched');
    expect(await newEventTypes(scene, seen)).toEqual(['booking.modified', 'booking.route_changed', 'booking.stop_failed', 'tour.modified']);
  });

  it('reattempt_later: the copy is appended and waits for dispatch', async () => {
    const scene = await arrivedDropoff(role);
    const seen = await seenEvents(scene);
    const res = await scene.caller.post(`/api/stops/${scene.dropoff.id}/fail`, { outcome: 'reattempt_later', reason_key: 'location_closed' });
    expect(res.status).toBe(200);
    expect(res.body.recovery_stop).toMatchObject({ type: 'dropoff', status: 'to_be_dispatched', tour_id: null, recovery_kind: 'reattempt' });
    expect(await newEventTypes(scene, seen)).toEqual(
      ['booking.modified', 'booking.route_changed', 'booking.stop_failed', 'booking.transition', 'tour.active_status_changed', 'tour.modified'].sort(),
    );
    const [failed] = await eventsOf(tenant.admin, scene.booking.id, 'booking.stop_failed');
    expect(failed.data).toMatchObject({ outcome: 'reattempt_later', recovery_stop_id: res.body.recovery_stop.id, failure_reason: { key: 'location_closed', label: 'Location closed', note: null } });
  });

  it('an outcome that is not available: 422 outcome_not_available naming the reason; nothing changes', async () => {
    const noReturns = await createService(tenant.admin, { service_area_id: service.service_area_id, return_stop_type: null });
    const scene = await arrivedDropoff(role, { serviceId: noReturns.id });
    const seen = await seenEvents(scene);
    const res = await scene.caller.post(`/api/stops/${scene.dropoff.id}/fail`, { outcome: 'return_now' }, { headers: { 'accept-language': 'de' } });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({
      error_code: 'outcome_not_available',
      detail: 'Der Service hat keinen gültigen Rückgabe-Stopptyp.',
      outcome: 'return_now',
      reason_key: 'return_stop_type_invalid',
      errors: [{ pointer: '/outcome', code: 'not_allowed' }],
    });
    const stop = await getStop(scene.caller, scene.dropoff.id);
    expect(stop.status).toBe('arrived');
    expect(stop.failure_options.outcomes.return_now).toMatchObject({ allowed: false, reason_key: 'return_stop_type_invalid' });
    expect((await getBooking(tenant.admin, scene.booking.id)).stops).toHaveLength(2);
    expect(await newEventTypes(scene, seen)).toEqual([]);
  });

  it('a failed stop is never dispatched again: merge and insert answer 422 failed_stops', async () => {
    const scene = await arrivedDropoff(role);
    await expectOk(scene.caller.post(`/api/stops/${scene.dropoff.id}/fail`, { outcome: 'return_later' }));
    const merge = await tenant.admin.post('/api/hailing/bookings/merge', { stop_ids: [scene.dropoff.id] });
    expect(merge.status).toBe(422);
    expect(merge.body).toMatchObject({ error_code: 'failed_stops', stop_ids: [scene.dropoff.id] });
    const other = await createBooking(tenant.admin, { service_id: service.id });
    const openTour = await mergeIntoTour(tenant.admin, [other.id]);
    const insert = await tenant.admin.post(`/api/hailing/tours/${openTour.id}/stops/insert`, { stop_ids: [scene.dropoff.id] });
    expect(insert.status).toBe(422);
    expect(insert.body.error_code).toBe('failed_stops');
    expect((await getStop(tenant.admin, scene.dropoff.id)).tour_id).toBe(scene.tour.id);
  });

  it('a stop failing while others are in progress or waiting leaves them and the booking carrying on', async () => {
    const scene = await arrivedDropoff(role, { dropoffs: 2 });
    await expectOk(scene.caller.post(`/api/stops/${scene.dropoff.id}/fail`, {}));
    const booking = await getBooking(tenant.admin, scene.booking.id);
    expect(booking.status).toBe('dispatched');
    expect(booking.stops.map((s: { status: string }) => s.status)).toEqual(['completed', 'failed', 'scheduled']);
    expect((await getTour(tenant.admin, scene.tour.id)).status).toBe('en_route');
  });
});

describe('who sees failure_options', () => {
  it('a driver of another tour of the same booking sees none, and cannot fail the stop', async () => {
    const driverA = await createUser(tenant.admin, { role: 'driver', organization_ids: [organizationId] });
    const driverB = await createUser(tenant.admin, { role: 'driver', organization_ids: [organizationId] });
    const booking = await createBooking(tenant.admin, {
      service_id: service.id,
      stops: [
        { type: 'pickup', location: { lat: 52.5, lng: 13.4 }, address: { street: 'A', city: 'Berlin' } },
        { type: 'dropoff', location: { lat: 52.51, lng: 13.41 }, address: { street: 'B', city: 'Berlin' } },
        { type: 'dropoff', location: { lat: 52.52, lng: 13.42 }, address: { street: 'C', city: 'Berlin' } },
      ],
      packages: [],
    });
    const [pickup, dropoff1, dropoff2] = booking.stops;
    const tourA = (await expectOk(tenant.admin.post('/api/hailing/bookings/merge', { stop_ids: [pickup.id, dropoff1.id] }), 201)).tour;
    const tourB = (await expectOk(tenant.admin.post('/api/hailing/bookings/merge', { stop_ids: [dropoff2.id] }), 201)).tour;
    await expectOk(tenant.admin.post(`/api/hailing/tours/${tourA.id}/force_assign`, { driver_id: driverA.id, start: true }));
    await expectOk(tenant.admin.post(`/api/hailing/tours/${tourB.id}/force_assign`, { driver_id: driverB.id, start: true }));
    await driveStop(driverA.client, pickup.id, 'completed');
    await driveStop(driverA.client, dropoff1.id, 'approaching');

    const seenByB = (await getBooking(driverB.client, booking.id)).stops.find((s: { id: string }) => s.id === dropoff1.id);
    expect(seenByB.status).toBe('approaching');
    expect(seenByB).not.toHaveProperty('failure_options');
    expect(seenByB.completion_requirements).toEqual({ fail: false });
    const attempt = await driverB.client.post(`/api/stops/${dropoff1.id}/fail`, {});
    expect(attempt.status).toBe(422);
    expect(attempt.body.reason_key).toBe('not_permitted');

    const seenByA = await getStop(driverA.client, dropoff1.id);
    expect(seenByA.failure_options.outcomes.skip_recovery.allowed).toBe(true);
  });

  it('a driver not on the tour does not see the stop at all', async () => {
    const scene = await arrivedDropoff('driver');
    const stranger = await createUser(tenant.admin, { role: 'driver', organization_ids: [organizationId] });
    expect((await stranger.client.get(`/api/stops/${scene.dropoff.id}`)).status).toBe(404);
    expect((await stranger.client.post(`/api/stops/${scene.dropoff.id}/fail`, {})).status).toBe(404);
  });

  it('a manager of another organization does not see the tour’s stop', async () => {
    const scene = await arrivedDropoff('admin');
    const outsider = await createUser(tenant.admin, { role: 'manager' });
    expect((await outsider.client.post(`/api/stops/${scene.dropoff.id}/fail`, {})).status).toBe(404);
  });

  it('a customer sees its booking without failure_options and may not fail stops', async () => {
    const customer = await createUser(tenant.admin, { role: 'customer' });
    const driver = await createUser(tenant.admin, { role: 'driver', organization_ids: [organizationId] });
    const booking = await createBooking(tenant.admin, { service_id: service.id, customer_id: customer.id });
    await tourEnRoute(tenant.admin, [booking.id], driver.id);
    await driveStop(driver.client, booking.stops[0].id, 'arrived');
    const seen = (await getBooking(customer.client, booking.id)).stops[0];
    expect(seen.status).toBe('arrived');
    expect(seen).not.toHaveProperty('failure_options');
    expect(seen.completion_requirements).toEqual({ fail: false });
    expect((await customer.client.post(`/api/stops/${booking.stops[0].id}/fail`, {})).status).toBe(403);
  });
});

describe('outcome availability', () => {
  it('a pickup-only booking cannot return', async () => {
    const driver = await createUser(tenant.admin, { role: 'driver', organization_ids: [organizationId] });
    const booking = await createBooking(tenant.admin, {
      service_id: service.id,
      stops: [{ type: 'pickup', location: { lat: 52.5, lng: 13.4 }, address: { street: 'A', city: 'Berlin' } }],
      packages: [],
    });
    await tourEnRoute(tenant.admin, [booking.id], driver.id);
    await driveStop(driver.client, booking.stops[0].id, 'arrived');
    const { outcomes } = (await getStop(driver.client, booking.stops[0].id)).failure_options;
    expect(outcomes.return_now).toMatchObject({ allowed: false, reason_key: 'booking_not_returnable' });
    expect(outcomes.return_later).toMatchObject({ allowed: false, reason_key: 'booking_not_returnable' });
    expect(outcomes.reattempt_later.allowed).toBe(true);
    const res = await driver.client.post(`/api/stops/${booking.stops[0].id}/fail`, { outcome: 'return_later' });
    expect(res.status).toBe(422);
    expect(res.body.reason_key).toBe('booking_not_returnable');
    expect(res.body.detail).toBe('A return needs a pickup-then-drop-off booking and a failing drop-off.');
  });

  it('a full tour cannot reattempt (or return) now, but can later', async () => {
    const small = await createService(tenant.admin, { service_area_id: service.service_area_id, max_stops_per_tour: 2 });
    const scene = await arrivedDropoff('driver', { serviceId: small.id });
    const { outcomes } = (await getStop(scene.caller, scene.dropoff.id)).failure_options;
    expect(outcomes.reattempt_now).toMatchObject({ allowed: false, reason_key: 'tour_stop_limit_reached', reason: 'The tour has reached its stop limit.' });
    expect(outcomes.return_now).toMatchObject({ allowed: false, reason_key: 'tour_stop_limit_reached' });
    expect(outcomes.reattempt_later.allowed).toBe(true);
    const res = await scene.caller.post(`/api/stops/${scene.dropoff.id}/fail`, { outcome: 'reattempt_now' });
    expect(res.status).toBe(422);
    expect(res.body.reason_key).toBe('tour_stop_limit_reached');
    expect((await getStop(scene.caller, scene.dropoff.id)).status).toBe('arrived');
  });

  it('a full booking cannot add a recovery stop', async () => {
    const small = await createService(tenant.admin, { service_area_id: service.service_area_id, max_stops_per_booking: 2 });
    const scene = await arrivedDropoff('admin', { serviceId: small.id });
    const res = await scene.caller.post(`/api/stops/${scene.dropoff.id}/fail`, { outcome: 'reattempt_later' });
    expect(res.status).toBe(422);
    expect(res.body.reason_key).toBe('booking_stop_limit_reached');
  });

  it('the service’s failure_outcomes decide per role', async () => {
    const strict = await createService(tenant.admin, {
      service_area_id: service.service_area_id,
      failure_outcomes: { admin: ['skip_recovery', 'return_now', 'return_later', 'reattempt_now', 'reattempt_later'], manager: ['skip_recovery'], driver: [] },
    });
    const scene = await arrivedDropoff('driver', { serviceId: strict.id });
    const asDriver = (await getStop(scene.driver.client, scene.dropoff.id)).failure_options.outcomes;
    expect(Object.values(asDriver).every((o) => (o as { reason_key: string }).reason_key === 'outcome_disabled')).toBe(true);
    expect((await getStop(scene.driver.client, scene.dropoff.id)).completion_requirements.fail).toBe(false);
    const asManager = (await getStop(manager.client, scene.dropoff.id)).failure_options.outcomes;
    expect(asManager.skip_recovery.allowed).toBe(true);
    expect(asManager.return_now.reason_key).toBe('outcome_disabled');
    expect((await scene.driver.client.post(`/api/stops/${scene.dropoff.id}/fail`, {})).body.reason_key).toBe('outcome_disabled');
    expect((await manager.client.post(`/api/stops/${scene.dropoff.id}/fail`, { outcome: 'skip_recovery' })).status).toBe(200);
  });

  it('only tour stops in approaching or arrived can be failed', async () => {
    const booking = await createBooking(tenant.admin, { service_id: service.id });
    const notOnTour = await tenant.admin.post(`/api/stops/${booking.stops[0].id}/fail`, {});
    expect(notOnTour.status).toBe(422);
    expect(notOnTour.body.reason_key).toBe('stop_not_on_tour');
    await mergeIntoTour(tenant.admin, [booking.id]);
    const scheduled = await tenant.admin.post(`/api/stops/${booking.stops[0].id}/fail`, {});
    expect(scheduled.status).toBe(422);
    expect(scheduled.body.reason_key).toBe('stop_not_in_progress');
  });

  it('the stop failure reason must exist and carry a note when it needs one', async () => {
    const scene = await arrivedDropoff('driver');
    const unknown = await scene.caller.post(`/api/stops/${scene.dropoff.id}/fail`, { reason_key: 'aliens' });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors).toEqual([expect.objectContaining({ pointer: '/reason_key', code: 'unknown_reference' })]);
    const noNote = await scene.caller.post(`/api/stops/${scene.dropoff.id}/fail`, { reason_key: 'other', note: '  ' });
    expect(noNote.status).toBe(422);
    expect(noNote.body.errors).toEqual([expect.objectContaining({ pointer: '/note', code: 'note_required' })]);
    const bad = await scene.caller.post(`/api/stops/${scene.dropoff.id}/fail`, { outcome: 'give_up' });
    expect(bad.status).toBe(422);
    expect(bad.body.error_code).toBe('validation_failed');
    expect((await getStop(scene.caller, scene.dropoff.id)).status).toBe('arrived');
  });

  it('a return stop from a place keeps the place and gets the automatic group of the return type', async () => {
    const place = await createPlace(tenant.admin, { contact: { name: 'Depot', phone_number: '+4930999' } });
    const scene = await arrivedDropoff('admin', { pickupPlaceId: place.id });
    const res = await expectOk(scene.caller.post(`/api/stops/${scene.dropoff.id}/fail`, { outcome: 'return_later' }));
    expect(res.recovery_stop).toMatchObject({ place_id: place.id, group: `A-return-${place.id}`, contact: { name: 'Depot', phone_number: '+4930999' } });
  });
});

describe('a tour-only stop', () => {
  it('can only be skipped: recovery stops are booking stops', async () => {
    const driver = await createUser(tenant.admin, { role: 'driver', organization_ids: [organizationId] });
    const booking = await createBooking(tenant.admin, { service_id: service.id });
    const tour = await tourEnRoute(tenant.admin, [booking.id], driver.id);
    const custom = await expectOk(
      tenant.admin.post(`/api/hailing/tours/${tour.id}/stops`, { stop: { type: 'task', location: { lat: 52.5, lng: 13.4 }, address: { street: 'Hof', city: 'Berlin' } }, position: 0 }),
      201,
    );
    await driveStop(driver.client, custom.stop.id, 'arrived');
    const { outcomes } = (await getStop(driver.client, custom.stop.id)).failure_options;
    expect(outcomes.skip_recovery.allowed).toBe(true);
    expect(outcomes.reattempt_later.reason_key).toBe('stop_without_booking');
    expect(outcomes.return_later.reason_key).toBe('booking_not_returnable');
    const seen = new Set<string>((await eventsOf(tenant.admin, tour.id)).map((e: { id: string }) => e.id));
    const res = await expectOk(driver.client.post(`/api/stops/${custom.stop.id}/fail`, { reason_key: 'access_denied' }));
    expect(res).toMatchObject({ stop: { status: 'failed', booking_id: null, tour_id: tour.id }, recovery_stop: null });
    const types = (await eventsOf(tenant.admin, tour.id)).filter((e: { id: string }) => !seen.has(e.id)).map((e: { type: string }) => e.type);
    expect(types).toEqual(['tour.modified']);
  });
});

describe('recovery stops keep the booking active', () => {
  it('the booking completes only when the reattempt reaches its own outcome', async () => {
    const scene = await arrivedDropoff('driver');
    const { recovery_stop: copy } = await expectOk(scene.driver.client.post(`/api/stops/${scene.dropoff.id}/fail`, { outcome: 'reattempt_now' }));
    expect((await getBooking(tenant.admin, scene.booking.id)).status).toBe('dispatched');
    await driveStop(scene.driver.client, copy.id, 'completed');
    const booking = await getBooking(tenant.admin, scene.booking.id);
    expect(booking.status).toBe('completed');
    expect(booking.packages[0].status).toBe('delivered');
    expect((await getTour(tenant.admin, scene.tour.id)).status).toBe('completed');
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('concurrent fail requests (PostgreSQL)', () => {
  it('fail the stop exactly once', async () => {
    const scene = await arrivedDropoff('driver');
    const results = await Promise.all([
      scene.driver.client.post(`/api/stops/${scene.dropoff.id}/fail`, { outcome: 'reattempt_later' }),
      tenant.admin.post(`/api/stops/${scene.dropoff.id}/fail`, { outcome: 'reattempt_later' }),
      manager.client.post(`/api/stops/${scene.dropoff.id}/fail`, { outcome: 'return_later' }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 422, 422]);
    for (const r of results.filter((x) => x.status === 422)) expect(r.body.reason_key).toBe('stop_not_in_progress');
    expect(await eventsOf(tenant.admin, scene.booking.id, 'booking.stop_failed')).toHaveLength(1);
    expect((await getBooking(tenant.admin, scene.booking.id)).stops).toHaveLength(3);
  });
});

describe('package failures at stop completion', () => {
  const completeWith = async (scene: Scene, entry: Record<string, unknown>) => {
    const packageId = (await getBooking(tenant.admin, scene.booking.id)).packages[0].id;
    return scene.driver.client.post(`/api/stops/${scene.dropoff.id}/complete`, { packages: [{ id: packageId, result: 'failed', ...entry }] });
  };

  it('a reason that needs a note is refused without one; nothing is written', async () => {
    const scene = await arrivedDropoff('driver');
    const res = await completeWith(scene, { reason_key: 'damaged' });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([expect.objectContaining({ pointer: '/packages/0/note', code: 'note_required', detail: 'The reason damaged needs a note.' })]);
    expect((await getStop(tenant.admin, scene.dropoff.id)).status).toBe('arrived');
    expect((await completeWith(scene, { reason_key: 'damaged', note: 'Box crushed' })).status).toBe(200);
  });

  it('a reason must apply to the stop type and the package interaction', async () => {
    const scene = await arrivedDropoff('driver');
    const res = await completeWith(scene, { reason_key: 'not_ready' });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([expect.objectContaining({ pointer: '/packages/0/reason_key', code: 'not_applicable' })]);
    const unknown = await completeWith(scene, { reason_key: 'aliens' });
    expect(unknown.body.errors).toEqual([expect.objectContaining({ pointer: '/packages/0/reason_key', code: 'unknown_reference' })]);
  });

  it('a reason that triggers a reattempt appends a reattempt_later stop for the package; the booking stays active', async () => {
    const scene = await arrivedDropoff('driver');
    const seen = await seenEvents(scene);
    expect((await completeWith(scene, { reason_key: 'recipient_absent' })).status).toBe(200);
    const booking = await getBooking(tenant.admin, scene.booking.id);
    const copy = booking.stops[2];
    expect(copy).toMatchObject({ type: 'dropoff', status: 'to_be_dispatched', tour_id: null, recovery_of_stop_id: scene.dropoff.id, recovery_kind: 'reattempt' });
    expect(booking.packages[0]).toMatchObject({ status: 'in_transit', dropoff_stop_id: copy.id });
    expect(booking.packages[0].history.slice(-2)).toEqual([
      expect.objectContaining({ event: 'failed', reason_key: 'recipient_absent', stop_id: scene.dropoff.id }),
      expect.objectContaining({ event: 'reattempt_scheduled', stop_id: copy.id }),
    ]);
    expect(booking.status).toBe('to_be_dispatched');
    expect(await newEventTypes(scene, seen)).toContain('booking.route_changed');
  });

  it('a reattempt after a failed pickup copies the pickup and the package’s drop-off, pickup first', async () => {
    const driver = await createUser(tenant.admin, { role: 'driver', organization_ids: [organizationId] });
    const booking = await createBooking(tenant.admin, { service_id: service.id });
    await tourEnRoute(tenant.admin, [booking.id], driver.id);
    const [pickup, dropoff] = booking.stops;
    await driveStop(driver.client, pickup.id, 'arrived');
    const packageId = booking.packages[0].id;
    await expectOk(driver.client.post(`/api/stops/${pickup.id}/complete`, { packages: [{ id: packageId, result: 'failed', reason_key: 'not_ready' }] }));
    const after = await getBooking(tenant.admin, booking.id);
    const [, , pickupCopy, dropoffCopy] = after.stops;
    expect(pickupCopy).toMatchObject({ type: 'pickup', status: 'to_be_dispatched', recovery_of_stop_id: pickup.id, recovery_kind: 'reattempt' });
    expect(dropoffCopy).toMatchObject({ type: 'dropoff', status: 'to_be_dispatched', recovery_of_stop_id: dropoff.id, recovery_kind: 'reattempt' });
    expect(after.packages[0]).toMatchObject({ status: 'awaiting_pickup', pickup_stop_id: pickupCopy.id, dropoff_stop_id: dropoffCopy.id });
    // The drop-off still on the tour no longer carries the package: completing it does not deliver it.
    await driveStop(driver.client, dropoff.id, 'completed');
    expect((await getBooking(tenant.admin, booking.id)).packages[0].status).toBe('awaiting_pickup');
  });

  it('a reason that does not trigger a reattempt fails the package for good', async () => {
    const scene = await arrivedDropoff('driver');
    expect((await completeWith(scene, { reason_key: 'refused' })).status).toBe(200);
    const booking = await getBooking(tenant.admin, scene.booking.id);
    expect(booking.stops).toHaveLength(2);
    expect(booking.packages[0].status).toBe('failed');
    expect(booking.status).toBe('completed');
  });
});
