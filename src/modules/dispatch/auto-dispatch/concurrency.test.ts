// Races of auto-dispatch that only a real PostgreSQL can show (PGlite has one session): run with TEST_DATABASE_URL
// set; on PGlite they are reported as skipped.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestTenant } from '../../../../test/app.ts';
import { createBooking, createService, createServiceArea, expectOk, mergeIntoTour } from '../../../../test/factories.ts';
import { waitUntilSettledOrWaitingForALock } from '../../../../test/locks.ts';
import { decideAutoDispatch } from './decide.ts';

describe.skipIf(!process.env.TEST_DATABASE_URL)('concurrent auto-dispatch on PostgreSQL', () => {
  let t: TestApp;
  let tenant: TestTenant;
  beforeAll(async () => {
    t = await buildTestApp();
    tenant = await t.createTenant();
  });
  afterAll(async () => t?.close());

  it('never overfills a tour: of two bookings decided at once for its last two places, one goes in, one waits (stop_limit)', async () => {
    const area = await createServiceArea(tenant.admin, { auto_dispatch: { enabled: true } });
    // Room for one more booking of two stops on the tour.
    const service = await createService(tenant.admin, { service_area_id: area.id, max_stops_per_tour: 4 });
    const tour = await mergeIntoTour(tenant.admin, [(await createBooking(tenant.admin, { service_id: service.id })).id]);
    await expectOk(tenant.admin.post(`/api/hailing/tours/${tour.id}/schedule`));
    const a = await createBooking(tenant.admin, { service_id: service.id });
    const b = await createBooking(tenant.admin, { service_id: service.id });
    // Another session holds the tour while both decisions search (without locks) and come to insert: each must then
    // wait for the tour, and the second must see the first's stops when it gets it.
    const holder = await t.deps.database.pool!.connect();
    let decisions: Awaited<ReturnType<typeof decideAutoDispatch>>[];
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT id FROM tours WHERE tenant_id = $1 AND id = $2 FOR UPDATE', [tenant.tenantId, tour.id]);
      const deciding = Promise.all([a, b].map((booking) => decideAutoDispatch(t.deps, tenant.tenantId, booking.id)));
      await waitUntilSettledOrWaitingForALock(t.deps.database.pool!, deciding, 2);
      await holder.query('COMMIT');
      decisions = await deciding;
    } finally {
      holder.release();
    }
    expect(decisions.map((d) => d?.status).sort()).toEqual(['dispatched', 'skipped']);
    expect(decisions.find((d) => d?.status === 'skipped')).toMatchObject({ reason: 'no_fit', constraint: 'stop_limit' });
    const after = (await expectOk(tenant.admin.get(`/api/hailing/tours/${tour.id}`))).tour;
    expect(after.stops).toHaveLength(4);
    expect(after.stops.map((s: { tour_position: number }) => s.tour_position)).toEqual([0, 1, 2, 3]);
  });
});
