// Races that only a real PostgreSQL can show (PGlite has one session): run with TEST_DATABASE_URL set.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/app.ts';
import { createBooking, createService, createUser, expectOk, tourEnRoute } from '../../../test/factories.ts';
import { waitUntilSettledOrWaitingForALock, waitUntilSomeoneWaitsForALock } from '../../../test/locks.ts';

describe.skipIf(!process.env.TEST_DATABASE_URL)('concurrent positions on PostgreSQL', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => t?.close());

  /** A driver on an en-route tour, fix times relative to the clock (s seconds), and its position upload. */
  async function driverOnTour() {
    const tenant = await t.createTenant();
    const service = await createService(tenant.admin);
    const booking = await createBooking(tenant.admin, { service_id: service.id });
    const driver = await createUser(tenant.admin, { role: 'driver' });
    const tour = await tourEnRoute(tenant.admin, [booking.id], driver.id);
    const at = (s: number) => new Date(t.clock.now().getTime() + s * 1000).toISOString();
    const post = (lat: number, recordedAt: string) => driver.client.post(`/api/hailing/tours/${tour.id}/driver_location`, { location: { lat, lng: 13.4, recorded_at: recordedAt } });
    return { tenant, tour, driver, at, post };
  }

  // The second upload of a tour reads before it writes; later ones start from what the previous one wrote.
  it.each([['an upload that read the row', 1], ['an upload working from the previous upload\'s snapshot', 2]])('never lets an older fix replace a newer current position written by a concurrent upload (%s)', async (_, earlier) => {
    const { tenant, tour, at, post } = await driverOnTour();
    await expectOk(post(52.5, at(-20)));
    if (earlier > 1) await expectOk(post(52.5002, at(-18)));

    // Another upload (fix at -10 s) holds the tour's tracking row and commits only once ours (fix at -15 s) waits.
    // Ours read the row before; its write is guarded by the row's xmin (decision 0905), so it finds the row changed
    // and classifies again. Without the guard (or the transaction's lock) it would overwrite the newer position.
    const pool = t.deps.database.pool!;
    const other = await pool.connect();
    try {
      await other.query('BEGIN');
      await other.query('SELECT tour_id FROM tour_tracking WHERE tenant_id = $1 AND tour_id = $2 FOR UPDATE', [tenant.tenantId, tour.id]);
      const ours = post(52.5005, at(-15));
      await waitUntilSomeoneWaitsForALock(pool);
      await other.query('UPDATE tour_tracking SET lat = 52.501, recorded_at = $3 WHERE tenant_id = $1 AND tour_id = $2', [tenant.tenantId, tour.id, at(-10)]);
      await other.query('COMMIT');
      const res = await expectOk(ours);
      // Read after the other commit: ours is older than the current fix, so it is history only.
      expect(res.location.current).toBe(false);
    } finally {
      other.release();
    }
    const { rows } = await pool.query('SELECT lat FROM tour_tracking WHERE tenant_id = $1 AND tour_id = $2', [tenant.tenantId, tour.id]);
    expect(rows[0].lat).toBe(52.501);
  });

  it('judges a batch against the position committed while it waited for the tour\'s tracking row', async () => {
    const { tenant, tour, driver, at, post } = await driverOnTour();
    await expectOk(post(52.5, at(-20)));
    const batch = (locations: { lat: number; recorded_at: string }[]) =>
      expectOk(driver.client.post(`/api/hailing/tours/${tour.id}/driver_locations`, { locations: locations.map((l) => ({ ...l, lng: 13.4 })) }));

    // Another upload holds the tracking row and moves the position to a fix at -10 s once the batch waits for the row.
    // The batch reads the row only once it holds it (decision 1207): its fixes, older, are history. Read without the
    // lock, it would classify against the fix at -20 s and then overwrite the newer position.
    const pool = t.deps.database.pool!;
    const other = await pool.connect();
    let answer: { locations: { current: boolean }[] };
    try {
      await other.query('BEGIN');
      await other.query('SELECT tour_id FROM tour_tracking WHERE tenant_id = $1 AND tour_id = $2 FOR UPDATE', [tenant.tenantId, tour.id]);
      const ours = batch([{ lat: 52.5003, recorded_at: at(-16) }, { lat: 52.5005, recorded_at: at(-15) }]);
      await waitUntilSettledOrWaitingForALock(pool, ours);
      await other.query('UPDATE tour_tracking SET lat = 52.501, recorded_at = $3 WHERE tenant_id = $1 AND tour_id = $2', [tenant.tenantId, tour.id, at(-10)]);
      await other.query('COMMIT');
      answer = await ours;
    } finally {
      other.release();
    }
    expect(answer.locations.map((l) => l.current)).toEqual([false, false]);
    const { rows } = await pool.query('SELECT lat FROM tour_tracking WHERE tenant_id = $1 AND tour_id = $2', [tenant.tenantId, tour.id]);
    expect(rows[0].lat).toBe(52.501);
  });

  it('flags one of two identical uploads sent at once as a duplicate', async () => {
    const { tenant, tour, at, post } = await driverOnTour();
    await expectOk(post(52.5, at(-20)));

    // Both uploads read the tracking row while another session holds it, so both see no stored copy of the fix;
    // the xmin guard lets one write, and the other reads again and finds the first one's row.
    const pool = t.deps.database.pool!;
    const other = await pool.connect();
    let answers: { location: { filtered: string | null } }[];
    try {
      await other.query('BEGIN');
      await other.query('SELECT tour_id FROM tour_tracking WHERE tenant_id = $1 AND tour_id = $2 FOR UPDATE', [tenant.tenantId, tour.id]);
      const both = Promise.all([expectOk(post(52.5005, at(-10))), expectOk(post(52.5005, at(-10)))]);
      await waitUntilSomeoneWaitsForALock(pool, 2);
      await other.query('COMMIT');
      answers = await both;
    } finally {
      other.release();
    }
    expect(answers.map((a) => a.location.filtered).sort()).toEqual(['duplicate', null]);
  });
});
