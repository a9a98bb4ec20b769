// Every driver action on a tour the driver cannot see answers 404, in every tour state, before any role or state
// check: a 409 or 403 there would tell a driver what it may not see (decision 0206; API guide "Who sees what").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestTenant } from '../../../test/app.ts';
import { createBooking, createOrganization, createService, createUser, driveStop, expectOk, mergeIntoTour, type CreatedUser } from '../../../test/factories.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

type State = 'to_be_dispatched' | 'scheduled' | 'pickable' | 'claimed' | 'en_route' | 'completed' | 'cancelled';
type Outsider = 'driverA2' | 'driverB' | 'driverC';

interface World {
  tenant: TestTenant;
  serviceId: string;
  orgs: { A: string; B: string };
  outsiders: Record<Outsider, CreatedUser>;
}

/** The driver actions, each as the request an outsider sends: tour actions, stop steps, failing a stop, a position. */
const ACTIONS: [string, (tourId: string, stopId: string) => [path: string, body: unknown]][] = [
  ...['claim', 'pick', 'unclaim', 'start', 'ditch'].map((action): [string, (tourId: string) => [string, unknown]] => [action, (tourId) => [`/api/hailing/tours/${tourId}/${action}`, undefined]]),
  ...['approach', 'arrive', 'complete'].map((step): [string, (tourId: string, stopId: string) => [string, unknown]] => [step, (_tourId, stopId) => [`/api/stops/${stopId}/${step}`, {}]]),
  ['fail', (_tourId, stopId) => [`/api/stops/${stopId}/fail`, { outcome: 'skip_recovery' }]],
  ['driver_location', (tourId) => [`/api/hailing/tours/${tourId}/driver_location`, { location: { lat: 52.5, lng: 13.4, recorded_at: '2026-01-01T00:00:00.000Z' } }]],
];

/**
 * A tour managed by organizations A and B, brought into `state` by a driver of A where a driver is on it. Drivers of
 * C never see it; B's driver and A's other driver see it only while it waits for a driver (scheduled, pickable).
 */
async function tourIn(w: World, state: State): Promise<{ tourId: string; stopId: string }> {
  const admin = w.tenant.admin;
  const booking = await createBooking(admin, { service_id: w.serviceId, managing_organization_ids: [w.orgs.A, w.orgs.B] });
  const tour = await mergeIntoTour(admin, [booking.id]);
  const tourId: string = tour.id;
  const stopIds: string[] = tour.stops.map((s: { id: string }) => s.id);
  // A driver of A of its own for each tour: a driver has one tour under way at a time.
  const driver = (await createUser(admin, { role: 'driver', organization_ids: [w.orgs.A] })).client;
  if (state === 'pickable') await expectOk(admin.post(`/api/hailing/tours/${tourId}/ready_to_pick`));
  if (['scheduled', 'claimed', 'en_route', 'completed', 'cancelled'].includes(state)) await expectOk(admin.post(`/api/hailing/tours/${tourId}/schedule`));
  if (['claimed', 'en_route', 'completed', 'cancelled'].includes(state)) await expectOk(driver.post(`/api/hailing/tours/${tourId}/claim`));
  if (state === 'en_route' || state === 'completed') await expectOk(driver.post(`/api/hailing/tours/${tourId}/start`));
  if (state === 'en_route') await driveStop(driver, stopIds[0]!, 'arrived');
  if (state === 'completed') for (const stopId of stopIds) await driveStop(driver, stopId, 'completed');
  if (state === 'cancelled') await expectOk(admin.post(`/api/hailing/tours/${tourId}/cancel`));
  expect((await expectOk(admin.get(`/api/hailing/tours/${tourId}`))).tour.status).toBe(state);
  return { tourId, stopId: stopIds[0]! };
}

const WAITING_FOR_A_DRIVER: readonly State[] = ['scheduled', 'pickable'];
const STATES: State[] = ['to_be_dispatched', 'scheduled', 'pickable', 'claimed', 'en_route', 'completed', 'cancelled'];
const CASES = STATES.flatMap((state) =>
  (['driverA2', 'driverB', 'driverC'] as const)
    .filter((outsider) => outsider === 'driverC' || !WAITING_FOR_A_DRIVER.includes(state))
    .map((outsider) => [state, outsider] as const),
);

