import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestTenant } from '../../../test/app.ts';
import { loadConfig } from '../../config.ts';
import { createUser, expectOk } from '../../../test/factories.ts';
import { PER_ACCOUNT_AND_SOURCE, PER_DEVICE } from './operations/sign-in-throttle.ts';

let t: TestApp;
const onTeardown: (() => Promise<void>)[] = [];
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  for (const teardown of onTeardown) await teardown();
  await t.close();
});

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

  // Issue 35, decision 1621: failures slow their own source, progressively; the owner elsewhere, or on a browser that
  // signed in before, is not slowed by them.
  const from = async (address: string, user: Record<string, unknown>, cookie?: string, on: TestApp = t) => {
    const res = await on.app.inject({
      method: 'POST',
      url: '/api/session',
      remoteAddress: address,
      headers: { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin', ...(cookie ? { cookie } : {}) },
      payload: JSON.stringify({ user }),
    });
    const setCookie = [res.headers['set-cookie'] ?? []].flat();
    return { status: res.statusCode, retryAfter: Number(res.headers['retry-after'] ?? 0), device: setCookie.find((c) => c.startsWith('tourbook_device='))?.split(';')[0] };
  };

  it('slows a guesser from one address progressively, and refuses it even the right password while it waits', async () => {
    const email = `slowed-${Date.now()}@example.com`;
    await createUser(tenant.admin, { role: 'manager', email, password: 'the real one' });
    const attacker = '203.0.113.7';
    for (let i = 0; i < PER_ACCOUNT_AND_SOURCE.free; i++) expect((await from(attacker, { email, password: `guess ${i}` })).status).toBe(401);
    const waits: number[] = [];
    for (let i = 0; i < 4; i++) {
      const blocked = await from(attacker, { email: email.toUpperCase(), password: 'the real one' });
      expect(blocked.status).toBe(429);
      waits.push(blocked.retryAfter);
      t.clock.advanceSeconds(blocked.retryAfter);
      expect((await from(attacker, { email, password: `late guess ${i}` })).status).toBe(401);
    }
    // Each further failure doubles the wait: a delay, never a lock.
    expect(waits).toEqual([1, 2, 4, 8]);
    const blocked = await from(attacker, { email, password: 'the real one' });
    expect(blocked.status).toBe(429);
    t.clock.advanceSeconds(blocked.retryAfter);
    expect((await from(attacker, { email, password: 'the real one' })).status).toBe(200);
  });

  it('lets the owner in from elsewhere while a stranger is slowed, and from a known browser even at the stranger’s address', async () => {
    // The failed-authentication budget per address as deployed (the test app's is unlimited): 60 (decision 0113).
    const deployed = await buildTestApp({ authFailureLimit: loadConfig({}).authFailureLimit });
    onTeardown.push(() => deployed.close());
    const here = await deployed.createTenant();
    const email = `owner-${Date.now()}@example.com`;
    await createUser(here.admin, { role: 'manager', email, password: 'owner secret' });
    const at = (address: string, user: Record<string, unknown>, cookie?: string) => from(address, user, cookie, deployed);
    const owner = '198.51.100.20';
    // The owner signed in once from this browser: it holds the device cookie.
    const first = await at(owner, { email, password: 'owner secret' });
    expect(first.status).toBe(200);
    expect(first.device).toMatch(/^tourbook_device=[^;]+$/);
    // A stranger behind a shared address fails 60 times: against the owner, and against everyone else.
    const stranger = '192.0.2.99';
    for (let i = 0; i < 20; i++) expect((await at(stranger, { email, password: `guess ${i}` })).status).not.toBe(200);
    for (let i = 0; i < 60; i++) await at(stranger, { email: `sprayed-${i}@example.com`, password: 'guess' });
    expect((await at(stranger, { email, password: 'owner secret' })).status).toBe(429);
    expect((await at(stranger, { email: 'anyone@example.com', password: 'x' })).status).toBe(429);
    // The owner elsewhere, without the cookie: not slowed by the stranger's failures.
    expect((await at(owner, { email, password: 'owner secret' })).status).toBe(200);
    // The owner's known browser behind the stranger's very address: gets through.
    const known = await at(stranger, { email, password: 'owner secret' }, first.device);
    expect(known.status).toBe(200);
    // A device cookie of someone else, or forged, is no way through.
    const forged = first.device!.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
    expect((await at(stranger, { email, password: 'owner secret' }, forged)).status).toBe(429);
  }, 120_000); // a second app and 80 sign-ins: slow on a busy machine, never a timing assertion

  it('gives a known browser its own budget: its failures slow it, and no one else', async () => {
    const email = `device-${Date.now()}@example.com`;
    await createUser(tenant.admin, { role: 'customer', email, password: 'device secret' });
    const { device } = await from('198.51.100.30', { email, password: 'device secret' });
    for (let i = 0; i < PER_DEVICE.free; i++) expect((await from('198.51.100.30', { email, password: `typo ${i}` }, device)).status).toBe(401);
    expect((await from('198.51.100.30', { email, password: 'device secret' }, device)).status).toBe(429);
    expect((await from('198.51.100.31', { email, password: 'device secret' })).status).toBe(200);
  });

  it('rejects malformed sign-in bodies with 422', async () => {
    const res = await signIn({ email: 'a@b.c' });
    expect(res.status).toBe(422);
    expect(res.body.errors[0].pointer).toBe('/user/password');
  });
});
