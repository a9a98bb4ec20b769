// Races only a real PostgreSQL shows (PGlite serializes everything): run with TEST_DATABASE_URL; skipped on PGlite.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestTenant } from '../../../test/app.ts';
import { createBooking, createOrganization, createService, createUser, driveStop, expectOk, tourEnRoute } from '../../../test/factories.ts';
import { waitUntilSomeoneWaitsForALock } from '../../../test/locks.ts';
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