describe('driver actions on a tour the driver cannot see', () => {
  let w: World;
  beforeAll(async () => {
    const tenant = await t.createTenant();
    const [A, B, C] = [(await createOrganization(tenant.admin)).id, (await createOrganization(tenant.admin)).id, (await createOrganization(tenant.admin)).id];
    const driver = (org: string) => createUser(tenant.admin, { role: 'driver', organization_ids: [org] });
    w = {
      tenant,
      serviceId: (await createService(tenant.admin)).id,
      orgs: { A, B },
      outsiders: { driverA2: await driver(A), driverB: await driver(B), driverC: await driver(C) },
    };
  });

  it.each(CASES)('answers 404 to every driver action on a %s tour for %s, and changes nothing', async (state, outsider) => {
    const { tourId, stopId } = await tourIn(w, state);
    const before = (await expectOk(w.tenant.admin.get(`/api/hailing/tours/${tourId}`))).tour;
    const client = w.outsiders[outsider].client;
    const answers: Record<string, [number, string]> = {};
    for (const [action, request] of ACTIONS) {
      const [path, body] = request(tourId, stopId);
      const res = await client.post(path, body);
      answers[action] = [res.status, res.body?.error_code];
      expect(res.body).not.toHaveProperty('from');
    }
    expect(answers).toEqual(Object.fromEntries(ACTIONS.map(([action]) => [action, [404, 'not_found']])));
    expect((await expectOk(w.tenant.admin.get(`/api/hailing/tours/${tourId}`))).tour).toEqual(before);
  });

  it("answers 404 to B's driver claiming a tour of A and B that A's driver claimed (issue 28's oracle)", async () => {
    const { tourId } = await tourIn(w, 'claimed');
    const res = await w.outsiders.driverB.client.post(`/api/hailing/tours/${tourId}/claim`);
    expect([res.status, res.body.error_code]).toEqual([404, 'not_found']);
  });
});

describe('stop steps of a driver the tour was taken from (decision 1204)', () => {
  it('answers 409 not_tour_driver while the tour waits for a driver it could claim, 404 once it cannot see it, and changes nothing', async () => {
    const tenant = await t.createTenant();
    const admin = tenant.admin;
    const A = (await createOrganization(admin)).id;
    const serviceId = (await createService(admin)).id;
    const driver = await createUser(admin, { role: 'driver', organization_ids: [A] });
    const manager = await createUser(admin, { role: 'manager', organization_ids: [A] });
    const booking = await createBooking(admin, { service_id: serviceId, managing_organization_ids: [A] });
    const tour = await expectOk(admin.post(`/api/hailing/tours/${(await mergeIntoTour(admin, [booking.id])).id}/force_assign`, { driver_id: driver.id, start: true }));
    const stopIds = [...(tour.tour.stops as { id: string; tour_position: number }[])].sort((a, b) => a.tour_position - b.tour_position).map((s) => s.id);
    const tourId: string = tour.tour.id;
    await driveStop(driver.client, stopIds[0]!, 'arrived');
    await expectOk(admin.post(`/api/hailing/tours/${tourId}/force_unassign`));
    // The tour waits for a driver again, and its former driver is one that may claim it: it still sees it.
    expect((await driver.client.get(`/api/hailing/tours/${tourId}`)).status).toBe(200);
    const before = (await expectOk(admin.get(`/api/hailing/tours/${tourId}`))).tour;

    const answer = async (client: typeof admin, path: string, body: unknown = {}) => {
      const res = await client.post(path, body);
      return [res.status, res.body.error_code, res.body.reason_key ?? null];
    };
    const stepsOf = async (client: typeof admin) => ({
      approach: await answer(client, `/api/stops/${stopIds[0]}/approach`),
      arrive: await answer(client, `/api/stops/${stopIds[0]}/arrive`),
      complete: await answer(client, `/api/stops/${stopIds[0]}/complete`),
      fail: await answer(client, `/api/stops/${stopIds[0]}/fail`, { outcome: 'skip_recovery' }),
    });
    expect(await stepsOf(driver.client)).toEqual({
      approach: [409, 'not_tour_driver', null],
      arrive: [409, 'not_tour_driver', null],
      complete: [409, 'not_tour_driver', null],
      // Failing a stop keeps its own rule: only the tour's driver may, and failure_options say why (not_permitted).
      fail: [422, 'outcome_not_available', 'not_permitted'],
    });
    const refused = await driver.client.post(`/api/stops/${stopIds[0]}/approach`, {});
    expect(refused.body.detail).toBe('You are not the driver of this tour (any more): it is waiting for a driver.');
    // A tour action that does not fit the tour's state stays invalid_transition (decision 0206).
    expect(await answer(driver.client, `/api/hailing/tours/${tourId}/start`)).toEqual([409, 'invalid_transition', null]);
    // Admins and managers never run a driver's stops: their role is refused, as before.
    for (const client of [admin, manager.client]) {
      expect(await answer(client, `/api/stops/${stopIds[0]}/approach`)).toEqual([403, 'forbidden', null]);
    }
    expect((await expectOk(admin.get(`/api/hailing/tours/${tourId}`))).tour).toEqual(before);

    // Held back from drivers, the tour is no longer visible to its former driver: 404 for every step.
    await expectOk(admin.post(`/api/hailing/tours/${tourId}/hold`));
    expect(await stepsOf(driver.client)).toEqual({
      approach: [404, 'not_found', null],
      arrive: [404, 'not_found', null],
      complete: [404, 'not_found', null],
      fail: [404, 'not_found', null],
    });
  });
});
