import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, clientOf, type Client, type TestApp, type TestResponse, type TestTenant } from '../../../test/app.ts';
import { createUser, expectOk } from '../../../test/factories.ts';
import { openSse } from '../../../test/sse-client.ts';
import { loadConfig } from '../../config.ts';
import { invalidateCredentialCache } from '../../http/auth.ts';
import { sha256Hex } from '../../shared/secrets.ts';
import * as repo from './repository.ts';
import { PER_ACCOUNT_AND_SOURCE } from './operations/sign-in-throttle.ts';

let t: TestApp;
let tenant: TestTenant;
beforeAll(async () => {
  t = await buildTestApp({ live: { ...loadConfig({}).live, stream: { pollMs: 25, heartbeatMs: 200, revalidateMs: 100 } } });
  tenant = await t.createTenant();
});
afterAll(async () => t.close());

const PASSWORD = 'correct horse battery';
const THIRTY_DAYS = 30 * 24 * 3600;
let n = 0;

/** A user who signs in with a password (an admin unless told otherwise), and its API-key client. */
const person = (role: 'admin' | 'manager' | 'driver' | 'customer' = 'admin', on: TestTenant = tenant) =>
  createUser(on.admin, { role, email: `browser-${++n}-${Date.now()}@example.com`, password: PASSWORD });

const startSession = (app: TestApp, user: Record<string, unknown>, headers: Record<string, string> = { 'sec-fetch-site': 'same-origin' }) =>
  app.anonymous.post('/api/session', { user }, { headers });

/** The session's Set-Cookie header: exactly one; a sign-in sets the device cookie beside it (decision 1621). */
const setCookieOf = (res: TestResponse): string => {
  const header = res.headers['set-cookie'];
  const all = [header ?? []].flat();
  const session = all.filter((h) => h.startsWith('tourbook_session='));
  expect(session, 'exactly one session Set-Cookie header').toHaveLength(1);
  expect(all.filter((h) => !h.startsWith('tourbook_session=') && !h.startsWith('tourbook_device=')), 'no other cookie').toEqual([]);
  return session[0]!;
};
const tokenOf = (res: TestResponse): string => /^tourbook_session=([^;]*)/.exec(setCookieOf(res))?.[1] ?? '';
const attributesOf = (res: TestResponse): string[] => setCookieOf(res).split('; ').slice(1).sort();

/** A browser on our own pages: the session cookie, and the `Sec-Fetch-Site` every current browser sends (unless given). */
const browser = (token: string, headers: Record<string, string> = { 'sec-fetch-site': 'same-origin' }, app: TestApp = t): Client =>
  clientOf(null, (method, url, body, options = {}) =>
    app.anonymous.request(method, url, body, { ...options, headers: { cookie: `theme=dark; tourbook_session=${token}`, ...headers, ...(options.headers ?? {}) } }),
  );

async function signedIn(role: Parameters<typeof person>[0] = 'admin') {
  const user = await person(role);
  const res = await startSession(t, { email: user.user.email, password: PASSWORD });
  expect(res.status).toBe(200);
  return { user, res, token: tokenOf(res) };
}

const organizationNames = async (client: Client): Promise<string[]> =>
  (await expectOk(client.get('/api/organizations?limit=100'))).organizations.map((o: { name: string }) => o.name);

