// createAdminKey (`tourbook admin-key create`): a working admin key for the right tenant, or the reason there is none.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/app.ts';
import { createAdminKey } from './index.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

describe('admin-key create', () => {
  it('without tenants there is nothing to mint for; with one, it is meant; with several, the caller must choose', async () => {
    expect(await createAdminKey(t.deps, null)).toEqual({ ok: false, reason: 'no_tenant', tenants: [] });

    const first = await t.createTenant({ name: 'First' });
    const minted = await createAdminKey(t.deps, null);
    if (!minted.ok) throw new Error(`expected a key, got ${minted.reason}`);
    expect(minted).toMatchObject({ tenant_id: first.tenantId, user_id: first.adminUserId });
    const me = await t.client(minted.token).get('/api/user');
    expect(me.status).toBe(200);
    expect(me.body.user).toMatchObject({ id: first.adminUserId, role: 'admin' });

    const second = await t.createTenant({ name: 'Second' });
    const ambiguous = await createAdminKey(t.deps, null);
    expect(ambiguous).toEqual({
      ok: false,
      reason: 'several_tenants',
      tenants: [
        { id: first.tenantId, name: 'First' },
        { id: second.tenantId, name: 'Second' },
      ],
    });
    const chosen = await createAdminKey(t.deps, second.tenantId);
    expect(chosen).toMatchObject({ ok: true, tenant_id: second.tenantId, user_id: second.adminUserId });
  });

  it('an unknown tenant id is refused, naming the tenants there are', async () => {
    const result = await createAdminKey(t.deps, '01900000-0000-7000-8000-000000000000');
    expect(result).toMatchObject({ ok: false, reason: 'unknown_tenant' });
    expect(result.ok ? [] : result.tenants.length).toBeGreaterThan(0);
  });

  it('a tenant without an active admin gets no key', async () => {
    const tenant = await t.createTenant({ name: 'Orphaned' });
    // Set in SQL: an admin cannot deactivate itself, so over HTTP this state needs an admin who then left another way.
    await t.deps.db.execute(sql`UPDATE users SET deactivated_at = now() WHERE tenant_id = ${tenant.tenantId}`);
    expect(await createAdminKey(t.deps, tenant.tenantId)).toMatchObject({ ok: false, reason: 'no_active_admin' });
  });
});
