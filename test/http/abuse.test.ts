// Abuse resistance (issue 11, finding 6): auth before validation, 431 as problem+json, filters, stray bodies, metadata
// caps, failed-authentication throttling, token families, password hashing, RFC 6901 pointers, the environment.
import net from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { queryRows } from '../../src/db/sql.ts';
import { failureThrottle } from '../../src/http/rate-limit.ts';
import { hashParams, hashPassword, needsRehash, SCRYPT_DEFAULT, verifyPassword } from '../../src/shared/secrets.ts';
import { buildTestApp, clientOf, type Client, type TestApp, type TestTenant } from '../app.ts';
import { createPlace, createServiceArea, createUser, createWebhook, expectOk } from '../factories.ts';

let t: TestApp;
let tenant: TestTenant;
beforeAll(async () => {
  t = await buildTestApp();
  tenant = await t.createTenant();
});
afterAll(async () => t.close());

const json = { 'content-type': 'application/json' };

describe('operator routes', () => {
  it('answer 401 to an unauthenticated invalid body, before validating it', async () => {
    const created = await t.anonymous.post('/api/operator/tenants', {});
    expect(created.status).toBe(401);
    const wrong = await t.client('not-the-operator-token').post('/api/operator/tenants', { nonsense: true });
    expect(wrong.status).toBe(401);
    const patched = await t.anonymous.patch(`/api/operator/tenants/${tenant.tenantId}`, { tenant: { bogus: 1 } });
    expect(patched.status).toBe(401);
  });
});

