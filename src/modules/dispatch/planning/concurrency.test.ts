// Optimisation and planning racing other dispatch writes (PostgreSQL only: PGlite has one session and serializes
// everything, so these are reported as skipped there).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestTenant } from '../../../../test/app.ts';
import { createBooking, createOrganization, createService, createUser, driveStop, expectOk, tourEnRoute } from '../../../../test/factories.ts';
import { waitUntilSettledOrWaitingForALock, waitUntilSomeoneWaitsForALock } from '../../../../test/locks.ts';

const ROUNDS = 5;
// Five rounds of racing plans, each solving twice: over 30 s (the default) on a loaded two-core machine.

describe.skipIf(!process.env.TEST_DATABASE_URL)('tour optimisation and dispatch planning on PostgreSQL', { timeout: 120_000 }, () => {
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

  const booking = (from: number, to: number) =>
    createBooking(tenant.admin, {
      service_id: serviceId,
      managing_organization_ids: [orgId],
      stops: [
        { type: 'pickup', location: { lat: 52.5, lng: from }, address: { street: 'A', number: '1', city: 'Berlin' } },
        { type: 'dropoff', location: { lat: 52.5, lng: to }, address: { street: 'B', number: '2', city: 'Berlin' } },
      ],
    });

  it('starts over when stops joined the tour while the solver ran: no stop lost, positions 0…n-1', async () => {
    const bookings = [await booking(13.44, 13.5), await booking(13.4, 13.46), await booking(13.42, 13.48)];
    const tour = (await expectOk(tenant.admin.post('/api/hailing/bookings/merge', { booking_ids: bookings.map((b) => b.id) }), 201)).tour;
    const joining = await booking(13.41, 13.43);
    // Another session holds the tour while the optimiser searches, and puts two more stops on it before it lets go.
    const other = await t.deps.database.pool!.connect();
    try {
      await other.query('BEGIN');
      await other.query('SELECT id FROM tours WHERE tenant_id = $1 AND id = $2 FOR UPDATE', [tenant.tenantId, tour.id]);
      const optimizing = tenant.admin.post(`/api/hailing/tours/${tour.id}/optimize`, { time_limit_ms: 50 });
      await waitUntilSomeoneWaitsForALock(t.deps.database.pool!);
      await other.query(`UPDATE stops SET tour_id = $3, tour_position = 10 + position, status = 'scheduled' WHERE tenant_id = $1 AND booking_id = $2`, [tenant.tenantId, joining.id, tour.id]);
      await other.query('COMMIT');
      const body = await expectOk(optimizing);
      const stops = body.tour.stops as { id: string; tour_position: number }[];
      expect(stops.map((s) => s.tour_position)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
      expect(stops.map((s) => s.id)).toEqual(expect.arrayContaining(joining.stops.map((s: { id: string }) => s.id)));
      expect(body.tour.optimized).toBe(true);
    } finally {
      other.release();
    }
  });

  /** A driver on shift with a tour under way (A's pickup done, B open), in the tenant's organization. */
  async function runningTour() {
    const driver = await createUser(tenant.admin, { role: 'driver', organization_ids: [orgId] });
    const day = { starts_at: new Date(t.clock.now().getTime() - 3600_000).toISOString(), ends_at: new Date(t.clock.now().getTime() + 8 * 3600_000).toISOString() };
    await expectOk(tenant.admin.post(`/api/drivers/${driver.id}/shifts`, { shift: { ...day, start_location: { lat: 52.5, lng: 13.4 } } }), 201);
    const [a, b] = [await booking(13.4, 13.41), await booking(13.4, 13.43)];
    const tour = await tourEnRoute(tenant.admin, [a.id, b.id], driver.id);
    await driveStop(driver.client, a.stops[0].id, 'completed');
    return { driver, tour };
  }

  it('refuses a re-plan whose running tour took stops while it waited for the tour (decision 1303): no stop lost, positions 0…n-1', async () => {
    const { driver, tour } = await runningTour();
    const joining = await booking(13.41, 13.42);
    const planned = await booking(13.4, 13.42);
    // Another session holds the running tour, as an insert would, and puts two more stops on it before it lets go.
    const other = await t.deps.database.pool!.connect();
    try {
      await other.query('BEGIN');
      await other.query('SELECT id FROM tours WHERE tenant_id = $1 AND id = $2 FOR UPDATE', [tenant.tenantId, tour.id]);
      const applying = tenant.admin.post('/api/hailing/dispatch/plan', { booking_ids: [planned.id], drivers: [driver.id], apply: true, time_limit_ms: 50 });
      await waitUntilSettledOrWaitingForALock(t.deps.database.pool!, applying);
      await other.query(`UPDATE stops SET tour_id = $3, tour_position = 4 + position, status = 'scheduled' WHERE tenant_id = $1 AND booking_id = $2`, [tenant.tenantId, joining.id, tour.id]);
      await other.query('COMMIT');
      const res = await applying;
      expect([res.status, res.body.error_code, res.body.tour_id]).toEqual([409, 'plan_outdated', tour.id]);
      const after = (await expectOk(tenant.admin.get(`/api/hailing/tours/${tour.id}`))).tour;
      expect(after.stops.map((s: { tour_position: number }) => s.tour_position)).toEqual([0, 1, 2, 3, 4, 5]);
      expect(after.stops.map((s: { id: string }) => s.id)).toEqual(expect.arrayContaining(joining.stops.map((s: { id: string }) => s.id)));
      expect((await expectOk(tenant.admin.get(`/api/hailing/bookings/${planned.id}`))).booking.status).toBe('to_be_dispatched');
    } finally {
      other.release();
    }
  });

  it('inserts a re-planned booking into a running tour once when the same plan is applied twice at once', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const { driver, tour } = await runningTour();
      const planned = await booking(13.4, 13.42);
      const body = { booking_ids: [planned.id], drivers: [driver.id], apply: true, time_limit_ms: 20 };
      const answers = await Promise.all([tenant.admin.post('/api/hailing/dispatch/plan', body), tenant.admin.post('/api/hailing/dispatch/plan', body)]);
      const statuses = answers.map((a) => a.status).sort();
      expect(statuses[0], answers.map((a) => `${a.status} ${a.body.error_code}`).join(', ')).toBe(201);
      expect([409, 422]).toContain(statuses[1]);
      const after = (await expectOk(tenant.admin.get(`/api/hailing/tours/${tour.id}`))).tour;
      expect(after.stops.map((s: { tour_position: number }) => s.tour_position)).toEqual([0, 1, 2, 3, 4, 5]);
      expect(after.stops.filter((s: { booking_id: string }) => s.booking_id === planned.id)).toHaveLength(2);
    }
  });

  it('never dispatches a booking twice when a plan is applied while a merge takes the same bookings', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const bookings = [await booking(13.4, 13.41), await booking(13.42, 13.43)];
      const ids = bookings.map((b) => b.id);
      const [planned, merged] = await Promise.all([
        tenant.admin.post('/api/hailing/dispatch/plan', { booking_ids: ids, apply: true, time_limit_ms: 20 }),
        tenant.admin.post('/api/hailing/bookings/merge', { booking_ids: ids }),
      ]);
      const winners = [planned.status, merged.status].filter((s) => s === 201);
      expect(winners, `plan ${planned.status} ${planned.body.error_code}, merge ${merged.status} ${merged.body.error_code}`).toHaveLength(1);
      // Every stop sits on exactly one tour, and that tour is the winner's.
      const tourIds = planned.status === 201 ? planned.body.tours.map((x: { id: string }) => x.id) : [merged.body.tour.id];
      for (const b of bookings) {
        const fresh = (await expectOk(tenant.admin.get(`/api/hailing/bookings/${b.id}`))).booking;
        for (const s of fresh.stops) expect(tourIds).toContain(s.tour_id);
      }
      const tours = await Promise.all(tourIds.map(async (id: string) => (await expectOk(tenant.admin.get(`/api/hailing/tours/${id}`))).tour));
      expect(tours.flatMap((x) => x.stops).length).toBe(4);
    }
  });
});
