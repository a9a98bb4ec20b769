import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestTenant } from '../../../test/app.ts';
import { jpegLike, pngImage } from '../../../test/proof-images.ts';
import { createBooking, createOrganization, createService, createUser, driveStop, eventsOf, expectOk, mergeIntoTour, tourEnRoute, type CreatedUser } from '../../../test/factories.ts';

let t: TestApp;
let tenant: TestTenant;
let orgA: string;
let orgB: string;
let managerA: CreatedUser;
let managerB: CreatedUser;
let service: { id: string; service_area_id: string };

beforeAll(async () => {
  t = await buildTestApp();
  tenant = await t.createTenant();
  orgA = (await createOrganization(tenant.admin)).id;
  orgB = (await createOrganization(tenant.admin)).id;
  managerA = await createUser(tenant.admin, { role: 'manager', organization_ids: [orgA] });
  managerB = await createUser(tenant.admin, { role: 'manager', organization_ids: [orgB] });
  service = await createService(tenant.admin, { force_delivery_proof: ['signature'] });
});
afterAll(async () => t.close());

const newDriver = () => createUser(tenant.admin, { role: 'driver', organization_ids: [orgA] });
const bookingOfA = () => createBooking(managerA.client, { service_id: service.id, managing_organization_ids: [orgA] });

describe('stop completion proof', () => {
  it('stores the proof on the completed stop, with a fingerprint of the photo and a link to its file', async () => {
    const driver = await newDriver();
    const booking = await bookingOfA();
    await tourEnRoute(tenant.admin, [booking.id], driver.id);
    const pickup = booking.stops[0];
    await driveStop(driver.client, pickup.id, 'arrived');
    const photo = pngImage(1, 1, [0, 128, 0]).toString('base64');
    const { stop } = await expectOk(driver.client.post(`/api/stops/${pickup.id}/complete`, { proof: { recipient_name: 'Ada', photo } }));
    expect(stop).toMatchObject({ status: 'completed', proof: { recipient_name: 'Ada', photo: expect.stringMatching(/^sha256:[0-9a-f]{64}$/), photo_url: `/api/stops/${pickup.id}/proof/photo` } });
    expect((await expectOk(tenant.admin.get(`/api/stops/${pickup.id}`))).stop.proof).toEqual(stop.proof);
    expect((await expectOk(tenant.admin.get(`/api/stops/${booking.stops[1].id}`))).stop.proof).toBeNull();
  });

  it('validates the proof like a forced delivery’s and leaves the stop untouched when it is bad', async () => {
    const driver = await newDriver();
    const booking = await bookingOfA();
    await tourEnRoute(tenant.admin, [booking.id], driver.id);
    const pickup = booking.stops[0];
    await driveStop(driver.client, pickup.id, 'arrived');
    const unknownKind = await driver.client.post(`/api/stops/${pickup.id}/complete`, { proof: { fingerprint: 'x' } });
    expect(unknownKind.status).toBe(422);
    const tooLarge = await driver.client.post(`/api/stops/${pickup.id}/complete`, { proof: { photo: jpegLike(5 * 1024 * 1024 + 3).toString('base64') } });
    expect(tooLarge.status).toBe(422);
    expect(tooLarge.body.errors).toEqual([expect.objectContaining({ pointer: '/proof/photo', code: 'too_large' })]);
    expect((await expectOk(tenant.admin.get(`/api/stops/${pickup.id}`))).stop).toMatchObject({ status: 'arrived', proof: null });
  });

  it('does not require the service’s force_delivery_proof to complete a stop', async () => {
    const driver = await newDriver();
    const booking = await bookingOfA();
    await tourEnRoute(tenant.admin, [booking.id], driver.id);
    await driveStop(driver.client, booking.stops[0].id, 'completed');
    expect((await expectOk(tenant.admin.get(`/api/stops/${booking.stops[0].id}`))).stop).toMatchObject({ status: 'completed', proof: null });
  });
});

describe('merging bookings with a failed stop', () => {
  /** A booking whose drop-off failed with reattempt_later on `driver`'s tour: its copy waits for dispatch. */
  async function bookingWithWaitingReattempt() {
    const driver = await newDriver();
    const booking = await bookingOfA();
    await tourEnRoute(tenant.admin, [booking.id], driver.id);
    const [pickup, dropoff] = booking.stops;
    await driveStop(driver.client, pickup.id, 'completed');
    await driveStop(driver.client, dropoff.id, 'arrived');
    const failed = await expectOk(driver.client.post(`/api/stops/${dropoff.id}/fail`, { outcome: 'reattempt_later', reason_key: 'location_closed' }));
    return { booking, failedStopId: dropoff.id as string, recoveryStopId: failed.recovery_stop.id as string };
  }

  it('with booking_ids takes only the stops awaiting dispatch, so a recovery stop is dispatched', async () => {
    const failed = await bookingWithWaitingReattempt();
    const fresh = await bookingOfA();
    const res = await managerA.client.post('/api/hailing/bookings/merge', { booking_ids: [fresh.id, failed.booking.id] });
    expect(res.status).toBe(201);
    expect(res.body.tour.stops.map((s: { id: string }) => s.id)).toEqual([...fresh.stops.map((s: { id: string }) => s.id), failed.recoveryStopId]);
    expect((await expectOk(tenant.admin.get(`/api/stops/${failed.failedStopId}`))).stop.status).toBe('failed');
  });

  it('with stop_ids naming a failed stop answers 422 failed_stops pointing into stop_ids', async () => {
    const failed = await bookingWithWaitingReattempt();
    const res = await managerA.client.post('/api/hailing/bookings/merge', { stop_ids: [failed.recoveryStopId, failed.failedStopId] });
    expect(res.status).toBe(422);
    expect(res.body.error_code).toBe('failed_stops');
    expect(res.body.errors).toEqual([expect.objectContaining({ pointer: '/stop_ids/1', code: 'failed_stop' })]);
  });
});