describe('POST /api/session', () => {
  it('sets an HttpOnly, SameSite=Strict session cookie for 30 days and answers the session and the user, never the token', async () => {
    const { user, res, token } = await signedIn('manager');
    expect(token).toMatch(/^tbs_[0-9A-Za-z]{40}$/);
    expect(attributesOf(res)).toEqual(['HttpOnly', `Max-Age=${THIRTY_DAYS}`, 'Path=/', 'SameSite=Strict']);
    const me = await expectOk(user.client.get('/api/user'));
    expect(res.body).toEqual({ session: { expires_at: new Date(t.clock.now().getTime() + THIRTY_DAYS * 1000).toISOString() }, user: me.user });
    expect(res.text).not.toContain(token);
  });

  it('answers like POST /api/signin for a wrong password (401) and for an e-mail of several tenants (422 tenant_required)', async () => {
    const user = await person('customer');
    const wrong = await startSession(t, { email: user.user.email, password: 'not the password' });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error_code).toBe('unauthenticated');
    expect(wrong.headers['set-cookie']).toBeUndefined();

    const other = await t.createTenant();
    const email = `both-${Date.now()}@example.com`;
    const here = await createUser(tenant.admin, { role: 'customer', email, password: PASSWORD });
    await createUser(other.admin, { role: 'customer', email, password: PASSWORD });
    const ambiguous = await startSession(t, { email, password: PASSWORD });
    expect(ambiguous.status).toBe(422);
    expect(ambiguous.body).toMatchObject({ error_code: 'tenant_required', tenant_ids: [tenant.tenantId, other.tenantId].sort() });
    expect(ambiguous.body.errors[0].pointer).toBe('/user/tenant_id');
    const chosen = await startSession(t, { email, password: PASSWORD, tenant_id: tenant.tenantId });
    expect(chosen.body.user.id).toBe(here.id);
  });

  it('shares the throttle of an account from one address with POST /api/signin (decision 1621)', async () => {
    const user = await person('customer');
    for (let i = 0; i < PER_ACCOUNT_AND_SOURCE.free; i++) expect((await t.anonymous.post('/api/signin', { user: { email: user.user.email, password: `guess ${i}` } })).status).toBe(401);
    const blocked = await startSession(t, { email: user.user.email, password: PASSWORD });
    expect(blocked.status).toBe(429);
    expect(blocked.body.error_code).toBe('rate_limited');
    t.clock.advanceSeconds(Number(blocked.headers['retry-after']));
    expect((await startSession(t, { email: user.user.email, password: PASSWORD })).status).toBe(200);
  });

  it('refuses a sign-in a browser says comes from another site (login CSRF), and takes one from a client without browser headers', async () => {
    const user = await person('customer');
    const body = { email: user.user.email, password: PASSWORD };
    const crossSite = await startSession(t, body, { 'sec-fetch-site': 'cross-site' });
    expect(crossSite.status).toBe(403);
    expect(crossSite.body.error_code).toBe('cross_site_request');
    expect(crossSite.headers['set-cookie']).toBeUndefined();
    expect((await startSession(t, body, { origin: 'https://evil.example' })).status).toBe(403);
    expect((await startSession(t, body, {})).status).toBe(200);
  });

  it('rejects a malformed body with 422 and its pointer', async () => {
    const res = await startSession(t, { email: 'a@b.c' });
    expect(res.status).toBe(422);
    expect(res.body.errors[0].pointer).toBe('/user/password');
  });
});

