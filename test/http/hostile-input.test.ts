// Hostile input refused centrally (issue 11, finding 2): nesting depth, lone surrogates, out-of-range timestamps, empty PATCHes;
// the multipart upload routes (issue 28): no body, no boundary, NUL, surrogates, two files, early refusals of large bodies.
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/db/sql.ts';
import { DRAIN_FLOOR_BYTES } from '../../src/http/unread-body.ts';
import { malformedStringPointer } from '../../src/http/validation.ts';
import { loadConfig } from '../../src/config.ts';
import { buildProbe } from './probe.ts';
import { buildTestApp, OPERATOR_TOKEN, type TestApp, type TestTenant } from '../app.ts';
import { createPlace, createService, createUser, createWebhook, expectOk, type CreatedUser } from '../factories.ts';
import { keptAlive } from '../kept-alive.ts';
import { multipart, reportBody } from '../../src/modules/reports/test-helpers.ts';

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

describe('the multipart upload routes', () => {
  let driver: CreatedUser;
  let customer: CreatedUser;
  let manager: CreatedUser;
  let port: number;
  beforeAll(async () => {
    [driver, customer, manager] = await Promise.all([createUser(tenant.admin, { role: 'driver' }), createUser(tenant.admin, { role: 'customer' }), createUser(tenant.admin, { role: 'manager' })]);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });

  const pendingReport = async (): Promise<string> => (await expectOk(tenant.admin.post('/api/reports', reportBody()), 201)).report.id;
  const reportCount = async (): Promise<number> => {
    const [row] = await queryRows<{ n: number }>(t.deps.db, sql`SELECT count(*)::int AS n FROM reports WHERE tenant_id = ${tenant.tenantId}`);
    return row!.n;
  };
  const file = (bytes = 16) => ({ name: 'f.bin', contentType: 'application/octet-stream', data: randomBytes(bytes) });
  /** A multipart body written by hand: `report` as the given JSON text (typed or plain text), then the parts given. */
  const handmade = (reportText: string | null, files: number, typed = true) => {
    const boundary = `----hostile${randomBytes(6).toString('hex')}`;
    const parts: Buffer[] = [];
    if (reportText !== null) {
      const type = typed ? 'Content-Type: application/json\r\n' : '';
      parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="report"\r\n${type}\r\n${reportText}\r\n`));
    }
    for (let i = 0; i < files; i++) {
      parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="f${i}.txt"\r\nContent-Type: text/plain\r\n\r\nfile ${i}\r\n`));
    }
    parts.push(Buffer.from(`--${boundary}--\r\n`));
    return { raw: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
  };

  it('answers 403 to drivers and customers and 422 problem+json to admins and managers sending no body and no Content-Type', async () => {
    const id = await pendingReport();
    for (const url of ['/api/reports', `/api/reports/${id}/complete`]) {
      for (const who of [driver.client, customer.client]) {
        const res = await who.post(url);
        expect(res.status, `${url}: ${res.text}`).toBe(403);
      }
      for (const who of [tenant.admin, manager.client]) {
        const res = await who.post(url);
        // The manager does not see the report (all_admins): 404 comes before the body is looked at.
        const expected = who === manager.client && url.endsWith('/complete') ? 404 : 422;
        expect(res.status, `${url}: ${res.text}`).toBe(expected);
        expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
      }
    }
    const res = await tenant.admin.post('/api/reports');
    expect(res.body).toMatchObject({ error_code: 'validation_failed', errors: [{ pointer: '', code: 'invalid_type' }] });
  });

  it('answers 400 malformed_request to multipart/form-data without a boundary on both routes', async () => {
    const id = await pendingReport();
    const { payload: raw } = multipart({ report: reportBody().report }, file());
    for (const url of ['/api/reports', `/api/reports/${id}/complete`]) {
      const res = await tenant.admin.post(url, undefined, { raw, headers: { 'content-type': 'multipart/form-data' } });
      expect(res.status, `${url}: ${res.text}`).toBe(400);
      expect(res.body.error_code).toBe('malformed_request');
    }
  });

  it.each([
    ['a NUL', '{"title":"Weekly\\u0000summary","grants":[{"type":"all_admins"}]}', '/report/title'],
    ['a lone surrogate', '{"title":"Weekly \\ud800","grants":[{"type":"all_admins"}]}', '/report/title'],
    ['a lone surrogate in a tag', '{"title":"Weekly","tags":["a","\\udfff"],"grants":[{"type":"all_admins"}]}', '/report/tags/1'],
  ])('refuses %s in the report part with 422 invalid_value at its pointer, typed as JSON or not, and keeps nothing', async (_name, text, pointer) => {
    const before = await reportCount();
    const json = await tenant.admin.post('/api/reports', undefined, { raw: `{"report":${text}}`, headers: { 'content-type': 'application/json' } });
    for (const typed of [true, false]) {
      const { raw, headers } = handmade(text, 1, typed);
      const res = await tenant.admin.post('/api/reports', undefined, { raw, headers });
      expect(res.status, res.text).toBe(422);
      expect(res.body.errors).toEqual(json.body.errors);
      expect(res.body.errors[0]).toMatchObject({ pointer, code: 'invalid_value' });
    }
    expect(await reportCount()).toBe(before);
  });

  it('refuses a report part nested deeper than 64 levels with 400, like a JSON body', async () => {
    const { raw, headers } = handmade(`{"title":"x","grants":${'['.repeat(70)}${']'.repeat(70)}}`, 1);
    const res = await tenant.admin.post('/api/reports', undefined, { raw, headers });
    expect(res.status, res.text).toBe(400);
    expect(res.body.error_code).toBe('malformed_request');
  });

  it('refuses a second file part with 422 at /file instead of dropping it, and stores nothing', async () => {
    const before = await reportCount();
    const create = handmade(JSON.stringify(reportBody().report), 2);
    const created = await tenant.admin.post('/api/reports', undefined, create);
    expect(created.status, created.text).toBe(422);
    expect(created.body.errors).toEqual([{ pointer: '/file', code: 'too_many', detail: 'send one `file` part' }]);
    expect(await reportCount()).toBe(before);

    const id = await pendingReport();
    const complete = handmade(null, 2);
    const completed = await tenant.admin.post(`/api/reports/${id}/complete`, undefined, complete);
    expect(completed.status, completed.text).toBe(422);
    expect(completed.body.errors[0]).toMatchObject({ pointer: '/file', code: 'too_many' });
    expect((await tenant.admin.get(`/api/reports/${id}`)).body.report.status).toBe('pending');
  });

  describe('an early refusal of a 1 MiB upload on a kept-alive connection', () => {
    const MiB = 1024 * 1024;
    const upload = (url: string, token: string, report: unknown) => {
      const { payload, headers } = multipart(report === null ? null : { report }, file(MiB));
      const head = `POST ${url} HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer ${token}\r\nContent-Type: ${headers['content-type']}\r\nContent-Length: ${payload.length}\r\n\r\n`;
      return { bytes: Buffer.concat([Buffer.from(head), payload]), payload, headers };
    };
    const scenes: [string, number, () => Promise<ReturnType<typeof upload> & { url: string; token: string }>][] = [
      ['a driver creating a report', 403, async () => ({ url: '/api/reports', token: driver.token, ...upload('/api/reports', driver.token, reportBody().report) })],
      [
        'an admin granting an unknown user',
        422,
        async () => {
          const report = reportBody({ grants: [{ type: 'user', user_id: '0193b2c4-0000-7000-8000-000000000000' }] }).report;
          return { url: '/api/reports', token: tenant.adminToken, ...upload('/api/reports', tenant.adminToken, report) };
        },
      ],
      [
        'an admin completing an unknown report',
        404,
        async () => {
          const url = '/api/reports/0193b2c4-0000-7000-8000-000000000000/complete';
          return { url, token: tenant.adminToken, ...upload(url, tenant.adminToken, null) };
        },
      ],
      [
        'a manager completing a report it cannot see',
        404,
        async () => {
          const url = `/api/reports/${await pendingReport()}/complete`;
          return { url, token: manager.token, ...upload(url, manager.token, null) };
        },
      ],
    ];

    it.each(scenes)('%s: answers %i, then the next request on the same connection is answered', async (_name, status, scene) => {
      const { bytes } = await scene();
      const connection = await keptAlive(port);
      try {
        // Not awaited: before the fix the server stopped reading, and the write never finished.
        void connection.write(bytes).catch(() => undefined);
        const refused = await connection.response(10_000);
        expect(refused.status).toBe(status);
        expect(refused.headers['content-type']).toMatch(/application\/problem\+json/);
        await connection.write('GET /healthz HTTP/1.1\r\nHost: test\r\n\r\n');
        // Generous: on loopback the answer takes milliseconds; a connection stuck under the unread body never answers.
        const next = await connection.response(10_000);
        expect(next.status).toBe(200);
        expect(connection.ended).toBe(false);
      } finally {
        connection.close();
      }
    });

    // Issue 35: a 2 MiB DELETE once lost its 413 on PGlite: the connection was closed under a client still sending,
    // and the client's next bytes met a reset that took the unread answer with it. Read and thrown away instead
    // (decision 1624), so the answer arrives and the connection carries the next request, on both databases.
    it.each([
      ['a 2 MiB DELETE of a recipient template', 413, 'DELETE', '/api/admin/recipient_templates/x/y', true],
      ['an unauthenticated POST declaring twice the limit', 401, 'POST', '/api/places', false],
    ] as const)('%s: answers %i over a real socket, reads the rest, and answers the next request', async (_name, status, method, url, signed) => {
      const connection = await keptAlive(port);
      try {
        const declared = 2 * 1024 * 1024;
        const body = Buffer.alloc(declared, 'x');
        const auth = signed ? `Authorization: Bearer ${tenant.adminToken}\r\n` : '';
        await connection.write(`${method} ${url} HTTP/1.1\r\nHost: test\r\n${auth}Content-Type: application/json\r\nContent-Length: ${declared}\r\n\r\n`);
        await connection.write(body.subarray(0, 64 * 1024));
        const refused = await connection.response(10_000);
        expect(refused.status).toBe(status);
        expect(refused.headers['content-type']).toMatch(/application\/problem\+json/);
        expect(JSON.parse(refused.body).error_code).toBe(status === 413 ? 'payload_too_large' : 'unauthenticated');
        expect(refused.headers.connection).not.toBe('close');
        // The rest of the body is still being sent after the answer: before the fix this write met a closed socket.
        await connection.write(body.subarray(64 * 1024));
        await connection.write('GET /healthz HTTP/1.1\r\nHost: test\r\n\r\n');
        const next = await connection.response(10_000);
        expect(next.status).toBe(200);
        expect(connection.ended).toBe(false);
      } finally {
        connection.close();
      }
    });

    it('answers a body declared past the drain bound first, and ends its connection once that many bytes came', async () => {
      const connection = await keptAlive(port);
      try {
        const declared = 4 * DRAIN_FLOOR_BYTES;
        await connection.write(`POST /api/places HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Length: ${declared}\r\n\r\n{"place":`);
        const refused = await connection.response(10_000);
        expect(refused.status).toBe(401);
        // Sent on past the bound: the connection ends, not the process's patience.
        await connection.write(Buffer.alloc(DRAIN_FLOOR_BYTES + 1024 * 1024, 'x')).catch(() => undefined);
        await expect(connection.response(10_000)).rejects.toThrow(/ended/);
      } finally {
        connection.close();
      }
    });

    it.each(scenes)('%s: a fetch upload gets its %i', async (_name, status, scene) => {
      const { url, token, payload, headers } = await scene();
      const timeout = AbortSignal.timeout(10_000);
      const res = await fetch(`http://127.0.0.1:${port}${url}`, { method: 'POST', body: payload, headers: { ...headers, authorization: `Bearer ${token}` }, signal: timeout });
      expect(res.status).toBe(status);
      expect(((await res.json()) as { status: number }).status).toBe(status);
    });
  });
});
