import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestTenant } from '../../../test/app.ts';
import { createUser, expectOk } from '../../../test/factories.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

describe('API keys', () => {
  let tenant: TestTenant;
  beforeAll(async () => {
    tenant = await t.createTenant();
  });

  it('returns the token once, lists the key without it, and the token authenticates as the user', async () => {
    const driver = await createUser(tenant.admin, { role: 'driver' });
    const res = await tenant.admin.post('/api/admin/api_keys', { api_key: { name: 'handheld', user_id: driver.id } });
    expect(res.status).toBe(201);
    expect(res.body.api_key).toMatchObject({ name: 'handheld', user_id: driver.id, revoked_at: null, token: expect.stringMatching(/^tb_[0-9A-Za-z]{32}$/) });
    expect(res.body.api_key.token.startsWith(res.body.api_key.token_prefix)).toBe(true);
    const me = await t.client(res.body.api_key.token).get('/api/user');
    expect(me.body.user.id).toBe(driver.id);
    const list = await expectOk(tenant.admin.get('/api/admin/api_keys'));
    const listed = list.api_keys.find((k: { id: string }) => k.id === res.body.api_key.id);
    expect(listed).toBeDefined();
    expect(listed).not.toHaveProperty('token');
    expect(JSON.stringify(list)).not.toContain(res.body.api_key.token);
  });

  it('revokes a key on DELETE with immediate effect', async () => {
    const customer = await createUser(tenant.admin, { role: 'customer' });
    expect((await customer.client.get('/api/user')).status).toBe(200);
    const key = (await expectOk(tenant.admin.get('/api/admin/api_keys'))).api_keys.find((k: { user_id: string }) => k.user_id === customer.id);
    const res = await tenant.admin.delete(`/api/admin/api_keys/${key.id}`);
    expect(res.status).toBe(200);
    expect(res.body.api_key.revoked_at).toBe(t.clock.now().toISOString());
    expect((await customer.client.get('/api/user')).status).toBe(401);
  });

  it('rejects keys for unknown or deactivated users, and non-admin callers', async () => {
    const unknown = await tenant.admin.post('/api/admin/api_keys', { api_key: { name: 'x', user_id: '01890000-0000-7000-8000-000000000000' } });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors[0]).toMatchObject({ pointer: '/api_key/user_id', code: 'unknown_reference' });
    const gone = await createUser(tenant.admin, { role: 'customer' });
    await expectOk(tenant.admin.delete(`/api/users/${gone.id}`));
    expect((await tenant.admin.post('/api/admin/api_keys', { api_key: { name: 'x', user_id: gone.id } })).status).toBe(422);
    const manager = await createUser(tenant.admin, { role: 'manager' });
    expect((await manager.client.get('/api/admin/api_keys')).status).toBe(403);
    expect((await manager.client.post('/api/admin/api_keys', { api_key: { name: 'x', user_id: manager.id } })).status).toBe(403);
  });

  it("answers 404 for another tenant's key", async () => {
    const other = await t.createTenant();
    const key = (await expectOk(tenant.admin.get('/api/admin/api_keys'))).api_keys[0];
    expect((await other.admin.delete(`/api/admin/api_keys/${key.id}`)).status).toBe(404);
    expect((await expectOk(other.admin.get('/api/admin/api_keys'))).api_keys.map((k: { id: string }) => k.id)).not.toContain(key.id);
  });
});