describe('the session cookie', () => {
  it('authenticates GET /api/user on its own, with an answer shared caches keep to themselves', async () => {
    const { user, token } = await signedIn('driver');
    const me = await browser(token, {}).get('/api/user');
    expect(me.status).toBe(200);
    expect(me.body.user.id).toBe(user.id);
    expect(me.headers).toMatchObject({ 'cache-control': 'private', vary: 'Cookie' });
    const bearer = await user.client.get('/api/user');
    expect(bearer.headers['cache-control']).toBeUndefined();
    expect(bearer.headers.vary).toBeUndefined();
  });

  it('refuses a write with Sec-Fetch-Site: cross-site (403 cross_site_request, localized) and writes nothing', async () => {
    const { user, token } = await signedIn();
    const res = await browser(token, { 'sec-fetch-site': 'cross-site', 'accept-language': 'de' }).post('/api/organizations', { organization: { name: 'Planted by evil.example' } });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ status: 403, error_code: 'cross_site_request', title: 'Cross-site request', type: 'https://tourbook.dev/errors/cross_site_request' });
    expect(res.body.detail).toMatch(/Sitzungs-Cookie/);
    expect(await organizationNames(user.client)).not.toContain('Planted by evil.example');
    const sameSite = await browser(token, { 'sec-fetch-site': 'same-site' }).post('/api/organizations', { organization: { name: 'From a sibling host' } });
    expect(sameSite.status).toBe(403);
  });

  it('refuses a write with a foreign Origin and no Sec-Fetch-Site, and one with neither header', async () => {
    const { user, token } = await signedIn();
    const evil = await browser(token, { origin: 'https://evil.example' }).post('/api/organizations', { organization: { name: 'Evil origin' } });
    expect(evil.status).toBe(403);
    expect(evil.body.error_code).toBe('cross_site_request');
    const bare = await browser(token, {}).post('/api/organizations', { organization: { name: 'No browser headers' } });
    expect(bare.status).toBe(403);
    const opaque = await browser(token, { origin: 'null' }).post('/api/organizations', { organization: { name: 'Opaque origin' } });
    expect(opaque.status).toBe(403);
    expect(await organizationNames(user.client)).not.toEqual(expect.arrayContaining(['Evil origin']));
    expect(await organizationNames(user.client)).not.toEqual(expect.arrayContaining(['No browser headers']));
  });

  it('accepts a write with Sec-Fetch-Site: same-origin, or with the request’s own Origin', async () => {
    const { user, token } = await signedIn();
    const viaFetchSite = await browser(token).post('/api/organizations', { organization: { name: 'Same origin (fetch metadata)' } });
    expect(viaFetchSite.status).toBe(201);
    // fastify.inject addresses the app as http://localhost:80, the default port of http.
    const viaOrigin = await browser(token, { origin: 'http://localhost' }).post('/api/organizations', { organization: { name: 'Same origin (Origin)' } });
    expect(viaOrigin.status).toBe(201);
    expect(await organizationNames(user.client)).toEqual(expect.arrayContaining(['Same origin (fetch metadata)', 'Same origin (Origin)']));
  });

  it('leaves Bearer tokens as they were: header wins over the cookie, and no origin check applies to it', async () => {
    const { user, token } = await signedIn();
    const other = await person('customer');
    const headers = { authorization: `Bearer ${other.token}`, 'sec-fetch-site': 'cross-site' };
    const me = await browser(token, headers).get('/api/user');
    expect(me.body.user.id).toBe(other.id);
    const write = await user.client.post('/api/organizations', { organization: { name: 'Bearer from anywhere' } }, { headers: { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' } });
    expect(write.status).toBe(201);
  });

  it('keeps the kinds apart: a session token is no Bearer token and an API key is no session cookie', async () => {
    const { user, token } = await signedIn();
    expect((await t.client(token).get('/api/user')).status).toBe(401);
    expect((await browser(user.token).get('/api/user')).status).toBe(401);
  });

  it('expires 30 days after sign-in on the service clock', async () => {
    const { token } = await signedIn('driver');
    t.clock.advanceSeconds(THIRTY_DAYS - 1);
    expect((await browser(token).get('/api/user')).status).toBe(200);
    t.clock.advanceSeconds(1);
    expect((await browser(token).get('/api/user')).status).toBe(401);
  });

  it('opens the live stream with the cookie, directly or through a ticket', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const { token } = await signedIn('manager');
    const direct = await openSse(base, '/api/live', { cookie: `tourbook_session=${token}` });
    expect(direct.status).toBe(200);
    const ticket = (await expectOk(browser(token).post('/api/live/tickets', {}), 201)).ticket;
    const viaTicket = await openSse(base, ticket.url);
    expect(viaTicket.status).toBe(200);
    // The streams stand for the session: signing out closes them (the stream re-checks its credential).
    await expectOk(browser(token).delete('/api/session'), 204);
    await Promise.all([direct.ended, viaTicket.ended]);
  });
});

describe('DELETE /api/session', () => {
  it('revokes the session at once, clears the cookie and answers 204', async () => {
    const { token } = await signedIn('driver');
    const me = browser(token);
    expect((await me.get('/api/user')).status).toBe(200); // now in this process's credential cache
    const res = await me.delete('/api/session');
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(setCookieOf(res)).toBe('tourbook_session=; Max-Age=0; Path=/; HttpOnly; SameSite=Strict');
    expect((await me.get('/api/user')).status).toBe(401);
    expect((await me.delete('/api/session')).status).toBe(204);
  });

  it('answers 204 and clears the cookie without one (signing out is idempotent)', async () => {
    const res = await t.anonymous.delete('/api/session');
    expect(res.status).toBe(204);
    expect(setCookieOf(res)).toBe('tourbook_session=; Max-Age=0; Path=/; HttpOnly; SameSite=Strict');
    expect((await browser('tbs_unknown').delete('/api/session')).status).toBe(204);
  });

  it('refuses a cross-site sign-out, which leaves the session working', async () => {
    const { token } = await signedIn('customer');
    const res = await browser(token, { 'sec-fetch-site': 'cross-site' }).delete('/api/session');
    expect(res.status).toBe(403);
    expect(res.body.error_code).toBe('cross_site_request');
    expect((await browser(token).get('/api/user')).status).toBe(200);
  });

  it('ends only its own session: the same user’s other browser and its tokens stay', async () => {
    const { user, token } = await signedIn('manager');
    const second = tokenOf(await startSession(t, { email: user.user.email, password: PASSWORD }));
    const pair = await expectOk(t.anonymous.post('/api/signin', { user: { email: user.user.email, password: PASSWORD } }));
    await expectOk(browser(token).delete('/api/session'), 204);
    expect((await browser(second).get('/api/user')).status).toBe(200);
    expect((await t.client(pair.access_token).get('/api/user')).status).toBe(200);
  });
});

