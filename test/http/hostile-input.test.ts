// Hostile input refused centrally (issue 11, finding 2): nesting depth, lone surrogates, out-of-range timestamps, empty PATCHes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/db/sql.ts';
import { malformedStringPointer } from '../../src/http/validation.ts';
import { loadConfig } from '../../src/config.ts';
import { buildProbe } from './probe.ts';
import { buildTestApp, OPERATOR_TOKEN, type TestApp, type TestTenant } from '../app.ts';
import { createPlace, createService, createWebhook } from '../factories.ts';

let t: TestApp;
let tenant: TestTenant;
beforeAll(async () => {
  t = await buildTestApp();
  tenant = await t.createTenant();
});
afterAll(async () => t.close());

const nested = (depth: number): string => '['.repeat(depth) + ']'.repeat(depth);
const nestedObject = (depth: number): string => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

const eventCount = async (): Promise<number> => {
  const [row] = await queryRows<{ n: number }>(t.deps.db, sql`SELECT count(*)::int AS n FROM events`);
  return row!.n;
};

describe('JSON nesting depth', () => {
  it('answers 400 malformed_request to 5,000 levels of arrays on the unauthenticated sign-in', async () => {
    const res = await t.anonymous.post('/api/signin', undefined, { raw: nested(5000), headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(res.body.error_code).toBe('malformed_request');
  });

  it('answers 400 to deep objects inside a valid wrapper on an authenticated write, and writes nothing', async () => {
    const before = await eventCount();
    const raw = `{"place":{"name":"x","location":{"lat":1,"lng":2},"address":{"street":"a","city":"B"},"metadata":${nestedObject(7000)}}}`;
    const res = await tenant.admin.post('/api/places', undefined, { raw, headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.body.error_code).toBe('malformed_request');
    expect(await eventCount()).toBe(before);
  });

  it('accepts 64 levels and refuses 65', async () => {
    const ok = await tenant.admin.put(`/api/places/${(await createPlace(tenant.admin)).id}/metadata`, undefined, {
      raw: `{"metadata":{"k":${nested(62)}}}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(ok.status).toBe(200);
    const deep = await tenant.admin.post('/api/places', undefined, { raw: nested(65), headers: { 'content-type': 'application/json' } });
    expect(deep.status).toBe(400);
  });
});

describe('lone surrogates', () => {
  it('refuses a lone surrogate in a string stored as JSON with 422 invalid_value and its pointer', async () => {
    const raw = '{"place":{"name":"Depot","location":{"lat":1,"lng":2},"address":{"street":"a\\ud800b","city":"B"}}}';
    const res = await tenant.admin.post('/api/places', undefined, { raw, headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(422);
    expect(res.body.errors[0]).toMatchObject({ pointer: '/place/address/street', code: 'invalid_value' });
  });

  it('refuses a lone surrogate in a plain text column instead of storing U+FFFD', async () => {
    const res = await tenant.admin.post('/api/places', undefined, {
      raw: '{"place":{"name":"Dep\\udfffot","location":{"lat":1,"lng":2},"address":{"street":"a","city":"B"}}}',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors[0]).toMatchObject({ pointer: '/place/name', code: 'invalid_value' });
  });

  it('refuses a lone surrogate in an object key, escaping the pointer per RFC 6901', async () => {
    const place = await createPlace(tenant.admin);
    const res = await tenant.admin.put(`/api/places/${place.id}/metadata`, undefined, {
      raw: '{"metadata":{"a/b~\\ud800":"x"}}',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors[0]).toMatchObject({ pointer: '/metadata/a~1b~0\ud800', code: 'invalid_value' });
  });

  it('accepts a well-formed surrogate pair', async () => {
    const res = await tenant.admin.post('/api/places', { place: { name: 'Depot 🚚', location: { lat: 1, lng: 2 }, address: { street: 'a', city: 'B' } } });
    expect(res.status).toBe(201);
    expect(res.body.place.name).toBe('Depot 🚚');
  });

  it('refuses a lone surrogate in a query-string value (validated like a body)', () => {
    // Percent-encoded UTF-8 cannot carry a lone surrogate, so this is the validator's own check, not one over HTTP.
    expect(malformedStringPointer({ filters: { name: 'a\ud800' } })).toBe('/filters/name');
    expect(malformedStringPointer({ filters: { name: 'a🚚' } })).toBeNull();
  });

  it.each([
    [{ stops: [{ a: 'ok' }, { b: ['x', 'y\u0000'] }] }, '/stops/1/b/1'],
    [{ 'a/b': { 'c~d\udc00': 1 } }, '/a~1b/c~0d\udc00'],
    [{ metadata: { n: Number.POSITIVE_INFINITY } }, '/metadata/n'],
    [[0, [1, 'z\ud800']], '/1/1'],
    [{ fine: [1, 'two', { three: null }] }, null],
  ])('points at the first unstorable value of %j: %s', (value, pointer) => {
    expect(malformedStringPointer(value)).toBe(pointer);
  });
});

describe('timestamps outside 1970–9999', () => {
  it.each(['0000-01-01T00:00:00Z', '1969-12-31T23:59:59Z', '10000-01-01T00:00:00Z', '275760-09-13T00:00:00Z'])(
    'refuses scheduled_at %s with 422 and its pointer',
    async (at) => {
      const service = await createService(tenant.admin);
      const res = await tenant.admin.post('/api/hailing/bookings', {
        booking: {
          service_id: service.id,
          scheduled_at: at,
          stops: [
            { type: 'pickup', location: { lat: 52.5, lng: 13.4 } },
            { type: 'dropoff', location: { lat: 52.51, lng: 13.41 } },
          ],
        },
      });
      expect(res.status).toBe(422);
      expect(res.body.errors.map((e: { pointer: string }) => e.pointer)).toContain('/booking/scheduled_at');
    },
  );

  it('refuses webhook recovery since year 0000 with 422', async () => {
    const hook = await createWebhook(tenant.admin, 'https://example.com/hook');
    const res = await tenant.admin.post(`/api/admin/webhooks/${hook.id}/recover`, { since: '0000-01-01T00:00:00Z' });
    expect(res.status).toBe(422);
    expect(res.body.errors[0].pointer).toBe('/since');
  });

  it('refuses filters[created_after] and filters[since] out of range with 400 parameter_invalid', async () => {
    const bookings = await tenant.admin.get('/api/hailing/bookings?filters[created_after]=0000-01-01T00:00:00Z');
    expect(bookings.status).toBe(400);
    expect(bookings.body.error_code).toBe('parameter_invalid');
    const events = await tenant.admin.get('/api/admin/events?filters[since]=99999-01-01T00:00:00Z');
    expect(events.status).toBe(400);
  });

  it('still accepts a timestamp inside the range', async () => {
    const res = await tenant.admin.get('/api/admin/events?filters[since]=2024-02-29T12:00:00.5%2B01:00');
    expect(res.status).toBe(200);
  });
});

describe('empty updates', () => {
  it('answers 200 with the tenant to PATCH /api/admin/tenant {"tenant": {}} and records nothing', async () => {
    const before = await eventCount();
    const res = await tenant.admin.patch('/api/admin/tenant', { tenant: {} });
    expect(res.status).toBe(200);
    expect(res.body.tenant.id).toBe(tenant.tenantId);
    expect(await eventCount()).toBe(before);
  });

  it("answers 200 with the tenant to the operator's empty PATCH", async () => {
    const operator = t.client(OPERATOR_TOKEN);
    const res = await operator.patch(`/api/operator/tenants/${tenant.tenantId}`, { tenant: {} });
    expect(res.status).toBe(200);
    expect(res.body.tenant.id).toBe(tenant.tenantId);
  });

  it('answers 200 to every other empty PATCH', async () => {
    const place = await createPlace(tenant.admin);
    const service = await createService(tenant.admin);
    const hook = await createWebhook(tenant.admin, 'https://example.com/hook');
    const org = (await tenant.admin.post('/api/organizations', { organization: { name: 'Org' } })).body.organization;
    const area = (await tenant.admin.post('/api/admin/service_areas', { service_area: { name: 'A', currency: 'EUR', time_zone: 'Europe/Berlin' } })).body
      .service_area;
    for (const [url, body] of [
      [`/api/places/${place.id}`, { place: {} }],
      [`/api/admin/webhooks/${hook.id}`, { webhook: {} }],
      [`/api/organizations/${org.id}`, { organization: {} }],
      [`/api/admin/service_areas/${area.id}`, { service_area: {} }],
      [`/api/users/${tenant.adminUserId}`, { user: {} }],
    ] as const) {
      const res = await tenant.admin.patch(url, body);
      expect(res.status, `${url}: ${res.text}`).toBe(200);
    }
    // The service update is a PUT of only the given fields: the same no-op.
    const put = await tenant.admin.put(`/api/admin/hailing/services/${service.id}`, { service: {} });
    expect(put.status, put.text).toBe(200);
  });
});

describe('body size', () => {
  const big = (bytes: number) => JSON.stringify({ email: 'a@b.c', password: 'x'.repeat(bytes) });

  it('answers 413 payload_too_large as problem+json to a 1.1 MiB unauthenticated sign-in', async () => {
    const res = await t.anonymous.post('/api/signin', undefined, { raw: big(1.1 * 1024 * 1024), headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(413);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(res.body.error_code).toBe('payload_too_large');
  });

  it('accepts a body just under 1 MiB as far as the route goes', async () => {
    const res = await t.anonymous.post('/api/signin', undefined, { raw: big(1000 * 1024), headers: { 'content-type': 'application/json' } });
    expect(res.status).not.toBe(413);
  });

  it('lets a route declare a larger limit, and still enforces it', async () => {
    const probe = await buildProbe(t);
    try {
      const body = JSON.stringify({ blob: 'x'.repeat(2 * 1024 * 1024) });
      const under = await probe.app.inject({ method: 'POST', url: '/api/probe/upload', headers: { authorization: `Bearer ${tenant.adminToken}`, 'content-type': 'application/json' }, payload: body });
      expect(under.statusCode).toBe(201);
      const over = await probe.app.inject({
        method: 'POST',
        url: '/api/probe/upload',
        headers: { authorization: `Bearer ${tenant.adminToken}`, 'content-type': 'application/json' },
        payload: JSON.stringify({ blob: 'x'.repeat(5 * 1024 * 1024) }),
      });
      expect(over.statusCode).toBe(413);
      const elsewhere = await probe.app.inject({ method: 'POST', url: '/api/probe/echo', headers: { authorization: `Bearer ${tenant.adminToken}`, 'content-type': 'application/json' }, payload: body });
      expect(elsewhere.statusCode).toBe(413);
    } finally {
      await probe.app.close();
    }
  });

  it('reads the default from BODY_LIMIT_BYTES', () => {
    expect(loadConfig({}).bodyLimitBytes).toBe(1024 * 1024);
    expect(loadConfig({ BODY_LIMIT_BYTES: '2048' }).bodyLimitBytes).toBe(2048);
    expect(() => loadConfig({ BODY_LIMIT_BYTES: 'lots' })).toThrow(/BODY_LIMIT_BYTES/);
  });
});
