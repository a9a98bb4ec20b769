import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, OPERATOR_TOKEN, type TestApp } from '../../../test/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

describe('tenants', () => {
  it('creates a tenant over the operator API and returns a working admin token once', async () => {
    const res = await t.client(OPERATOR_TOKEN).post('/api/operator/tenants', { tenant: { name: 'Acme Logistics', extensions: ['busyness'] } });
    expect(res.status).toBe(201);
    expect(res.body.tenant).toMatchObject({ name: 'Acme Logistics', extensions: ['busyness'], settings: { enforce_sunsets: false } });
    expect(res.body.admin_token).toMatch(/^tb_[0-9A-Za-z]{32}$/);
    const me = await t.client(res.body.admin_token).get('/api/user');
    expect(me.status).toBe(200);
    expect(me.body.user).toMatchObject({ id: res.body.admin_user_id, role: 'admin' });
    expect(me.body.user).not.toHaveProperty('active_tour_id');
  });

  it('refuses the operator API without the operator token', async () => {
    const res = await t.client('wrong').post('/api/operator/tenants', { tenant: { name: 'X' } });
    expect(res.status).toBe(401);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(res.body).toMatchObject({ status: 401, error_code: 'unauthenticated' });
  });

  it('answers 401 unauthenticated without a credential, and carries x-request-id', async () => {
    const res = await t.anonymous.get('/api/user');
    expect(res.status).toBe(401);
    expect(res.body.error_code).toBe('unauthenticated');
    expect(res.headers['x-request-id']).toBeTruthy();
  });

  it('accepts the api-key header as well as Bearer', async () => {
    const tenant = await t.createTenant();
    const res = await t.anonymous.get('/api/user', { headers: { 'api-key': tenant.adminToken } });
    expect(res.status).toBe(200);
  });
});
