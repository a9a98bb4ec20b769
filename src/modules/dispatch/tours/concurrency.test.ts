// Races that only a real PostgreSQL can show (PGlite has one session and serializes everything): run with
// TEST_DATABASE_URL set; on PGlite they are reported as skipped.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestTenant } from '../../../../test/app.ts';
import { createBooking, createOrganization, createPlace, createService, createUser, driveStop, expectOk, mergeIntoTour, tourEnRoute, type CreatedUser } from '../../../../test/factories.ts';
import { waitUntilSomeoneWaitsForALock } from '../../../../test/locks.ts';

const ROUNDS = 5;
const RACERS = 10;

describe.skipIf(!process.env.TEST_DATABASE_URL)('concurrent dispatch on PostgreSQL', () => {
  let t: TestApp;
  let tenant: TestTenant;
  let serviceId: string;
  let orgId: string;
  beforeAll(async () => {
    // A solver thread per racer: merges with optimize: true then search side by side and reach their transactions
    // together, instead of one after the other behind a single thread.
    t = await buildTestApp({ optimizerThreads: RACERS });
    tenant = await t.createTenant();
    orgId = (await createOrganization(tenant.admin)).id;
    serviceId = (await createService(tenant.admin)).id;
  });
  afterAll(async () => t?.close());

  const driver = (): Promise<CreatedUser> => createUser(tenant.admin, { role: 'driver', organization_ids: [orgId] });

  it('lets exactly one of two drivers claiming one tour at once win; the other no longer sees it (404)', async () => {
    for (let round = 0; round < 5; round++) {
      const booking = await createBooking(tenant.admin, { service_id: serviceId, managing_organization_ids: [orgId] });
      const tour = await mergeIntoTour(tenant.admin, [booking.id]);
      await expectOk(tenant.admin.post(`/api/hailing/tours/${tour.id}/schedule`));
      const [a, b] = [await driver(), await driver()];
      const results = await Promise.all([a, b].map((d) => d.client.post(`/api/hailing/tours/${tour.id}/claim`)));
      expect(results.map((r) => r.status).sort()).toEqual([200, 404]);
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
      // At least once: the retry can take the tour again before the other session, woken by the rollback, does, and
      // deadlock a second time (a race PostgreSQL's wake-up order leaves open), which the next attempt then wins.
      expect(t.deps.database.lostRaces() - lostBefore, 'the deadlock was broken and the cancel ran again').toBeGreaterThanOrEqual(1);
      expect(cancelled.body.booking.status).toBe('cancelled');
    } finally {
      other.release();
    }
  });

  // Concurrent dispatch of the same stops (issue 11): merges, inserts, a merge racing a cancel, and the other
  // read-then-write operations on a booking.

  const booking = () => createBooking(tenant.admin, { service_id: serviceId, managing_organization_ids: [orgId] });

  /** The tours holding a stop of `bookingId`, and how many tour.created events dispatched it (one tour each). */
  async function toursOf(bookingId: string): Promise<{ holding: string[]; created: number }> {
    const rows = await t.deps.database.pool!.query<{ id: string; holds: boolean }>(
      `SELECT t.id, coalesce(bool_or(s.booking_id = $2), false) AS holds
         FROM tours t LEFT JOIN stops s ON s.tenant_id = t.tenant_id AND s.tour_id = t.id
        WHERE t.tenant_id = $1 GROUP BY t.id`,
      [tenant.tenantId, bookingId],
    );
    const created = (await t.deps.database.pool!.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM events WHERE tenant_id = $1 AND type = 'tour.created' AND data->'dispatched_booking_ids' ? $2`,
      [tenant.tenantId, bookingId],
    )).rows[0]!.n;
    return { holding: rows.rows.filter((r) => r.holds).map((r) => r.id), created };
  }

  // With optimize: true each merge first reads its selection in a transaction of its own and searches (decision 0962):
  // the merge's own transaction, under its locks, must still let only one of them dispatch the booking.
  it.each([{ optimize: false }, { optimize: true }])('lets exactly one of ten concurrent merges of one booking win (%o); the others get 422 and no tour', async (options) => {
    for (let round = 0; round < ROUNDS; round++) {
      const b = await booking();
      const results = await Promise.all(Array.from({ length: RACERS }, () => tenant.admin.post('/api/hailing/bookings/merge', { booking_ids: [b.id], ...options })));
      const statuses = results.map((r) => r.status);
      expect(statuses.filter((s) => s === 201)).toHaveLength(1);
      expect(statuses.filter((s) => s !== 201).every((s) => s === 409 || s === 422)).toBe(true);
      const { holding, created } = await toursOf(b.id);
      expect(holding).toHaveLength(1);
      expect(created).toBe(1);
    }
  });

  it('lets exactly one of ten concurrent merges of the same stop ids win', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const b = await booking();
      const stopIds = b.stops.map((s: { id: string }) => s.id);
      const results = await Promise.all(Array.from({ length: RACERS }, () => tenant.admin.post('/api/hailing/bookings/merge', { stop_ids: stopIds })));
      expect(results.filter((r) => r.status === 201)).toHaveLength(1);
      expect(results.filter((r) => r.status !== 201).every((r) => r.status === 409 || r.status === 422)).toBe(true);
      const { holding, created } = await toursOf(b.id);
      expect(holding).toHaveLength(1);
      expect(created).toBe(1);
    }
  });

  it('never leaves a cancelled booking with a stop on a tour when a merge races the cancel', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const b = await booking();
      const [merged, cancelled] = await Promise.all([
        tenant.admin.post('/api/hailing/bookings/merge', { booking_ids: [b.id] }),
        tenant.admin.post(`/api/hailing/bookings/${b.id}/cancel`),
      ]);
      expect(cancelled.status).toBe(200);
      expect([201, 422]).toContain(merged.status);
      const after = (await expectOk(tenant.admin.get(`/api/hailing/bookings/${b.id}`))).booking;
      expect(after.status).toBe('cancelled');
      expect(after.stops.map((s: { status: string; tour_id: string | null }) => [s.status, s.tour_id])).toEqual([['cancelled', null], ['cancelled', null]]);
      if (merged.status === 201) {
        // The merge won: its tour lost the stops to the cancel again and stands without live stops.
        const tour = (await expectOk(tenant.admin.get(`/api/hailing/tours/${merged.body.tour.id}`))).tour;
        expect(tour.stops.filter((s: { status: string }) => s.status !== 'cancelled')).toEqual([]);
      }
    }
  });

  it('lets exactly one of two dispatchers inserting the same waiting stops into two tours win', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const [x, y, b] = [await booking(), await booking(), await booking()];
      const [tourX, tourY] = [await mergeIntoTour(tenant.admin, [x.id]), await mergeIntoTour(tenant.admin, [y.id])];
      const stopIds = b.stops.map((s: { id: string }) => s.id);
      const results = await Promise.all([tourX, tourY].map((tour) => tenant.admin.post(`/api/hailing/tours/${tour.id}/stops/insert`, { stop_ids: stopIds })));
      // Both may succeed only as a move: the second takes the scheduled stops over from the first tour.
      const ok = results.filter((r) => r.status === 200).length;
      expect(ok).toBeGreaterThanOrEqual(1);
      const { holding } = await toursOf(b.id);
      expect(holding).toHaveLength(1);
      for (const tour of [tourX, tourY]) {
        const stops = (await expectOk(tenant.admin.get(`/api/hailing/tours/${tour.id}`))).tour.stops;
        expect(stops.map((s: { tour_position: number }) => s.tour_position)).toEqual(stops.map((_: unknown, i: number) => i));
      }
    }
  });

  it('never dispatches the stops of a booking while another merge of a second booking holds it (two bookings, crossed order)', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const [a, b] = [await booking(), await booking()];
      const results = await Promise.all([
        tenant.admin.post('/api/hailing/bookings/merge', { booking_ids: [a.id, b.id] }),
        tenant.admin.post('/api/hailing/bookings/merge', { booking_ids: [b.id, a.id] }),
      ]);
      expect(results.map((r) => r.status).sort()).toEqual([201, 422]);
      expect((await toursOf(a.id)).holding).toHaveLength(1);
      expect((await toursOf(b.id)).holding).toHaveLength(1);
    }
  });

  it('lets exactly one of a completion and a failure of the same arrived stop win', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      // A driver has one tour under way at a time, so one driver per round.
      const driver = await createUser(tenant.admin, { role: 'driver', organization_ids: [orgId] });
      const b = await booking();
      await tourEnRoute(tenant.admin, [b.id], driver.id);
      const pickup = b.stops[0].id;
      await driveStop(driver.client, pickup, 'arrived');
      const results = await Promise.all([
        driver.client.post(`/api/stops/${pickup}/complete`, {}),
        driver.client.post(`/api/stops/${pickup}/fail`, { outcome: 'skip_recovery' }),
      ]);
      // The loser sees the winner's state: completing a failed stop is 409, failing a completed one 422 (not failable).
      expect(results.filter((r) => r.status === 200)).toHaveLength(1);
      expect(results.find((r) => r.status !== 200)!.status).toBeOneOf([409, 422]);
      const stop = (await expectOk(tenant.admin.get(`/api/stops/${pickup}`))).stop;
      expect(stop.status).toBe(results[0]!.status === 200 ? 'completed' : 'failed');
    }
  });

  it('numbers the stops of a booking 0…n-1 when two custom stops are inserted at once', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const b = await booking();
      const stop = { type: 'dropoff', place_id: (await createPlace(tenant.admin)).id };
      const results = await Promise.all([0, 0].map((position) => tenant.admin.post(`/api/hailing/bookings/${b.id}/stops`, { stop, position })));
      expect(results.map((r) => r.status)).toEqual([201, 201]);
      const stops = (await expectOk(tenant.admin.get(`/api/hailing/bookings/${b.id}`))).booking.stops;
      expect(stops.map((s: { position: number }) => s.position)).toEqual([0, 1, 2, 3]);
    }
  });

  it('lets exactly one of two concurrent cancellations of a package win, with one history entry', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const b = await createBooking(tenant.admin, { service_id: serviceId, managing_organization_ids: [orgId], packages: [{ pickup_stop_index: 0, dropoff_stop_index: 1 }] });
      const id = b.packages[0].id;
      const results = await Promise.all([0, 1].map(() => tenant.admin.post(`/api/hailing/packages/${id}/transition`, { event: 'cancel' })));
      expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
      const pkg = (await expectOk(tenant.admin.get(`/api/hailing/bookings/${b.id}`))).booking.packages[0];
      expect(pkg.history.filter((h: { event: string }) => h.event === 'cancelled' || h.event === 'cancel')).toHaveLength(1);
    }
  });
});
