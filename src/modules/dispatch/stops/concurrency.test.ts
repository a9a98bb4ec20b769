// Races of the driver's stop steps that only a real PostgreSQL can show (PGlite has one session).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../test/app.ts';
import { createBooking, createService, createUser, mergeIntoTour, tourEnRoute } from '../../../../test/factories.ts';
import { waitUntilSomeoneWaitsForALock } from '../../../../test/locks.ts';

describe.skipIf(!process.env.TEST_DATABASE_URL)('the driver\'s stop steps on PostgreSQL', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => t?.close());

  it('answers 404 and changes nothing when the stop leaves the tour while the step waits for the tour\'s lock', async () => {
    const tenant = await t.createTenant();
    const service = await createService(tenant.admin);
    const driver = await createUser(tenant.admin, { role: 'driver' });
    const onTour = await createBooking(tenant.admin, { service_id: service.id });
    const other = await mergeIntoTour(tenant.admin, [(await createBooking(tenant.admin, { service_id: service.id })).id]);
    const tour = await tourEnRoute(tenant.admin, [onTour.id], driver.id);
    const stopId = (tour.stops as { id: string }[])[0]!.id;

    // Another session holds the driver's tour and moves the stop to another tour meanwhile. The step read the stop
    // (on the driver's tour) before it waited; after the lock it must find the stop among the tour's stops again.
    const pool = t.deps.database.pool!;
    const holder = await pool.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT id FROM tours WHERE tenant_id = $1 AND id = $2 FOR UPDATE', [tenant.tenantId, tour.id]);
      const step = driver.client.post(`/api/stops/${stopId}/approach`, {});
      await waitUntilSomeoneWaitsForALock(pool);
      await holder.query('UPDATE stops SET tour_id = $3 WHERE tenant_id = $1 AND id = $2', [tenant.tenantId, stopId, other.id]);
      await holder.query('COMMIT');
      expect((await step).status).toBe(404);
    } finally {
      holder.release();
    }
    const { rows } = await pool.query('SELECT status, tour_id FROM stops WHERE tenant_id = $1 AND id = $2', [tenant.tenantId, stopId]);
    expect(rows[0]).toEqual({ status: 'scheduled', tour_id: other.id });
  });
});
