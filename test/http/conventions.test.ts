import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY_TTL_MS } from '../../src/http/idempotency.ts';
import { buildTestApp, type TestApp } from '../app.ts';
import { createBooking, createPlace, createService, createUser, expectOk } from '../factories.ts';
import { buildProbe, type Probe } from './probe.ts';

let t: TestApp;
let probe: Probe;
beforeAll(async () => {
  t = await buildTestApp();
  probe = await buildProbe(t);
});
afterAll(async () => {
  await probe.app.close();
  await t.close();
});

const key = (label: string) => `${label}-${Math.random().toString(36).slice(2)}`;

describe('Idempotency-Key', () => {
  it('replays a finished write with its stored status, body and headers without running it again', async () => {
    const tenant = await t.createTenant();
    const k = key('replay');
    const first = await probe.request('POST', '/api/probe/echo', tenant.adminToken, { a: 1 }, { 'idempotency-key': k });
    expect(first.status).toBe(201);
    const runs = probe.runs;
    const again = await probe.request('POST', '/api/probe/echo', tenant.adminToken, { a: 1 }, { 'idempotency-key': k });
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.location).toBe(first.headers.location);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(probe.runs).toBe(runs);
  });

  it('replays a PATCH of the tenant with the body of the first answer even after later changes', async () => {
    const tenant = await t.createTenant();
    const k = key('patch');
    const first = await tenant.admin.patch('/api/admin/tenant', { tenant: { name: 'First' } }, { headers: { 'idempotency-key': k } });
    expect(first.status).toBe(200);
    await tenant.admin.patch('/api/admin/tenant', { tenant: { name: 'Second' } });
    const replay = await tenant.admin.patch('/api/admin/tenant', { tenant: { name: 'First' } }, { headers: { 'idempotency-key': k } });
    expect(replay.body.tenant.name).toBe('First');
    expect((await tenant.admin.get('/api/admin/tenant')).body.tenant.name).toBe('Second');
  });

  it('answers 422 idempotency_key_reused when the same key comes with another body', async () => {
    const tenant = await t.createTenant();
    const k = key('reused');
    await tenant.admin.patch('/api/admin/tenant', { tenant: { name: 'A' } }, { headers: { 'idempotency-key': k } });
    const res = await tenant.admin.patch('/api/admin/tenant', { tenant: { name: 'B' } }, { headers: { 'idempotency-key': k } });
    expect(res.status).toBe(422);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(res.body.error_code).toBe('idempotency_key_reused');
    expect((await tenant.admin.get('/api/admin/tenant')).body.tenant.name).toBe('A');
  });

  it('answers 409 idempotency_key_in_use while the first request is still running, then replays it', async () => {
    const tenant = await t.createTenant();
    const k = key('inflight');
    const pending = probe.request('POST', '/api/probe/slow', tenant.adminToken, {}, { 'idempotency-key': k });
    await probe.slowEntered();
    const second = await probe.request('POST', '/api/probe/slow', tenant.adminToken, {}, { 'idempotency-key': k });
    expect(second.status).toBe(409);
    expect(second.body.error_code).toBe('idempotency_key_in_use');
    probe.release();
    const first = await pending;
    expect(first.status).toBe(201);
    const third = await probe.request('POST', '/api/probe/slow', tenant.adminToken, {}, { 'idempotency-key': k });
    expect(third.body).toEqual(first.body);
  });

  it('does not store a 5xx: the key is released and the request runs again', async () => {
    const tenant = await t.createTenant();
    const k = key('fail');
    const runs = probe.runs;
    const first = await probe.request('POST', '/api/probe/fail', tenant.adminToken, {}, { 'idempotency-key': k });
    expect(first.status).toBe(500);
    expect(first.body.detail).not.toContain('internals');
    const second = await probe.request('POST', '/api/probe/fail', tenant.adminToken, {}, { 'idempotency-key': k });
    expect(second.status).toBe(500);
    expect(probe.runs).toBe(runs + 2);
  });

  it('stores 4xx outcomes too: a failed validation replays as the same 422', async () => {
    const tenant = await t.createTenant();
    const k = key('invalid');
    const first = await tenant.admin.patch('/api/admin/tenant', { tenant: { name: '' } }, { headers: { 'idempotency-key': k } });
    expect(first.status).toBe(422);
    const again = await tenant.admin.patch('/api/admin/tenant', { tenant: { name: '' } }, { headers: { 'idempotency-key': k } });
    expect(again.status).toBe(422);
    expect(again.headers['idempotent-replayed']).toBe('true');
  });

  it('keeps keys 24 hours by the clock, then treats the key as new', async () => {
    const tenant = await t.createTenant();
    const k = key('ttl');
    await probe.request('POST', '/api/probe/echo', tenant.adminToken, { x: 1 }, { 'idempotency-key': k });
    const runs = probe.runs;
    t.clock.advance(KEY_TTL_MS - 1000);
    await probe.request('POST', '/api/probe/echo', tenant.adminToken, { x: 1 }, { 'idempotency-key': k });
    expect(probe.runs).toBe(runs);
    t.clock.advance(2000);
    const fresh = await probe.request('POST', '/api/probe/echo', tenant.adminToken, { x: 2 }, { 'idempotency-key': k });
    expect(fresh.status).toBe(201);
    expect(fresh.headers['idempotent-replayed']).toBeUndefined();
    expect(probe.runs).toBe(runs + 1);
  });

  it('scopes keys to the user: a new sign-in of the same user replays; another user with the same key runs its own', async () => {
    const tenant = await t.createTenant();
    const email = `scope-${Date.now()}@example.com`;
    const user = await createUser(tenant.admin, { role: 'manager', email, password: 'scope password' });
    const signIn = async () => (await expectOk(t.anonymous.post('/api/signin', { user: { email, password: 'scope password' } }))).access_token as string;
    const k = key('user-scope');
    const first = await probe.request('POST', '/api/probe/echo', await signIn(), { step: 1 }, { 'idempotency-key': k });
    expect(first.status).toBe(201);
    const runs = probe.runs;
    const again = await probe.request('POST', '/api/probe/echo', await signIn(), { step: 1 }, { 'idempotency-key': k });
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(probe.runs).toBe(runs);
    // Another user of the same tenant, the same key: its own request.
    const other = await createUser(tenant.admin, { role: 'manager', organization_ids: user.user.organization_ids });
    const theirs = await probe.request('POST', '/api/probe/echo', other.token, { step: 1 }, { 'idempotency-key': k });
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect(probe.runs).toBe(runs + 1);
  });

  it('keeps an API key\'s keys its own: two API keys of one user (two services) with the same key each run', async () => {
    const tenant = await t.createTenant();
    const user = await createUser(tenant.admin, { role: 'admin' });
    const second = (await expectOk(tenant.admin.post('/api/admin/api_keys', { api_key: { name: 'second service', user_id: user.id } }), 201)).api_key.token as string;
    const k = key('key-scope');
    await probe.request('POST', '/api/probe/echo', user.token, { same: true }, { 'idempotency-key': k });
    const runs = probe.runs;
    const other = await probe.request('POST', '/api/probe/echo', second, { same: true }, { 'idempotency-key': k });
    expect(other.headers['idempotent-replayed']).toBeUndefined();
    expect(probe.runs).toBe(runs + 1);
  });

  it('scopes keys to the tenant: another tenant with the same key runs its own request', async () => {
    const a = await t.createTenant();
    const b = await t.createTenant();
    const k = key('scope');
    await probe.request('POST', '/api/probe/echo', a.adminToken, { same: true }, { 'idempotency-key': k });
    const runs = probe.runs;
    const other = await probe.request('POST', '/api/probe/echo', b.adminToken, { same: true }, { 'idempotency-key': k });
    expect(other.headers['idempotent-replayed']).toBeUndefined();
    expect(probe.runs).toBe(runs + 1);
  });

  it('refuses a key longer than 255 characters with 400 parameter_invalid and writes nothing', async () => {
    const tenant = await t.createTenant();
    const res = await tenant.admin.patch('/api/admin/tenant', { tenant: { name: 'Long' } }, { headers: { 'idempotency-key': 'k'.repeat(256) } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error_code: 'parameter_invalid', parameter: 'Idempotency-Key' });
    expect((await tenant.admin.get('/api/admin/tenant')).body.tenant.name).not.toBe('Long');
    const ok = await tenant.admin.patch('/api/admin/tenant', { tenant: { name: 'Max' } }, { headers: { 'idempotency-key': 'k'.repeat(255) } });
    expect(ok.status).toBe(200);
  });
});

