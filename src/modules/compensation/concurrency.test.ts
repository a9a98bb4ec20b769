// Races only a real PostgreSQL shows (PGlite serializes everything): run with TEST_DATABASE_URL; skipped on PGlite.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestTenant } from '../../../test/app.ts';
import { createBooking, createOrganization, createService, createUser, driveStop, expectOk, tourEnRoute } from '../../../test/factories.ts';
import { waitUntilSettledOrWaitingForALock, waitUntilSomeoneWaitsForALock } from '../../../test/locks.ts';
import { createWorker } from '../../worker/loop.ts';

describe.skipIf(!process.env.TEST_DATABASE_URL)('concurrent compensation writes on PostgreSQL', () => {
  let t: TestApp;
  let tenant: TestTenant;
  let orgId: string;
  let serviceId: string;
  beforeAll(async () => {
    t = await buildTestApp();
    tenant = await t.createTenant();
    orgId = (await createOrganization(tenant.admin)).id;
    serviceId = (await createService(tenant.admin, { tip_distribution_strategy: 'completed_dropoffs_on_tour' })).id;
  });
  afterAll(async () => t?.close());

  /** A booking with a pickup and two drop-offs (no packages), as split bookings are made. */
  const twoDropoffs = (tip: number) =>
    createBooking(tenant.admin, {
      service_id: serviceId,
      managing_organization_ids: [orgId],
      tip: { amount: tip, currency: 'EUR' },
      packages: [],
      stops: [
        { type: 'pickup', location: { lat: 52.5, lng: 13.4 }, address: { street: 'A', city: 'Berlin' } },
        { type: 'dropoff', location: { lat: 52.51, lng: 13.41 }, address: { street: 'B', city: 'Berlin' } },
        { type: 'dropoff', location: { lat: 52.52, lng: 13.42 }, address: { street: 'C', city: 'Berlin' } },
      ],
    });
  const merge = async (stopIds: string[]) => (await expectOk(tenant.admin.post('/api/hailing/bookings/merge', { stop_ids: stopIds }), 201)).tour;
  const start = async (tourId: string) => {
    const driver = await createUser(tenant.admin, { role: 'driver', organization_ids: [orgId] });
    await expectOk(tenant.admin.post(`/api/hailing/tours/${tourId}/force_assign`, { driver_id: driver.id, start: true }));
    return driver.client;
  };
  const failStop = async (driver: Parameters<typeof driveStop>[0], stopId: string) => {
    await driveStop(driver, stopId, 'arrived');
    await expectOk(driver.post(`/api/stops/${stopId}/fail`, { outcome: 'skip_recovery', reason_key: 'customer_absent' }));
  };
  const tipDistribution = async (bookingId: string) => (await expectOk(tenant.admin.get(`/api/hailing/bookings/${bookingId}`))).booking.tip_distribution;
  const tips = async (tourId: string) => (await expectOk(tenant.admin.get(`/api/tours/${tourId}/compensation`))).compensation.breakdown.tips.amount;

  it('leaves no booking pending and no tip short when a re-evaluation read the drop-offs before the last one completed', async () => {
    // Booking `split` was dropped off on two tours: its first drop-off failed on `first` (completed), its second is
    // the last stop of `last`, which also carries `single`. Resuming `first` evaluates `split` again and locks only
    // `first`'s compensation row; the completion of `last` evaluates both bookings and locks only `last`'s.
    const worker = createWorker(t.deps);
    const split = await twoDropoffs(360);
    const single = await createBooking(tenant.admin, { service_id: serviceId, managing_organization_ids: [orgId], tip: { amount: 300, currency: 'EUR' }, packages: [] });
    const [pickup, firstDropoff, lastDropoff] = split.stops;
    const first = await merge([pickup.id, firstDropoff.id]);
    const last = await merge([...single.stops.map((s: { id: string }) => s.id), lastDropoff.id]);
    const firstDriver = await start(first.id);
    await driveStop(firstDriver, pickup.id, 'completed');
    await failStop(firstDriver, firstDropoff.id);
    const lastDriver = await start(last.id);
    for (const stop of single.stops) await driveStop(lastDriver, stop.id, 'completed');
    await driveStop(lastDriver, lastDropoff.id, 'arrived');
    await worker.drain();
    expect(await tipDistribution(split.id)).toEqual({ tour_id: null, status: 'pending', reason: 'dropoffs_unresolved' });

    // Another session holds `first`'s compensation row: the resume reads the facts and then waits for it. Meanwhile
    // the last drop-off completes and the worker evaluates the completed tour. The resume must not commit what it
    // read before the drop-off completed over what the worker wrote after.
    const holder = await t.deps.database.pool!.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT tour_id FROM tour_compensations WHERE tenant_id = $1 AND tour_id = $2 FOR UPDATE', [tenant.tenantId, first.id]);
      const resume = tenant.admin.post(`/api/tours/${first.id}/compensation/tips/resume`);
      await waitUntilSomeoneWaitsForALock(t.deps.database.pool!, 1);
      await expectOk(lastDriver.post(`/api/stops/${lastDropoff.id}/complete`, {}));
      expect((await expectOk(tenant.admin.get(`/api/hailing/tours/${last.id}`))).tour.status).toBe('completed');
      const distribution = worker.drain();
      await waitUntilSettledOrWaitingForALock(t.deps.database.pool!, distribution, 2);
      await holder.query('COMMIT');
      expect((await resume).status).toBe(200);
      await distribution;
    } finally {
      holder.release();
    }

    // No booking stays pending on the completed tour, and a later tip change, which sums `last`'s stored outcomes,
    // counts both bookings.
    expect.soft(await tipDistribution(split.id)).toEqual({ tour_id: last.id, status: 'awarded', reason: 'completed_dropoffs_on_tour' });
    await expectOk(tenant.admin.put(`/api/hailing/bookings/${single.id}/tip`, { tip: { amount: 330, currency: 'EUR' } }));
    await worker.drain();
    expect(await tips(last.id)).toBe(690);
    expect(await tipDistribution(single.id)).toEqual({ tour_id: last.id, status: 'awarded', reason: 'completed_dropoffs_on_tour' });
    expect(await tips(first.id)).toBe(0);
  });

  it('evaluates two tours sharing bookings from every path at once without a deadlock', async () => {
    // `toQ` was dropped off on P (failed) and Q (completed), `toP` the other way round: evaluating either tour
    // evaluates both bookings and locks both tours. Resumes of P and of Q, the jobs of two tip changes on two
    // workers (a job each), and bonus writes on P and Q all queue behind a session holding both rows, then run at once.
    const toQ = await twoDropoffs(200);
    const toP = await twoDropoffs(300);
    const p = await merge([toQ.stops[0].id, toQ.stops[1].id, toP.stops[0].id, toP.stops[2].id]);
    const q = await merge([toQ.stops[2].id, toP.stops[1].id]);
    const pDriver = await start(p.id);
    await driveStop(pDriver, toQ.stops[0].id, 'completed');
    await failStop(pDriver, toQ.stops[1].id);
    await driveStop(pDriver, toP.stops[0].id, 'completed');
    await driveStop(pDriver, toP.stops[2].id, 'completed');
    const qDriver = await start(q.id);
    await driveStop(qDriver, toQ.stops[2].id, 'completed');
    await failStop(qDriver, toP.stops[1].id);
    const workers = [createWorker(t.deps, { batchSize: 1 }), createWorker(t.deps, { batchSize: 1 })];
    await workers[0]!.drain();
    expect([await tips(p.id), await tips(q.id)]).toEqual([300, 200]);

    await expectOk(tenant.admin.put(`/api/hailing/bookings/${toQ.id}/tip`, { tip: { amount: 250, currency: 'EUR' } }));
    await expectOk(tenant.admin.put(`/api/hailing/bookings/${toP.id}/tip`, { tip: { amount: 350, currency: 'EUR' } }));
    const lostBefore = t.deps.database.lostRaces();
    const holder = await t.deps.database.pool!.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT tour_id FROM tour_compensations WHERE tenant_id = $1 AND tour_id = ANY($2::uuid[]) ORDER BY tour_id FOR UPDATE', [
        tenant.tenantId,
        [p.id, q.id],
      ]);
      const requests = Promise.all([
        tenant.admin.post(`/api/tours/${p.id}/compensation/tips/resume`),
        tenant.admin.post(`/api/tours/${q.id}/compensation/tips/resume`),
        tenant.admin.put(`/api/tours/${p.id}/compensation/bonus/night`, { amount: 40, currency: 'EUR' }),
        tenant.admin.put(`/api/tours/${q.id}/compensation/bonus/night`, { amount: 60, currency: 'EUR' }),
      ]);
      const drains = Promise.all(workers.map((w) => w.drain()));
      await waitUntilSomeoneWaitsForALock(t.deps.database.pool!, 6);
      await holder.query('COMMIT');
      expect((await requests).map((r) => r.status)).toEqual([200, 200, 200, 200]);
      await drains;
    } finally {
      holder.release();
    }
    // No transaction was rolled back by PostgreSQL to break a deadlock (and run again, decision 0007).
    expect(t.deps.database.lostRaces() - lostBefore).toBe(0);
    const [pay, qay] = [await expectOk(tenant.admin.get(`/api/tours/${p.id}/compensation`)), await expectOk(tenant.admin.get(`/api/tours/${q.id}/compensation`))];
    expect([pay.compensation.breakdown.tips.amount, qay.compensation.breakdown.tips.amount]).toEqual([350, 250]);
    expect([pay.compensation.total_amount, qay.compensation.total_amount]).toEqual([390, 310]);
  });

  it('loses no update when two writers set bonuses on one tour while it completes and its tips are distributed', async () => {
    const worker = createWorker(t.deps);
    for (let round = 0; round < 3; round++) {
      const booking = await createBooking(tenant.admin, { service_id: serviceId, managing_organization_ids: [orgId], tip: { amount: 300, currency: 'EUR' }, packages: [] });
      const driver = await createUser(tenant.admin, { role: 'driver', organization_ids: [orgId] });
      const tour = await tourEnRoute(tenant.admin, [booking.id], driver.id);
      await expectOk(tenant.admin.put(`/api/tours/${tour.id}/compensation/base`, { amount: 1000, currency: 'EUR' }));
      for (const stop of tour.stops) await driveStop(driver.client, stop.id, 'completed');
      expect((await expectOk(tenant.admin.get(`/api/hailing/tours/${tour.id}`))).tour.status).toBe('completed');

      // Another session holds the compensation row while both writers and the tip distribution read it; they must
      // queue on the row lock, each applying its change to what the one before wrote.
      const holder = await t.deps.database.pool!.connect();
      try {
        await holder.query('BEGIN');
        await holder.query('SELECT tour_id FROM tour_compensations WHERE tenant_id = $1 AND tour_id = $2 FOR UPDATE', [tenant.tenantId, tour.id]);
        const writes = Promise.all([
          tenant.admin.put(`/api/tours/${tour.id}/compensation/bonus/night`, { amount: 200, currency: 'EUR' }),
          tenant.admin.put(`/api/tours/${tour.id}/compensation/bonus/bulky`, { amount: 50, currency: 'EUR' }),
          worker.drain(),
        ]);
        await waitUntilSomeoneWaitsForALock(t.deps.database.pool!, 3);
        await holder.query('COMMIT');
        const [night, bulky] = await writes;
        expect([night.status, bulky.status]).toEqual([200, 200]);
      } finally {
        holder.release();
      }
      const { compensation } = await expectOk(tenant.admin.get(`/api/tours/${tour.id}/compensation`));
      expect(compensation.breakdown).toEqual({
        base_earnings: { amount: 1000, label: null },
        bonuses: [
          { key: 'bulky', amount: 50, label: null },
          { key: 'night', amount: 200, label: null },
        ],
        tips: { amount: 300 },
      });
      expect(compensation.total_amount).toBe(1550);
      const { history } = await expectOk(tenant.admin.get(`/api/tours/${tour.id}/compensation/history`));
      expect(history.map((h: { component: string }) => h.component).sort()).toEqual(['base', 'bonus', 'bonus', 'tips']);
    }
  });
});
