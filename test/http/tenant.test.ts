import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, OPERATOR_TOKEN, type TestApp } from '../app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

describe('GET/PATCH /api/admin/tenant', () => {
  it('shows the admin its tenant with enforce_sunsets off by default', async () => {
    const tenant = await t.createTenant({ name: 'Shown' });
    const res = await tenant.admin.get('/api/admin/tenant');
    expect(res.status).toBe(200);
    expect(res.body.tenant).toMatchObject({ id: tenant.tenantId, name: 'Shown', extensions: [], settings: { enforce_sunsets: false } });
  });

  it('changes only the fields given', async () => {
    const tenant = await t.createTenant({ name: 'Before' });
    const renamed = await tenant.admin.patch('/api/admin/tenant', { tenant: { name: 'After' } });
    expect(renamed.body.tenant).toMatchObject({ name: 'After', settings: { enforce_sunsets: false } });
    const enforced = await tenant.admin.patch('/api/admin/tenant', { tenant: { settings: { enforce_sunsets: true } } });
    expect(enforced.body.tenant).toMatchObject({ name: 'After', settings: { enforce_sunsets: true } });
  });

  it('refuses extensions from an admin with 422 naming the field', async () => {
    const tenant = await t.createTenant();
    const res = await tenant.admin.patch('/api/admin/tenant', { tenant: { extensions: ['busyness'] } });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([expect.objectContaining({ pointer: '/tenant/extensions', code: 'unknown_field' })]);
    expect((await tenant.admin.get('/api/admin/tenant')).body.tenant.extensions).toEqual([]);
  });
});

describe('PATCH /api/operator/tenants/{id}', () => {
  it('lets the operator change extensions and settings, effective on the tenant’s next request', async () => {
    const tenant = await t.createTenant();
    await tenant.admin.get('/api/admin/tenant'); // caches the actor
    const res = await t.client(OPERATOR_TOKEN).patch(`/api/operator/tenants/${tenant.tenantId}`, {
      tenant: { extensions: ['busyness'], settings: { enforce_sunsets: true } },
    });
    expect(res.status).toBe(200);
    expect(res.body.tenant).toMatchObject({ extensions: ['busyness'], settings: { enforce_sunsets: true } });
    expect((await tenant.admin.get('/api/admin/tenant')).body.tenant.extensions).toEqual(['busyness']);
  });

  it('refuses tenant tokens and wrong operator tokens, and answers 404 for an unknown tenant', async () => {
    const tenant = await t.createTenant();
    const url = `/api/operator/tenants/${tenant.tenantId}`;
    expect((await tenant.admin.patch(url, { tenant: { extensions: ['busyness'] } })).status).toBe(401);
    expect((await t.client('nope').patch(url, { tenant: { extensions: ['busyness'] } })).status).toBe(401);
    const unknown = await t.client(OPERATOR_TOKEN).patch('/api/operator/tenants/0190b6c8-0000-7000-8000-000000000000', { tenant: { name: 'X' } });
    expect(unknown.status).toBe(404);
    expect((await tenant.admin.get('/api/admin/tenant')).body.tenant.extensions).toEqual([]);
  });
});