describe('ETag and conditional requests', () => {
  it('sends a weak ETag on a single-resource GET and answers 304 to a matching If-None-Match', async () => {
    const tenant = await t.createTenant();
    const first = await tenant.admin.get('/api/admin/tenant');
    expect(first.headers.etag).toMatch(/^W\/"[\w-]+"$/);
    const again = await tenant.admin.get('/api/admin/tenant', { headers: { 'if-none-match': String(first.headers.etag) } });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    await tenant.admin.patch('/api/admin/tenant', { tenant: { name: 'Changed' } });
    const changed = await tenant.admin.get('/api/admin/tenant', { headers: { 'if-none-match': String(first.headers.etag) } });
    expect(changed.status).toBe(200);
    expect(changed.headers.etag).not.toBe(first.headers.etag);
  });

  it('applies a PATCH whose If-Match is the current ETag and refuses a stale one with 412', async () => {
    const tenant = await t.createTenant();
    const etag = String((await tenant.admin.get('/api/admin/tenant')).headers.etag);
    const ok = await tenant.admin.patch('/api/admin/tenant', { tenant: { name: 'Matched' } }, { headers: { 'if-match': etag } });
    expect(ok.status).toBe(200);
    const stale = await tenant.admin.patch('/api/admin/tenant', { tenant: { name: 'Stale' } }, { headers: { 'if-match': etag } });
    expect(stale.status).toBe(412);
    expect(stale.body.error_code).toBe('precondition_failed');
    expect((await tenant.admin.get('/api/admin/tenant')).body.tenant.name).toBe('Matched');
  });

  it('guards a place: a stale If-Match on PATCH or DELETE is 412 and changes nothing', async () => {
    const tenant = await t.createTenant();
    const place = await createPlace(tenant.admin);
    const url = `/api/places/${place.id}`;
    const etag = String((await tenant.admin.get(url)).headers.etag);
    expect((await tenant.admin.patch(url, { place: { name: 'Renamed' } }, { headers: { 'if-match': etag } })).status).toBe(200);
    expect((await tenant.admin.patch(url, { place: { name: 'Lost update' } }, { headers: { 'if-match': etag } })).status).toBe(412);
    expect((await tenant.admin.delete(url, { headers: { 'if-match': etag } })).status).toBe(412);
    expect((await tenant.admin.get(url)).body.place.name).toBe('Renamed');
  });

  it('does not require If-Match, and If-Match: * matches any current representation', async () => {
    const tenant = await t.createTenant();
    expect((await tenant.admin.patch('/api/admin/tenant', { tenant: { name: 'Free' } })).status).toBe(200);
    expect((await tenant.admin.patch('/api/admin/tenant', { tenant: { name: 'Star' } }, { headers: { 'if-match': '*' } })).status).toBe(200);
  });
});

