// Races that only a real PostgreSQL can show (PGlite has one session and serializes everything): run with
// TEST_DATABASE_URL set; on PGlite they are reported as skipped.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestTenant } from '../../../../test/app.ts';
import { createBooking, createOrganization, createService, createUser, expectOk, mergeIntoTour, type CreatedUser } from '../../../../test/factories.ts';
import { waitUntilSomeoneWaitsForALock } from '../../../../test/locks.ts';

describe.skipIf(!process.env.TEST_DATABASE_URL)('concurrent dispatch on PostgreSQL', () => {
  let t: TestApp;
  let tenant: TestTenant;
  let serviceId: string;
  let orgId: string;
  beforeAll(async () => {
    t = await buildTestApp();
    tenant = await t.createTenant();
    orgId = (await createOrganization(tenant.admin)).id;
    serviceId = (await createService(tenant.admin)).id;
  });
  afterAll(async () => t?.close());

  const driver = (): Promise<CreatedUser> => createUser(tenant.admin, { role: 'driver', organization_ids: [orgId] });

  it('lets exactly one of two drivers claiming one tour at once win; the other gets 409', async () => {
    for (let round = 0; round < 5; round++) {
      const booking = await createBooking(tenant.admin, { service_id: serviceId, managing_organization_ids: [orgId] });
      const tour = await mergeIntoTour(tenant.admin, [booking.id]);
      await expectOk(tenant.admin.post(`/api/hailing/tours/${tour.id}/schedule`));
      const [a, b] = [await driver(), await driver()];
      const results = await Promise.all([a, b].map((d) => d.client.post(`/api/hailing/tours/${tour.id}/claim`)));
      expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
      const winner = results[0]!.status === 200 ? a : b;
      expect((await expectOk(tenant.admin.get(`/api/hailing/tours/${tour.id}`))).tour.driver_id).toBe(winner.id);
    }
  });

  it('never corrupts tour positions while a dispatcher moves stops and the driver completes one', async () => {
    for (let round = 0; round < 5; round++) {
      const bookings = [];
      for (let i = 0; i < 3; i++) bookings.push(await createBooking(tenant.admin, { service_id: serviceId, managing_organization_ids: [orgId], packages: [] }));
      const running = await mergeIntoTour(tenant.admin, bookings.map((b) => b.id));
      const target = await mergeIntoTour(tenant.admin, [(await createBooking(tenant.admin, { service_id: serviceId, managing_organization_ids: [orgId] })).id]);
      await expectOk(tenant.admin.post(`/api/hailing/tours/${running.id}/ready_to_pick`));
      const d = await driver();
      await expectOk(d.client.post(`/api/hailing/tours/${running.id}/pick`));
      const first = bookings[0].stops[0].id;
      await expectOk(d.client.post(`/api/stops/${first}/arrive`));
      const moving = [bookings[2].stops[0].id, bookings[2].stops[1].id];
      const [completed, moved] = await Promise.all([
        d.client.post(`/api/stops/${first}/complete`),
        tenant.admin.post(`/api/hailing/tours/${target.id}/stops/insert`, { stop_ids: moving, position: 0 }),
      ]);
      expect(completed.status).toBe(200);
      expect(moved.status).toBe(200);
      for (const id of [running.id, target.id]) {
        const tour = (await expectOk(tenant.admin.get(`/api/hailing/tours/${id}`))).tour;
        expect(tour.stops.map((s: { tour_position: number }) => s.tour_position)).toEqual(tour.stops.map((_: unknown, i: number) => i));
      }
      const runningStops = (await expectOk(tenant.admin.get(`/api/hailing/tours/${running.id}`))).tour.stops;
      expect(runningStops).toHaveLength(4);
      expect(runningStops[0]).toMatchObject({ id: first, status: 'completed' });
    }
  });

  it('cancels a booking whose stops were dispatched into a tour while it waited for the booking, and lays that tour out again', async () => {
    const waiting = await createBooking(tenant.admin, { service_id: serviceId, managing_organization_ids: [orgId] });
    const other = await createBooking(tenant.admin, { service_id: serviceId, managing_organization_ids: [orgId] });
    const tour = await mergeIntoTour(tenant.admin, [other.id]);
    // A concurrent dispatcher holds the booking, puts its stops first on the tour, and commits only once the cancel
    // has read the booking's tours (none yet) and waits for the booking's lock.
    const lostBefore = t.deps.database.lostRaces();
    const dispatcher = await t.deps.database.pool!.connect();
    try {
      await dispatcher.query('BEGIN');
      await dispatcher.query('SELECT id FROM bookings WHERE tenant_id = $1 AND id = $2 FOR UPDATE', [tenant.tenantId, waiting.id]);
      const cancelling = tenant.admin.post(`/api/hailing/bookings/${waiting.id}/cancel`);
      await waitUntilSomeoneWaitsForALock(t.deps.database.pool!);
      await dispatcher.query('UPDATE stops SET tour_position = tour_position + 2 WHERE tenant_id = $1 AND tour_id = $2', [tenant.tenantId, tour.id]);
      await dispatcher.query(`UPDATE stops SET tour_id = $3, tour_position = position, status = 'scheduled' WHERE tenant_id = $1 AND booking_id = $2`, [tenant.tenantId, waiting.id, tour.id]);
      await dispatcher.query('COMMIT');
      const cancelled = await expectOk(cancelling);
      expect(cancelled.booking.status).toBe('cancelled');
      expect(cancelled.booking.stops.map((s: { status: string; tour_id: string | null }) => [s.status, s.tour_id])).toEqual([['cancelled', null], ['cancelled', null]]);
      // It started over because the tours moved, not because PostgreSQL broke a deadlock.
      expect(t.deps.database.lostRaces()).toBe(lostBefore);
    } finally {
      dispatcher.release();
    }
    // The cancel locked the tour it found on its second start, so it laid the tour out again.
    const after = (await expectOk(tenant.admin.get(`/api/hailing/tours/${tour.id}`))).tour;
    expect(after.stops.map((s: { id: string; tour_position: number }) => [s.id, s.tour_position])).toEqual(other.stops.map((s: { id: string }, i: number) => [s.id, i]));
  });

  it('runs a request again when PostgreSQL rolled it back to break a deadlock, instead of answering 500', async () => {
    const booking = await createBooking(tenant.admin, { service_id: serviceId, managing_organization_ids: [orgId] });
    const tour = await mergeIntoTour(tenant.admin, [booking.id]);
    // Another session takes the booking, then the tour: the opposite of the cancel's order (tour, then booking). It
    // waits ten seconds before looking for deadlocks, so the cancel's session (one second) is the one rolled back.
    const lostBefore = t.deps.database.lostRaces();
    const other = await t.deps.database.pool!.connect();
    try {
      await other.query('BEGIN');
      await other.query("SET LOCAL deadlock_timeout = '10s'");
      await other.query('SELECT id FROM bookings WHERE tenant_id = $1 AND id = $2 FOR UPDATE', [tenant.tenantId, booking.id]);
      const cancelling = tenant.admin.post(`/api/hailing/bookings/${booking.id}/cancel`);
      await waitUntilSomeoneWaitsForALock(t.deps.database.pool!);
      await other.query('SELECT id FROM tours WHERE tenant_id = $1 AND id = $2 FOR UPDATE', [tenant.tenantId, tour.id]);
      await other.query('COMMIT');
      const cancelled = await cancelling;
      expect(cancelled.status).toBe(200);
      expect(t.deps.database.lostRaces(), 'the deadlock was broken and the cancel ran again').toBe(lostBefore + 1);
      expect(cancelled.body.booking.status).toBe('cancelled');
    } finally {
      other.release();
    }
  });
});