describe('revocation', () => {
  it('ends the session when its token family is revoked, as refresh-token reuse revokes a family', async () => {
    const { token } = await signedIn('driver');
    expect((await browser(token).get('/api/user')).status).toBe(200);
    const row = await repo.findSessionCredential(t.deps.db, sha256Hex(token));
    expect(row?.familyId).toEqual(expect.any(String));
    await t.deps.db.transaction((tx) => repo.revokeTokenFamily(tx, row!.tenantId, row!.familyId!, t.clock.now()));
    invalidateCredentialCache();
    expect((await browser(token).get('/api/user')).status).toBe(401);
  });

  it('ends the session when an admin sets a new password or deactivates the user', async () => {
    const renamed = await signedIn('manager');
    expect((await browser(renamed.token).get('/api/user')).status).toBe(200);
    await expectOk(tenant.admin.patch(`/api/users/${renamed.user.id}`, { user: { password: 'another good password' } }));
    expect((await browser(renamed.token).get('/api/user')).status).toBe(401);
    const gone = await signedIn('customer');
    expect((await browser(gone.token).get('/api/user')).status).toBe(200);
    await expectOk(tenant.admin.delete(`/api/users/${gone.user.id}`));
    expect((await browser(gone.token).get('/api/user')).status).toBe(401);
    expect((await repo.findSessionCredential(t.deps.db, sha256Hex(gone.token)))?.revokedAt).toEqual(t.clock.now());
  });
});

describe('over HTTPS', () => {
  let secure: TestApp;
  let dir: string;
  beforeAll(async () => {
    secure = await buildTestApp({ publicUrl: 'https://console.example' });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tourbook-tls-'));
  });
  afterAll(async () => {
    fs.rmSync(dir, { recursive: true, force: true });
    await secure.close();
  });

  it('marks the cookie Secure when the request itself came over TLS', async () => {
    // A throw-away self-signed certificate: the app answers behind Node's own TLS server, so request.protocol is https.
    const key = path.join(dir, 'key.pem');
    const cert = path.join(dir, 'cert.pem');
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-subj', '/CN=localhost', '-days', '1', '-keyout', key, '-out', cert], { stdio: 'ignore' });
    const server = https.createServer({ key: fs.readFileSync(key), cert: fs.readFileSync(cert) }, (req, res) => t.app.routing(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const user = await person('customer');
      const payload = JSON.stringify({ user: { email: user.user.email, password: PASSWORD } });
      const setCookie = await new Promise<string>((resolve, reject) => {
        const req = https.request(
          { host: '127.0.0.1', port: (server.address() as AddressInfo).port, path: '/api/session', method: 'POST', rejectUnauthorized: false, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } },
          (res) => {
            res.resume();
            res.on('end', () => (res.statusCode === 200 ? resolve(res.headers['set-cookie']!.find((c) => c.startsWith('tourbook_session='))!) : reject(new Error(`status ${res.statusCode}`))));
          },
        );
        req.on('error', reject);
        req.end(payload);
      });
      expect(setCookie.split('; ').slice(1).sort()).toEqual(['HttpOnly', `Max-Age=${THIRTY_DAYS}`, 'Path=/', 'SameSite=Strict', 'Secure']);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('marks the cookie Secure when PUBLIC_URL is https (TLS ends at a proxy) and accepts writes from that origin', async () => {
    const other = await secure.createTenant();
    const user = await person('admin', other);
    const res = await startSession(secure, { email: user.user.email, password: PASSWORD });
    expect(attributesOf(res)).toEqual(['HttpOnly', `Max-Age=${THIRTY_DAYS}`, 'Path=/', 'SameSite=Strict', 'Secure']);
    const cleared = await browser(tokenOf(res), { origin: 'https://console.example' }, secure).post('/api/organizations', { organization: { name: 'From the public origin' } });
    expect(cleared.status).toBe(201);
    const signedOut = await browser(tokenOf(res), { 'sec-fetch-site': 'same-origin' }, secure).delete('/api/session');
    expect(setCookieOf(signedOut)).toBe('tourbook_session=; Max-Age=0; Path=/; HttpOnly; Secure; SameSite=Strict');
  });
});
