// Races that only a real PostgreSQL can show (PGlite has one session): run with TEST_DATABASE_URL set; on PGlite
// they are reported as skipped. A session holds the report's row lock while two requests line up behind it.
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestTenant } from '../../../test/app.ts';
import { createUser, expectOk, type CreatedUser } from '../../../test/factories.ts';
import { reportBody } from './test-helpers.ts';

async function waitForLockWaiters(pool: pg.Pool, count: number): Promise<void> {
  for (let i = 0; i < 300; i++) {
    const { rows } = await pool.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'");
    if (rows[0]!.n >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`fewer than ${count} requests came to wait for the lock`);
}

describe.skipIf(!process.env.TEST_DATABASE_URL)('concurrent report writes on PostgreSQL', () => {
  let t: TestApp;
  let tenant: TestTenant;
  let users: CreatedUser[];
  beforeAll(async () => {
    t = await buildTestApp();
    tenant = await t.createTenant();
    users = [await createUser(tenant.admin, { role: 'customer' }), await createUser(tenant.admin, { role: 'customer' })];
  });
  afterAll(async () => t?.close());

  /** Runs `requests` while another session holds the report's row lock, releasing it once all of them wait. */
  async function behindLock<T>(reportId: string, requests: () => Promise<T>[]): Promise<T[]> {
    const holder = await t.deps.database.pool!.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT id FROM reports WHERE tenant_id = $1 AND id = $2 FOR UPDATE', [tenant.tenantId, reportId]);
      const running = requests();
      await waitForLockWaiters(t.deps.database.pool!, running.length);
      await holder.query('COMMIT');
      return await Promise.all(running);
    } finally {
      holder.release();
    }
  }

  it('lets exactly one of a completion and a failure of one pending report win; the other gets 409', async () => {
    for (let round = 0; round < 3; round++) {
      const id = (await expectOk(tenant.admin.post('/api/reports', reportBody()), 201)).report.id;
      const file = { name: 'a.txt', content_type: 'text/plain', content_base64: Buffer.from('a').toString('base64') };
      const [completed, failed] = await behindLock(id, () => [tenant.admin.post(`/api/reports/${id}/complete`, { file }), tenant.admin.post(`/api/reports/${id}/fail`, {})]);
      expect([completed!.status, failed!.status].sort()).toEqual([200, 409]);
      const final = (await expectOk(tenant.admin.get(`/api/reports/${id}`))).report.status;
      expect(final).toBe(completed!.status === 200 ? 'ready' : 'failed');
    }
  });

  it('revokes two grants at once without losing either removal', async () => {
    const grants = [{ type: 'all_admins' }, ...users.map((u) => ({ type: 'user', user_id: u.id }))];
    const id = (await expectOk(tenant.admin.post('/api/reports', reportBody({ grants })), 201)).report.id;
    // Both revoke index 1, which names a different grant for whichever runs second: a lost update would revoke the
    // same grant twice and leave the other. (Indexes 2 and 1 would depend on which request takes the lock first.)
    const results = await behindLock(id, () => [tenant.admin.delete(`/api/reports/${id}/grants/1`), tenant.admin.delete(`/api/reports/${id}/grants/1`)]);
    expect(results.map((r) => r.status)).toEqual([200, 200]);
    expect((await expectOk(tenant.admin.get(`/api/reports/${id}`))).report.grants).toEqual([{ type: 'all_admins' }]);
  });
});
