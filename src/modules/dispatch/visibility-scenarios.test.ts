// docs/api-guide.md "Who sees what", scenario by scenario, through the HTTP API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type Client, type TestApp, type TestTenant } from '../../../test/app.ts';
import { createBooking, createOrganization, createService, createUser, expectOk, type CreatedUser } from '../../../test/factories.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

interface World {
  tenant: TestTenant;
  admin: Client;
  serviceId: string;
  orgs: { A: string; B: string; C: string };
  managers: { A: CreatedUser; B: CreatedUser; C: CreatedUser };
}

type Drivers = Awaited<ReturnType<typeof freshDrivers>>;

let w: World;
beforeAll(async () => {
  const tenant = await t.createTenant();
  const admin = tenant.admin;
  const [A, B, C] = [(await createOrganization(admin)).id, (await createOrganization(admin)).id, (await createOrganization(admin)).id];
  w = {
    tenant,
    admin,
    serviceId: (await createService(admin)).id,
    orgs: { A, B, C },
    managers: {
      A: await createUser(admin, { role: 'manager', organization_ids: [A] }),
      B: await createUser(admin, { role: 'manager', organization_ids: [B] }),
      C: await createUser(admin, { role: 'manager', organization_ids: [C] }),
    },
  };
});

/** New drivers of organizations A and B for each scenario: a driver left en_route elsewhere could take nothing. */
async function freshDrivers() {
  return {
    A: await createUser(w.admin, { role: 'driver', organization_ids: [w.orgs.A] }),
    B: await createUser(w.admin, { role: 'driver', organization_ids: [w.orgs.B] }),
  };
}

/** A booking managed by `managing`, on a new tour released as pickable. */
async function pickableTour(managing: string[]) {
  const booking = await createBooking(w.admin, { service_id: w.serviceId, managing_organization_ids: managing });
  const tour = (await expectOk(w.admin.post('/api/hailing/bookings/merge', { booking_ids: [booking.id] }), 201)).tour;
  await expectOk(w.admin.post(`/api/hailing/tours/${tour.id}/ready_to_pick`));
  return { bookingId: booking.id as string, tourId: tour.id as string, stopIds: booking.stops.map((s: { id: string }) => s.id) as string[], d: await freshDrivers() };
}

/** Which managers see the tour and the booking (by show), and list the booking. */
async function managersSeeing(tourId: string, bookingId: string) {
  const result: string[] = [];
  for (const [name, manager] of Object.entries(w.managers)) {
    const tour = (await manager.client.get(`/api/hailing/tours/${tourId}`)).status === 200;
    const booking = (await manager.client.get(`/api/hailing/bookings/${bookingId}`)).status === 200;
    const listed = (await expectOk(manager.client.get('/api/hailing/bookings?view=compact&limit=100'))).bookings.some((b: { id: string }) => b.id === bookingId);
    expect([name, booking]).toEqual([name, listed]); // the list filter in SQL and the show rule agree
    const tours = (await expectOk(manager.client.get('/api/hailing/tours?view=compact&limit=100'))).tours;
    expect([name, tour]).toEqual([name, tours.some((x: { id: string }) => x.id === tourId)]);
    if (tour || booking) result.push(`${name}:${tour ? 'tour' : ''}${tour && booking ? '+' : ''}${booking ? 'booking' : ''}`);
  }
  return result;
}

const act = (client: Client, tourId: string, action: string, body?: unknown) => expectOk(client.post(`/api/hailing/tours/${tourId}/${action}`, body));