describe('a driver acting on a tour that is not its own', () => {
  async function waitingTour(action: 'schedule' | 'ready_to_pick') {
    const booking = await bookingOfA();
    const tour = await mergeIntoTour(managerA.client, [booking.id]);
    await expectOk(managerA.client.post(`/api/hailing/tours/${tour.id}/${action}`));
    return tour.id as string;
  }

  it('gets 409 invalid_transition for a driver action that does not fit a waiting tour it can see', async () => {
    const driver = await newDriver();
    const scheduled = await waitingTour('schedule');
    const pickable = await waitingTour('ready_to_pick');
    expect((await driver.client.get(`/api/hailing/tours/${scheduled}`)).status).toBe(200);
    for (const [tourId, action] of [
      [scheduled, 'start'],
      [scheduled, 'unclaim'],
      [scheduled, 'ditch'],
      [pickable, 'start'],
      [pickable, 'ditch'],
    ] as const) {
      const res = await driver.client.post(`/api/hailing/tours/${tourId}/${action}`);
      expect({ action, status: res.status, error_code: res.body.error_code }).toEqual({ action, status: 409, error_code: 'invalid_transition' });
    }
  });

  it('gets 409 invalid_transition claiming or picking the tour it already holds, and 403 for a dispatcher action', async () => {
    const driver = await newDriver();
    const tourId = await waitingTour('schedule');
    await expectOk(driver.client.post(`/api/hailing/tours/${tourId}/claim`));
    for (const action of ['claim', 'pick']) {
      const res = await driver.client.post(`/api/hailing/tours/${tourId}/${action}`);
      expect({ action, status: res.status, body: res.body }).toMatchObject({ action, status: 409, body: { error_code: 'invalid_transition', from: 'claimed' } });
    }
    expect((await driver.client.post(`/api/hailing/tours/${tourId}/cancel`)).body.error_code).toBe('forbidden');
  });

  it('gets 404 on another driver’s tour it cannot see', async () => {
    const [owner, other] = [await newDriver(), await newDriver()];
    const tourId = await waitingTour('schedule');
    await expectOk(owner.client.post(`/api/hailing/tours/${tourId}/claim`));
    for (const action of ['start', 'unclaim', 'ditch']) expect((await other.client.post(`/api/hailing/tours/${tourId}/${action}`)).status).toBe(404);
  });
});

describe('cancelling a tour', () => {
  it('records booking.route_changed for each booking it hands stops back to, and tour.modified', async () => {
    const [b1, b2] = [await bookingOfA(), await bookingOfA()];
    const tour = await mergeIntoTour(managerA.client, [b1.id, b2.id]);
    const before = {
      b1: (await eventsOf(tenant.admin, b1.id, 'booking.route_changed')).length,
      b2: (await eventsOf(tenant.admin, b2.id, 'booking.route_changed')).length,
      tour: (await eventsOf(tenant.admin, tour.id, 'tour.modified')).length,
    };
    await expectOk(managerA.client.post(`/api/hailing/tours/${tour.id}/cancel`));
    expect((await eventsOf(tenant.admin, b1.id, 'booking.route_changed')).length).toBe(before.b1 + 1);
    expect((await eventsOf(tenant.admin, b2.id, 'booking.route_changed')).length).toBe(before.b2 + 1);
    expect((await eventsOf(tenant.admin, tour.id, 'tour.modified')).length).toBe(before.tour + 1);
    const [transition] = (await eventsOf(tenant.admin, b1.id, 'booking.transition')).slice(-1);
    expect(transition.data).toMatchObject({ from: 'dispatched', to: 'to_be_dispatched', event: 'cancel' });
  });
});

describe('package transitions on a package the caller cannot see', () => {
  it('answers 404 before looking at the event', async () => {
    const booking = await bookingOfA();
    const packageId = booking.packages[0].id;
    for (const event of ['bogus', 'force_delivery', 'announce']) {
      expect((await managerB.client.post(`/api/hailing/packages/${packageId}/transition`, { event })).status).toBe(404);
      expect((await managerA.client.post(`/api/hailing/packages/00000000-0000-7000-8000-000000000000/transition`, { event })).status).toBe(404);
    }
    expect((await managerA.client.post(`/api/hailing/packages/${packageId}/transition`, { event: 'bogus' })).status).toBe(422);
    expect((await managerA.client.post(`/api/hailing/packages/${packageId}/transition`, { event: 'force_delivery' })).body.error_code).toBe('transition_removed');
  });
});
