// Overlapping shifts racing (PostgreSQL only: PGlite has one session and serializes everything).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestTenant } from '../../../test/app.ts';
import { createUser, expectOk } from '../../../test/factories.ts';
import { waitUntilSettledOrWaitingForALock } from '../../../test/locks.ts';

describe.skipIf(!process.env.TEST_DATABASE_URL)('shifts on PostgreSQL', () => {
  let t: TestApp;
  let tenant: TestTenant;
  beforeAll(async () => {
    t = await buildTestApp();
    tenant = await t.createTenant();
  });
  afterAll(async () => t?.close());

  const at = (hour: number) => `2026-12-01T${String(hour).padStart(2, '0')}:00:00.000Z`;

  it('never lets two overlapping shifts of one driver in, however the writes interleave', async () => {
    const driver = await createUser(tenant.admin, { role: 'driver' });
    // Another session adds a shift to the driver and holds the driver's shift lock while the request checks for overlaps.
    const other = await t.deps.database.pool!.connect();
    try {
      await other.query('BEGIN');
      await other.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`driver_shifts:${tenant.tenantId}:${driver.id}`]);
      await other.query(
        `INSERT INTO driver_shifts (tenant_id, id, driver_id, starts_at, ends_at, start_lat, start_lng, created_at, updated_at)
         VALUES ($1, gen_random_uuid(), $2, $3, $4, 52.5, 13.4, now(), now())`,
        [tenant.tenantId, driver.id, at(8), at(12)],
      );
      const adding = tenant.admin.post(`/api/drivers/${driver.id}/shifts`, { shift: { starts_at: at(10), ends_at: at(14), start_location: { lat: 52.5, lng: 13.4 } } });
      // Without the lock the request runs through here (and finds no shift yet).
      await waitUntilSettledOrWaitingForALock(t.deps.database.pool!, adding);
      await other.query('COMMIT');
      const res = await adding;
      expect(res.status, JSON.stringify(res.body)).toBe(422);
      expect(res.body.error_code).toBe('shift_overlap');
    } finally {
      other.release();
    }
    const list = await expectOk(tenant.admin.get(`/api/drivers/${driver.id}/shifts`));
    expect(list.shifts).toHaveLength(1);
  });

  it('lets exactly one of two concurrent overlapping shifts in', async () => {
    for (let round = 0; round < 5; round++) {
      const driver = await createUser(tenant.admin, { role: 'driver' });
      const body = (from: number, to: number) => ({ shift: { starts_at: at(from), ends_at: at(to), start_location: { lat: 52.5, lng: 13.4 } } });
      const results = await Promise.all([tenant.admin.post(`/api/drivers/${driver.id}/shifts`, body(8, 12)), tenant.admin.post(`/api/drivers/${driver.id}/shifts`, body(9, 13))]);
      expect(results.map((r) => r.status).sort()).toEqual([201, 422]);
    }
  });
});