describe('visibility of tours and bookings to organizations', () => {
  it('before anyone executes, the managing organizations see tour and booking', async () => {
    const { tourId, bookingId } = await pickableTour([w.orgs.A, w.orgs.B]);
    expect(await managersSeeing(tourId, bookingId)).toEqual(['A:tour+booking', 'B:tour+booking']);
  });

  it.each([
    ['picks', async (tourId: string, d: Drivers) => act(d.B.client, tourId, 'pick')],
    ['claims', async (tourId: string, d: Drivers) => {
      await act(w.admin, tourId, 'hold');
      await act(w.admin, tourId, 'schedule');
      await act(d.B.client, tourId, 'claim');
    }],
    ['is force-assigned', async (tourId: string, d: Drivers) => act(w.managers.A.client, tourId, 'force_assign', { driver_id: d.B.id })],
  ])('when a driver %s a tour, only the driver’s organization sees it and its bookings', async (_name, take) => {
    const { tourId, bookingId, d } = await pickableTour([w.orgs.A, w.orgs.B]);
    await take(tourId, d);
    expect(await managersSeeing(tourId, bookingId)).toEqual(['B:tour+booking']);
    const explained = await expectOk(w.admin.get(`/api/hailing/tours/${tourId}/visibility`));
    expect(explained.visibility).toEqual({
      tour_id: tourId,
      reason: 'executing_driver',
      organizations: [{ organization_id: w.orgs.B, reason: 'executing_driver' }],
      drivers_of_all_organizations: false,
    });
  });

  it.each([
    ['ditches it', async (tourId: string, d: Drivers) => {
      await act(d.B.client, tourId, 'pick');
      await act(d.B.client, tourId, 'ditch');
    }],
    ['unclaims it', async (tourId: string, d: Drivers) => {
      await act(w.admin, tourId, 'hold');
      await act(w.admin, tourId, 'schedule');
      await act(d.B.client, tourId, 'claim');
      await act(d.B.client, tourId, 'unclaim');
    }],
    ['lets the claim window expire', async (tourId: string, d: Drivers) => {
      await act(w.admin, tourId, 'hold');
      await act(w.admin, tourId, 'schedule');
      await act(d.B.client, tourId, 'claim');
      const { createWorker } = await import('../../worker/loop.ts');
      t.clock.advanceSeconds(901);
      await createWorker(t.deps).drain();
    }],
    ['is revoked', async (tourId: string, d: Drivers) => {
      await act(d.B.client, tourId, 'pick');
      await act(w.admin, tourId, 'force_unassign');
    }],
  ])('when the driver %s, the managing organizations regain visibility', async (_name, leave) => {
    const { tourId, bookingId, d } = await pickableTour([w.orgs.A, w.orgs.B]);
    await leave(tourId, d);
    expect(await managersSeeing(tourId, bookingId)).toEqual(['A:tour+booking', 'B:tour+booking']);
  });

  it('a completed tour stays with the executing organization, also in history lists', async () => {
    const { tourId, bookingId, stopIds, d } = await pickableTour([w.orgs.A, w.orgs.B]);
    await act(d.B.client, tourId, 'pick');
    for (const stopId of stopIds) {
      await expectOk(d.B.client.post(`/api/stops/${stopId}/arrive`));
      await expectOk(d.B.client.post(`/api/stops/${stopId}/complete`));
    }
    expect((await expectOk(w.admin.get(`/api/hailing/tours/${tourId}`))).tour.status).toBe('completed');
    expect(await managersSeeing(tourId, bookingId)).toEqual(['B:tour+booking']);
    const history = await expectOk(w.managers.B.client.get('/api/hailing/bookings?filters[status][]=completed'));
    expect(history.bookings.map((b: { id: string }) => b.id)).toContain(bookingId);
    const booking = await expectOk(w.admin.get(`/api/hailing/bookings/${bookingId}`));
    expect(booking.booking.managing_organization_ids).toEqual([w.orgs.A, w.orgs.B].sort());
  });

  it('a tour cancelled with a driver on it stays with the executing organization', async () => {
    const { tourId, bookingId, d } = await pickableTour([w.orgs.A, w.orgs.B]);
    await act(d.B.client, tourId, 'pick');
    await act(w.admin, tourId, 'cancel');
    const seeing = await managersSeeing(tourId, bookingId);
    expect(seeing).toContain('B:tour+booking');
    expect(seeing).not.toContain('A:tour+booking');
    expect(seeing).toContain('A:booking'); // its stops went back to the booking, which its managers dispatch again
  });

  it('a booking split across tours is visible to the organizations of all drivers executing them', async () => {
    const d = await freshDrivers();
    const booking = await createBooking(w.admin, { service_id: w.serviceId, managing_organization_ids: [w.orgs.A, w.orgs.B, w.orgs.C], packages: [] });
    const first = (await expectOk(w.admin.post('/api/hailing/bookings/merge', { stop_ids: [booking.stops[0].id] }), 201)).tour.id;
    const second = (await expectOk(w.admin.post('/api/hailing/bookings/merge', { stop_ids: [booking.stops[1].id] }), 201)).tour.id;
    for (const id of [first, second]) await act(w.admin, id, 'ready_to_pick');
    await act(d.A.client, first, 'pick');
    await act(d.B.client, second, 'pick');
    const seeing = (await managersSeeing(first, booking.id)).concat(await managersSeeing(second, booking.id));
    expect([...new Set(seeing)].sort()).toEqual(['A:booking', 'A:tour+booking', 'B:booking', 'B:tour+booking']);
  });

  it('a booking without managing organizations is invisible to every manager and open to drivers of all organizations', async () => {
    const { tourId, bookingId, d } = await pickableTour([]);
    expect(await managersSeeing(tourId, bookingId)).toEqual([]);
    expect((await d.A.client.get(`/api/hailing/tours/${tourId}`)).status).toBe(200);
    expect((await d.B.client.get(`/api/hailing/tours/${tourId}`)).status).toBe(200);
    const listed = await expectOk(d.B.client.get('/api/hailing/tours?filters[status][]=pickable'));
    expect(listed.tours.map((x: { id: string }) => x.id)).toContain(tourId);
    const explained = await expectOk(w.admin.get(`/api/hailing/tours/${tourId}/visibility`));
    expect(explained.visibility).toMatchObject({ reason: 'no_managing_organizations', organizations: [], drivers_of_all_organizations: true });
    expect((await w.managers.A.client.get(`/api/hailing/tours/${tourId}/visibility`)).status).toBe(403);
  });

  it('drivers see only bookings they execute; customers never see tours', async () => {
    const { tourId, bookingId, d } = await pickableTour([w.orgs.A]);
    expect((await d.A.client.get(`/api/hailing/bookings/${bookingId}`)).status).toBe(404);
    await act(d.A.client, tourId, 'pick');
    expect((await d.A.client.get(`/api/hailing/bookings/${bookingId}`)).status).toBe(200);
    expect((await expectOk(d.B.client.get('/api/hailing/tours'))).tours.map((x: { id: string }) => x.id)).not.toContain(tourId);
    const customer = await createUser(w.admin, { role: 'customer' });
    expect((await customer.client.get(`/api/hailing/tours/${tourId}`)).status).toBe(404);
    expect((await customer.client.get('/api/hailing/tours')).status).toBe(403);
  });
});