describe('sign-in and refresh tokens', () => {
  let tenant: TestTenant;
  beforeAll(async () => {
    tenant = await t.createTenant();
  });

  const signIn = (user: Record<string, unknown>) => t.anonymous.post('/api/signin', { user });

  it('signs in with e-mail and password and the access token works for an hour', async () => {
    const driver = await createUser(tenant.admin, { role: 'driver', email: 'sign.in@example.com', password: 'correct horse' });
    const res = await signIn({ email: 'Sign.In@example.com', password: 'correct horse' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      access_token: expect.any(String),
      refresh_token: expect.any(String),
      expires_in: 3600,
      token_type: 'bearer',
    });
    const me = await t.client(res.body.access_token).get('/api/user');
    expect(me.body.user.id).toBe(driver.id);
    t.clock.advanceSeconds(3599);
    expect((await t.client(res.body.access_token).get('/api/user')).status).toBe(200);
    t.clock.advanceSeconds(1);
    expect((await t.client(res.body.access_token).get('/api/user')).status).toBe(401);
  });

  it('answers the same 401 for a wrong password and an unknown e-mail', async () => {
    await createUser(tenant.admin, { role: 'customer', email: 'wrong.pw@example.com', password: 'right password' });
    const wrong = await signIn({ email: 'wrong.pw@example.com', password: 'not it' });
    const unknown = await signIn({ email: 'nobody@example.com', password: 'not it' });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body.error_code).toBe('unauthenticated');
    expect({ ...wrong.body, request_id: undefined }).toEqual({ ...unknown.body, request_id: undefined });
  });

  it('refuses sign-in of a deactivated user and of a user without a password', async () => {
    const gone = await createUser(tenant.admin, { role: 'customer', email: 'gone@example.com', password: 'password1' });
    await expectOk(tenant.admin.delete(`/api/users/${gone.id}`));
    expect((await signIn({ email: 'gone@example.com', password: 'password1' })).status).toBe(401);
    await createUser(tenant.admin, { role: 'customer', email: 'nopw@example.com' });
    expect((await signIn({ email: 'nopw@example.com', password: 'anything' })).status).toBe(401);
  });

  it('rotates refresh tokens: the old one is revoked, the new pair works until the old one is replayed', async () => {
    const user = await createUser(tenant.admin, { role: 'manager', email: 'rotate@example.com', password: 'rotate me please' });
    const first = await expectOk(signIn({ email: 'rotate@example.com', password: 'rotate me please' }));
    const second = await t.anonymous.post('/api/refresh_token', { refresh_token: first.refresh_token });
    expect(second.status).toBe(200);
    expect(second.body.refresh_token).not.toBe(first.refresh_token);
    expect((await t.client(second.body.access_token).get('/api/user')).body.user.id).toBe(user.id);
    const replay = await t.anonymous.post('/api/refresh_token', { refresh_token: first.refresh_token });
    expect(replay.status).toBe(401);
    // A replayed refresh token was copied: its whole family ends, the newer pair included (issue 11, decision 0113).
    expect((await t.anonymous.post('/api/refresh_token', { refresh_token: second.body.refresh_token })).status).toBe(401);
    expect((await t.client(second.body.access_token).get('/api/user')).status).toBe(401);
  });

  it('never accepts a refresh token as a bearer credential', async () => {
    await createUser(tenant.admin, { role: 'customer', email: 'bearer@example.com', password: 'bearer secret' });
    const pair = await expectOk(signIn({ email: 'bearer@example.com', password: 'bearer secret' }));
    expect((await t.client(pair.refresh_token).get('/api/user')).status).toBe(401);
  });

  it('expires refresh tokens after 30 days', async () => {
    await createUser(tenant.admin, { role: 'customer', email: 'expire@example.com', password: 'expire secret' });
    const pair = await expectOk(signIn({ email: 'expire@example.com', password: 'expire secret' }));
    t.clock.advanceSeconds(30 * 24 * 3600);
    expect((await t.anonymous.post('/api/refresh_token', { refresh_token: pair.refresh_token })).status).toBe(401);
  });

  it('asks for tenant_id when the e-mail and password match users of several tenants', async () => {
    const other = await t.createTenant();
    const email = 'two.tenants@example.com';
    const here = await createUser(tenant.admin, { role: 'customer', email, password: 'shared secret' });
    await createUser(other.admin, { role: 'customer', email, password: 'shared secret' });
    const ambiguous = await signIn({ email, password: 'shared secret' });
    expect(ambiguous.status).toBe(422);
    expect(ambiguous.body).toMatchObject({ error_code: 'tenant_required', tenant_ids: [tenant.tenantId, other.tenantId].sort() });
    expect(ambiguous.body.errors[0].pointer).toBe('/user/tenant_id');
    const chosen = await expectOk(signIn({ email, password: 'shared secret', tenant_id: tenant.tenantId }));
    expect((await t.client(chosen.access_token).get('/api/user')).body.user.id).toBe(here.id);
  });

  it('signs in without tenant_id when only one tenant’s user has that password', async () => {
    const other = await t.createTenant();
    const email = 'distinct@example.com';
    await createUser(tenant.admin, { role: 'customer', email, password: 'first secret' });
    const there = await createUser(other.admin, { role: 'customer', email, password: 'second secret' });
    const pair = await expectOk(signIn({ email, password: 'second secret' }));
    expect((await t.client(pair.access_token).get('/api/user')).body.user.id).toBe(there.id);
  });

  it('ends sign-in sessions when an admin sets a new password, keeping API keys', async () => {
    const user = await createUser(tenant.admin, { role: 'customer', email: 'new.pw@example.com', password: 'old password' });
    const pair = await expectOk(signIn({ email: 'new.pw@example.com', password: 'old password' }));
    await expectOk(tenant.admin.patch(`/api/users/${user.id}`, { user: { password: 'new password' } }));
    expect((await t.client(pair.access_token).get('/api/user')).status).toBe(401);
    expect((await t.anonymous.post('/api/refresh_token', { refresh_token: pair.refresh_token })).status).toBe(401);
    expect((await user.client.get('/api/user')).status).toBe(200);
    expect((await signIn({ email: 'new.pw@example.com', password: 'old password' })).status).toBe(401);
    expect((await signIn({ email: 'new.pw@example.com', password: 'new password' })).status).toBe(200);
  });

  it('throttles password guessing per e-mail: after 10 failures, 429 with Retry-After until the clock moves on', async () => {
    await createUser(tenant.admin, { role: 'customer', email: 'guess.me@example.com', password: 'the real one' });
    for (let i = 0; i < 10; i++) expect((await signIn({ email: 'guess.me@example.com', password: `guess ${i}` })).status).toBe(401);
    const blocked = await signIn({ email: 'GUESS.me@example.com', password: 'the real one' });
    expect(blocked.status).toBe(429);
    expect(blocked.body.error_code).toBe('rate_limited');
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect((await signIn({ email: 'someone.else@example.com', password: 'x' })).status).toBe(401);
    t.clock.advanceSeconds(90);
    expect((await signIn({ email: 'guess.me@example.com', password: 'the real one' })).status).toBe(200);
  });

  it('rejects malformed sign-in bodies with 422', async () => {
    const res = await signIn({ email: 'a@b.c' });
    expect(res.status).toBe(422);
    expect(res.body.errors[0].pointer).toBe('/user/password');
  });
});