describe('rate limiting', () => {
  it('answers 429 rate_limited with Retry-After once the burst is spent, and refills by the clock', async () => {
    const limited = await buildTestApp({ rateLimit: { perSecond: 2, burst: 3 } });
    try {
      const tenant = await limited.createTenant();
      const answers = [];
      for (let i = 0; i < 4; i++) answers.push(await tenant.admin.get('/api/user'));
      expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 429]);
      expect(answers[0]!.headers).toMatchObject({ 'ratelimit-limit': '3', 'ratelimit-remaining': '2' });
      const refused = answers[3]!;
      expect(refused.body.error_code).toBe('rate_limited');
      expect(refused.headers['retry-after']).toBe('1');
      expect(refused.headers['ratelimit-remaining']).toBe('0');
      expect(Number(refused.headers['ratelimit-reset'])).toBeGreaterThanOrEqual(1);
      limited.clock.advance(1000);
      expect((await tenant.admin.get('/api/user')).status).toBe(200);
      // Buckets are per credential: another tenant's admin is unaffected.
      const other = await limited.createTenant();
      expect((await other.admin.get('/api/user')).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

describe('NUL characters', () => {
  it('refuses U+0000 in a body value or key with 422 invalid_value at its pointer, and in a query with 400', async () => {
    const tenant = await t.createTenant();
    const inValue = await tenant.admin.post('/api/places', { place: { name: 'Depot', location: { lat: 52.5, lng: 13.4 }, address: { street: 'Main\u0000', city: 'Berlin' } } });
    expect(inValue.status).toBe(422);
    expect(inValue.body.errors).toEqual([{ pointer: '/place/address/street', code: 'invalid_value', detail: expect.any(String) }]);
    const inKey = await tenant.admin.post('/api/places', { place: { name: 'Depot', location: { lat: 52.5, lng: 13.4 }, address: { street: 'Main', city: 'Berlin' }, metadata: { 'a/\u0000': 1 } } });
    expect(inKey.status).toBe(422);
    expect(inKey.body.errors[0]).toMatchObject({ pointer: '/place/metadata/a~1\u0000', code: 'invalid_value' });
    const inQuery = await tenant.admin.get('/api/hailing/bookings?filters[external_id]=x%00');
    expect(inQuery.status).toBe(400);
    expect(inQuery.body.error_code).toBe('parameter_invalid');
    expect((await tenant.admin.get('/api/places')).body.places).toEqual([]);
  });
});

describe('Accept-Language', () => {
  it('localizes an error detail in German', async () => {
    const tenant = await t.createTenant();
    const res = await tenant.admin.patch('/api/admin/tenant', { tenant: { nope: 1 } }, { headers: { 'accept-language': 'de-DE, en;q=0.5' } });
    expect(res.status).toBe(422);
    expect(res.body.detail).toBe('Der Anfragetext ist ungültig.');
    const en = await tenant.admin.patch('/api/admin/tenant', { tenant: { nope: 1 } });
    expect(en.body.detail).toBe('The request body is not valid.');
  });

  it('localizes the field details of a schema failure in German, and keeps them English otherwise', async () => {
    const tenant = await t.createTenant();
    const body = { place: { name: '', location: { lat: 100, lng: 13.4 }, address: { city: 'Berlin' }, colour: 'red' } };
    const de = await tenant.admin.post('/api/places', body, { headers: { 'accept-language': 'de' } });
    const en = await tenant.admin.post('/api/places', body);
    expect(de.status).toBe(422);
    const details = (res: typeof de) => Object.fromEntries((res.body.errors as { pointer: string; detail: string }[]).map((e) => [e.pointer, e.detail]));
    expect(details(en)).toMatchObject({ '/place/colour': 'is not a known field', '/place/location/lat': 'must be <= 90' });
    expect(details(de)).toMatchObject({ '/place/colour': 'ist kein bekanntes Feld', '/place/location/lat': 'muss ≤ 90 sein' });
    expect(Object.keys(details(de))).toEqual(Object.keys(details(en)));
    for (const [pointer, detail] of Object.entries(details(de))) expect(detail, pointer).not.toBe(details(en)[pointer]);
  });

  it("localizes a domain rule's field details in German (a 422 from an operation, and a query parameter's 400)", async () => {
    const tenant = await t.createTenant();
    const user = { name: 'Ada', email: `ada-${Date.now()}@example.com`, role: 'customer' };
    expect((await tenant.admin.post('/api/users', { user })).status).toBe(201);
    const taken = await tenant.admin.post('/api/users', { user }, { headers: { 'accept-language': 'de' } });
    expect(taken.status).toBe(422);
    expect(taken.body.errors).toEqual([{ pointer: '/user/email', code: 'taken', detail: 'wird bereits von einem anderen Benutzer dieses Mandanten verwendet' }]);
    const cursor = await tenant.admin.get('/api/places?cursor=not-ours', { headers: { 'accept-language': 'de' } });
    expect(cursor.body.detail).toBe('Dieser Cursor stammt nicht von dieser API.');
    expect(cursor.body.errors[0].detail).toBe('Dieser Cursor stammt nicht von dieser API.');
    const limit = await tenant.admin.get('/api/places?limit=500', { headers: { 'accept-language': 'de' } });
    expect(limit.body.detail).toBe('Query-Parameter limit: muss ≤ 100 sein.');
  });
});

describe('query-string problems', () => {
  it('points at a bad cursor and a bad filter the same way: a JSON pointer with its slash, and the parameter as written', async () => {
    const tenant = await t.createTenant();
    const cursor = await tenant.admin.get('/api/places?cursor=not-ours');
    expect(cursor.status).toBe(400);
    expect(cursor.body).toMatchObject({ error_code: 'parameter_invalid', parameter: 'cursor', errors: [{ pointer: '/cursor', parameter: 'cursor' }] });
    const filter = await tenant.admin.get('/api/users?filters[role]=pilot');
    expect(filter.status).toBe(400);
    expect(filter.body.errors).toEqual([
      { pointer: '/filters/role', parameter: 'filters[role]', code: 'invalid_value', detail: 'must be one of: "admin", "manager", "driver", "customer"' },
    ]);
  });
});

describe('validation messages through the API', () => {
  it('reports one clear entry per real problem, naming allowed values', async () => {
    const tenant = await t.createTenant();
    const booking = await createBooking(tenant.admin, { service_id: (await createService(tenant.admin)).id });
    const errorsOf = async (res: Promise<{ status: number; body: { errors: unknown[] } }>) => {
      const answer = await res;
      expect(answer.status).toBe(422);
      return answer.body.errors;
    };
    expect(await errorsOf(tenant.admin.post('/api/hailing/bookings/merge', {}))).toEqual([
      { pointer: '/stop_ids', code: 'required', detail: 'is required (or send booking_ids instead)' },
    ]);
    expect(await errorsOf(tenant.admin.post('/api/hailing/bookings/merge', { stop_ids: ['x'] }))).toEqual([
      { pointer: '/stop_ids/0', code: 'invalid_format', detail: 'must match format "uuid"' },
    ]);
    expect(await errorsOf(tenant.admin.put(`/api/hailing/bookings/${booking.id}/tip`, { tip: { amount: -5, currency: 'EUR' } }))).toEqual([
      { pointer: '/tip/amount', code: 'too_small', detail: 'must be >= 0' },
    ]);
    const outcome = await errorsOf(tenant.admin.post(`/api/stops/${booking.stops[0].id}/fail`, { outcome: 'explode' }));
    expect(outcome).toEqual([{ pointer: '/outcome', code: 'invalid_value', detail: expect.stringContaining('must be one of: "skip_recovery"') }]);
  });
});