describe('431 header fields too large', () => {
  it('is answered as problem+json by the HTTP server', async () => {
    const app = await buildApp(t.deps);
    await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const { port } = app.server.address() as net.AddressInfo;
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = net.connect(port, '127.0.0.1', () => {
          socket.write(`GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
        });
        let data = '';
        socket.on('data', (chunk) => (data += chunk.toString()));
        socket.on('end', () => resolve(data));
        socket.on('error', reject);
      });
      expect(answer).toMatch(/^HTTP\/1\.1 431 /);
      expect(answer).toMatch(/content-type: application\/problem\+json/i);
      const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));
      expect(body).toMatchObject({ status: 431, error_code: 'header_fields_too_large' });
    } finally {
      await app.close();
    }
  });
});

describe('webhook filters', () => {
  it("refuse other tenants' and unknown ids with 422 unknown_reference", async () => {
    const other = await t.createTenant();
    const foreignArea = await createServiceArea(other.admin);
    const manager = await createUser(tenant.admin, { role: 'manager' });
    for (const [filters, pointer] of [
      [{ service_area_id: foreignArea.id }, '/webhook/filters/service_area_id'],
      [{ service_area_id: '01900000-0000-7000-8000-000000000000' }, '/webhook/filters/service_area_id'],
      [{ customer_id: manager.id }, '/webhook/filters/customer_id'],
      [{ customer_id: '01900000-0000-7000-8000-000000000000' }, '/webhook/filters/customer_id'],
    ] as const) {
      const res = await tenant.admin.post('/api/admin/webhooks', { webhook: { url: 'https://example.com/h', events: ['*'], filters } });
      expect(res.status, JSON.stringify(filters)).toBe(422);
      expect(res.body.errors[0]).toMatchObject({ pointer, code: 'unknown_reference' });
    }
    const hook = await createWebhook(tenant.admin, 'https://example.com/h');
    const patched = await tenant.admin.patch(`/api/admin/webhooks/${hook.id}`, { webhook: { filters: { service_area_id: foreignArea.id } } });
    expect(patched.status).toBe(422);
  });

  it('accept own ids', async () => {
    const area = await createServiceArea(tenant.admin);
    const customer = await createUser(tenant.admin, { role: 'customer' });
    const res = await tenant.admin.post('/api/admin/webhooks', {
      webhook: { url: 'https://example.com/h', events: ['*'], filters: { service_area_id: area.id, customer_id: customer.id } },
    });
    expect(res.status).toBe(201);
  });
});

describe('routes that take no body', () => {
  it('refuse a stray body or null on DELETE, and accept none, {} and an empty JSON body', async () => {
    const stray = await tenant.admin.request('DELETE', `/api/places/${(await createPlace(tenant.admin)).id}`, { force: true });
    expect(stray.status).toBe(422);
    expect(stray.body.errors[0]).toMatchObject({ pointer: '/force', code: 'unknown_field' });
    const nul = await tenant.admin.request('DELETE', `/api/places/${(await createPlace(tenant.admin)).id}`, undefined, { raw: 'null', headers: json });
    expect(nul.status).toBe(422);
    const array = await tenant.admin.request('DELETE', `/api/places/${(await createPlace(tenant.admin)).id}`, []);
    expect(array.status).toBe(422);
    expect((await tenant.admin.delete(`/api/places/${(await createPlace(tenant.admin)).id}`)).status).toBe(204);
    expect((await tenant.admin.request('DELETE', `/api/places/${(await createPlace(tenant.admin)).id}`, {})).status).toBe(204);
    expect((await tenant.admin.request('DELETE', `/api/places/${(await createPlace(tenant.admin)).id}`, undefined, { raw: '', headers: json })).status).toBe(204);
  });

  it('refuse null on a bodiless action and accept none, {} and an empty JSON body', async () => {
    const place = await createPlace(tenant.admin);
    const fork = (body: unknown, options = {}) => tenant.admin.post(`/api/places/${place.id}/fork`, body, options);
    expect((await fork(undefined, { raw: 'null', headers: json })).status).toBe(422);
    expect((await fork({ copy: 1 })).status).toBe(422);
    expect((await fork(undefined)).status).toBe(201);
    expect((await fork({})).status).toBe(201);
    expect((await fork(undefined, { raw: '', headers: json })).status).toBe(201);
  });
});

describe('place metadata', () => {
  it('is capped at 50 keys and 16 KiB serialized', async () => {
    const place = await createPlace(tenant.admin);
    const keys = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i]));
    const tooMany = await tenant.admin.put(`/api/places/${place.id}/metadata`, { metadata: keys });
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.errors[0]).toMatchObject({ pointer: '/metadata', code: 'too_many' });
    const tooBig = await tenant.admin.put(`/api/places/${place.id}/metadata`, { metadata: { blob: 'x'.repeat(16 * 1024) } });
    expect(tooBig.status).toBe(422);
    expect(tooBig.body.errors[0]).toMatchObject({ pointer: '/metadata', code: 'too_large' });
    const huge = await tenant.admin.put(`/api/places/${place.id}/metadata`, { metadata: { blob: 'x'.repeat(1000 * 1000) } });
    expect(huge.status).toBe(422);
    const fits = await tenant.admin.put(`/api/places/${place.id}/metadata`, { metadata: { ...Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, i])), blob: undefined } });
    expect(fits.status).toBe(200);
    const created = await tenant.admin.post('/api/places', {
      place: { name: 'P', location: { lat: 1, lng: 2 }, address: { street: 's', city: 'c' }, metadata: { blob: 'x'.repeat(17 * 1024) } },
    });
    expect(created.status).toBe(422);
  });
});

/** A second app on the same database whose failed-authentication budget is 3, refilled at 1 per second. */
async function strictApp(): Promise<{ client: (token: string | null) => Client; close: () => Promise<void> }> {
  const app = await buildApp({ ...t.deps, config: { ...t.config, authFailureLimit: { perSecond: 1, burst: 3 } } });
  await app.ready();
  const client = (token: string | null) =>
    clientOf(token, async (method, url, body, options = {}) => {
      const headers: Record<string, string> = { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body !== undefined ? json : {}), ...(options.headers ?? {}) };
      const res = await app.inject({ method: method as 'GET', url, headers, ...(body !== undefined ? { payload: JSON.stringify(body) } : {}) });
      return { status: res.statusCode, body: res.body ? JSON.parse(res.body) : undefined, text: res.body, headers: res.headers as Record<string, string> };
    });
  return { client, close: () => app.close() };
}

describe('failed authentication per client address', () => {
  it('turns invalid tokens into 429 after the budget, while valid tokens keep working, and refills with time', async () => {
    const strict = await strictApp();
    try {
      const bad = strict.client('tb_invalidinvalidinvalidinvalid00');
      for (let i = 0; i < 3; i++) expect((await bad.get('/api/places')).status).toBe(401);
      const limited = await bad.get('/api/places');
      expect(limited.status).toBe(429);
      expect(limited.headers['retry-after']).toBe('1');
      expect((await strict.client(tenant.adminToken).get('/api/places')).status).toBe(200);
      t.clock.advance(2_000);
      expect((await bad.get('/api/places')).status).toBe(401);
    } finally {
      await strict.close();
    }
  });

  // Issue 35's probe: ten wrong passwords for an e-mail from anywhere made the right one answer 429 for 90 s.
  it('lets the owner sign in from another address after ten wrong passwords for the e-mail from one address', async () => {
    const email = `probe-owner-${Date.now()}@example.com`;
    await createUser(tenant.admin, { role: 'manager', email, password: 'owner password' });
    const signIn = (remoteAddress: string, password: string) =>
      t.app.inject({ method: 'POST', url: '/api/signin', remoteAddress, headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ user: { email, password } }) });
    // The guesser is slowed (401 until its free tries are used, then 429 while it waits) …
    const answers: number[] = [];
    for (let i = 0; i < 10; i++) answers.push((await signIn('192.0.2.66', `wrong ${i}`)).statusCode);
    expect(answers).toEqual([401, 401, 401, 401, 401, 429, 429, 429, 429, 429]);
    expect((await signIn('192.0.2.66', 'owner password')).statusCode).toBe(429);
    // … and the owner elsewhere is not.
    expect((await signIn('198.51.100.66', 'owner password')).statusCode).toBe(200);
  });

  it('throttles sign-in per address across different e-mails', async () => {
    const strict = await strictApp();
    try {
      const signIn = (email: string) => strict.client(null).post('/api/signin', { user: { email, password: 'wrong' } });
      t.clock.advance(60_000);
      for (let i = 0; i < 3; i++) expect((await signIn(`spray${i}@example.com`)).status).toBe(401);
      const limited = await signIn('spray-next@example.com');
      expect(limited.status).toBe(429);
      expect(limited.body.error_code).toBe('rate_limited');
    } finally {
      t.clock.advance(60_000);
      await strict.close();
    }
  });

  it('keeps a lockout while other keys are sprayed (LRU eviction, not a wipe)', () => {
    const throttle = failureThrottle(() => ({ perSecond: 0.001, burst: 1 }), 5);
    throttle.check('victim@example.com', 0, 'k').recordFailure();
    expect(() => throttle.check('victim@example.com', 1, 'k')).toThrow();
    for (let i = 0; i < 4; i++) throttle.check(`spray${i}`, 2, 'k').recordFailure();
    expect(() => throttle.check('victim@example.com', 3, 'k')).toThrow();
  });
});

describe('refresh-token reuse', () => {
  it('revokes the whole token family, the newest refresh and access tokens included', async () => {
    await createUser(tenant.admin, { role: 'driver', email: 'family@example.com', password: 'family secret' });
    const first = await expectOk(t.anonymous.post('/api/signin', { user: { email: 'family@example.com', password: 'family secret' } }));
    const second = await expectOk(t.anonymous.post('/api/refresh_token', { refresh_token: first.refresh_token }));
    expect((await t.client(second.access_token).get('/api/places')).status).toBe(200);
    // Another sign-in of the same user is another family and survives.
    const elsewhere = await expectOk(t.anonymous.post('/api/signin', { user: { email: 'family@example.com', password: 'family secret' } }));

    expect((await t.anonymous.post('/api/refresh_token', { refresh_token: first.refresh_token })).status).toBe(401);
    expect((await t.anonymous.post('/api/refresh_token', { refresh_token: second.refresh_token })).status).toBe(401);
    expect((await t.client(second.access_token).get('/api/places')).status).toBe(401);
    expect((await t.client(first.access_token).get('/api/places')).status).toBe(401);
    expect((await t.client(elsewhere.access_token).get('/api/places')).status).toBe(200);
    expect((await t.anonymous.post('/api/refresh_token', { refresh_token: elsewhere.refresh_token })).status).toBe(200);
  });
});

describe('password hashes', () => {
  it('default to OWASP scrypt parameters, stored with the hash', async () => {
    expect(SCRYPT_DEFAULT).toEqual({ logN: 17, r: 8, p: 1 });
    expect(loadConfig({}).passwordHash).toEqual(SCRYPT_DEFAULT);
    const hash = await hashPassword('pw', { logN: 11, r: 8, p: 1 });
    expect(hash).toMatch(/^scrypt\$ln=11,r=8,p=1\$/);
    expect(hashParams(hash)).toEqual({ logN: 11, r: 8, p: 1 });
    expect(await verifyPassword('pw', hash)).toBe(true);
    expect(await verifyPassword('wrong', hash)).toBe(false);
    expect(needsRehash(hash, SCRYPT_DEFAULT)).toBe(true);
    expect(hashParams('scrypt$ln=40,r=8,p=1$c2FsdA==$a2V5')).toBeNull();
  });

  it('verifies a legacy hash (N=16384, parameters not stored) and rewrites it with current parameters at sign-in', async () => {
    const user = await createUser(tenant.admin, { role: 'driver', email: 'legacy@example.com', password: 'placeholder' });
    const { scryptSync } = await import('node:crypto');
    const salt = Buffer.alloc(16, 3);
    const legacy = `scrypt$${salt.toString('base64')}$${scryptSync('legacy secret', salt, 64).toString('base64')}`;
    await t.deps.db.execute(sql`UPDATE users SET password_hash = ${legacy} WHERE id = ${user.id}`);
    await expectOk(t.anonymous.post('/api/signin', { user: { email: 'legacy@example.com', password: 'legacy secret' } }));
    const [row] = await queryRows<{ password_hash: string }>(t.deps.db, sql`SELECT password_hash FROM users WHERE id = ${user.id}`);
    expect(row!.password_hash).toMatch(/^scrypt\$ln=10,r=8,p=1\$/);
    await expectOk(t.anonymous.post('/api/signin', { user: { email: 'legacy@example.com', password: 'legacy secret' } }));
  });
});

describe('JSON pointers', () => {
  it('escape unknown field names per RFC 6901', async () => {
    const res = await tenant.admin.post('/api/places', { place: { name: 'P', location: { lat: 1, lng: 2 }, address: { street: 's', city: 'c' }, 'a/b~c': 1 } });
    expect(res.status).toBe(422);
    expect(res.body.errors[0]).toMatchObject({ pointer: '/place/a~1b~0c', code: 'unknown_field' });
  });
});

describe('the environment', () => {
  it.each([
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "loud"/],
    [{ HOST: 'not a host!' }, /HOST/],
    [{ PORT: '70000' }, /PORT/],
    [{ PORT: '80a' }, /PORT/],
    [{ OSRM_URL: 'ftp://osrm' }, /OSRM_URL/],
    [{ PUBLIC_URL: 'example.com' }, /PUBLIC_URL/],
    [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL/],
    [{ S3_ENDPOINT: 'https://s3.example.com' }, /S3_ACCESS_KEY_ID is required when S3_ENDPOINT is set/],
    [{ WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'yes' }, /WEBHOOKS_ALLOW_PRIVATE_TARGETS/],
    [{ REPORTS_MASTER_KEY: 'short' }, /REPORTS_MASTER_KEY must .*got 5 characters/],
    [{ ROLE: 'boss' }, /ROLE/],
  ])('refuses %o with a clear message', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('names every bad variable at once and accepts a valid environment', () => {
    expect(() => loadConfig({ LOG_LEVEL: 'loud', PORT: '-1' })).toThrow(/LOG_LEVEL[\s\S]*PORT|PORT[\s\S]*LOG_LEVEL/);
    const config = loadConfig({
      PORT: '8080',
      HOST: '::',
      LOG_LEVEL: 'warn',
      S3_ENDPOINT: 'https://s3.example.com',
      S3_ACCESS_KEY_ID: 'id',
      S3_SECRET_ACCESS_KEY: 'secret',
      REPORTS_MASTER_KEY: Buffer.alloc(32, 1).toString('base64'),
      WEBHOOKS_ALLOW_PRIVATE_TARGETS: '1',
      AUTH_FAILURES_PER_SECOND: '0.25',
    });
    expect(config).toMatchObject({ port: 8080, host: '::', logLevel: 'warn', webhooksAllowPrivateTargets: true, authFailureLimit: { perSecond: 0.25, burst: 60 } });
    expect(config.s3).toMatchObject({ accessKeyId: 'id', secretAccessKey: 'secret', bucket: 'tourbook' });
  });
});
