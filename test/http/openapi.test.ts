// The OpenAPI document as a contract: valid (an independent validator), complete (ids, tags, errors, headers,
// security, deprecations, webhooks), and true to the running service (errors answered are errors documented).
import { compileErrors, validate } from '@readme/openapi-parser';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPAT_ITEMS, deprecationHeaders } from '../../src/compat/registry.ts';
import { EVENT_TYPES } from '../../src/events/catalog.ts';
import { envelopeOf } from '../../src/events/webhooks-document.ts';
import { buildTestApp, OPERATOR_TOKEN, type TestApp, type TestTenant } from '../app.ts';
import { createBooking, createService, createUser, driveStop, expectOk, tourEnRoute } from '../factories.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- the document is read as JSON
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

let t: TestApp;
let tenant: TestTenant;
let doc: Json;

const operations = (): { path: string; method: string; op: Json }[] =>
  Object.entries(doc.paths as Json).flatMap(([path, item]) => Object.entries(item as Json).map(([method, op]) => ({ path, method, op: op as Json })));
const operation = (method: string, path: string): Json => doc.paths[path][method];
const resolve = (node: Json): Json => (node.$ref ? (node.$ref as string).split('/').slice(1).reduce((at: Json, key: string) => at[key], doc) : node);

beforeAll(async () => {
  t = await buildTestApp();
  tenant = await t.createTenant();
  doc = (await t.anonymous.get('/openapi.json')).body;
});
afterAll(async () => t.close());

describe('the OpenAPI document', () => {
  it('is valid OpenAPI 3.1 for @readme/openapi-parser', async () => {
    const result = await validate(structuredClone(doc) as never);
    expect(result.valid ? '' : compileErrors(result)).toBe('');
  });

  it('gives every operation a unique operationId, a summary and a declared tag', () => {
    const declared = new Set((doc.tags as { name: string }[]).map((tag) => tag.name));
    const ids = operations().map(({ op }) => op.operationId);
    expect(ids.filter((id) => typeof id !== 'string')).toEqual([]);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { path, method, op } of operations()) {
      expect(op.summary, `${method} ${path}`).toBeTruthy();
      expect(op.tags?.length, `${method} ${path}`).toBeGreaterThan(0);
      for (const tag of op.tags) expect(declared.has(tag), `tag ${tag}`).toBe(true);
    }
  });

  it('declares servers and the four security schemes; health, metrics and sign-in need none, operator routes the operator token', () => {
    expect(doc.servers.length).toBeGreaterThan(0);
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(['apiKey', 'bearer', 'operatorToken', 'session']);
    expect(doc.components.securitySchemes.session).toMatchObject({ type: 'apiKey', in: 'cookie', name: 'tourbook_session' });
    for (const path of ['/healthz', '/readyz', '/metrics']) expect(operation('get', path).security).toEqual([]);
    for (const [method, path] of [['post', '/api/signin'], ['post', '/api/session'], ['delete', '/api/session']] as const) expect(operation(method, path).security).toEqual([]);
    expect(operation('post', '/api/operator/tenants').security).toEqual([{ operatorToken: [] }]);
    expect(operation('get', '/api/places').security).toEqual([{ bearer: [] }, { apiKey: [] }, { session: [] }]);
    expect(Object.keys(operation('get', '/metrics').responses['200'].content)).toEqual(['text/plain']);
  });

  it('documents problem+json errors with the shared Problem schema on every API operation', () => {
    for (const { path, method, op } of operations().filter(({ path }) => path.startsWith('/api/'))) {
      const where = `${method} ${path}`;
      for (const status of ['400', '500']) expect(op.responses[status], `${where} ${status}`).toBeDefined();
      if (op.security.length) expect(op.responses['401'], where).toBeDefined();
      if (path.includes('{')) expect(op.responses['404'], where).toBeDefined();
      if (method !== 'get') expect(op.responses['409'] && op.responses['422'], where).toBeTruthy();
      if (['put', 'patch', 'delete'].includes(method)) expect(op.responses['412'], where).toBeDefined();
      const problem = resolve(op.responses['400']).content['application/problem+json'].schema;
      expect(problem).toEqual({ $ref: '#/components/schemas/Problem' });
    }
    expect(doc.components.schemas.Problem.required).toEqual(expect.arrayContaining(['type', 'title', 'status', 'detail', 'error_code']));
  });

  it('declares the request headers (Idempotency-Key, If-Match, If-None-Match, Accept-Language) and the response headers', () => {
    const names = (op: Json) => (op.parameters as Json[]).map((p) => resolve(p).name);
    expect(names(operation('post', '/api/places'))).toEqual(expect.arrayContaining(['Idempotency-Key', 'Accept-Language', 'x-request-id']));
    expect(names(operation('patch', '/api/places/{id}'))).toEqual(expect.arrayContaining(['Idempotency-Key', 'If-Match']));
    expect(names(operation('get', '/api/places/{id}'))).toEqual(expect.arrayContaining(['If-None-Match']));
    const ok = operation('get', '/api/places').responses['200'].headers;
    expect(Object.keys(ok)).toEqual(expect.arrayContaining(['x-request-id', 'ETag', 'Link', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']));
    expect(Object.keys(resolve(operation('get', '/api/places').responses['429']).headers)).toContain('Retry-After');
    const deprecated = operation('get', '/api/users').responses['200'].headers;
    expect(Object.keys(deprecated)).toEqual(expect.arrayContaining(['Deprecation', 'Link']));
  });

  it('describes filters as deepObject and path ids as plain strings (a malformed id answers 404, like an unknown one)', async () => {
    for (const { op } of operations()) {
      for (const parameter of (op.parameters ?? []) as Json[]) {
        if (parameter.name === 'filters') expect([parameter.style, parameter.explode]).toEqual(['deepObject', true]);
        if (parameter.in === 'path') expect(parameter.schema).toEqual({ type: 'string' });
      }
    }
    expect((await tenant.admin.get('/api/places/not-an-id')).status).toBe(404);
  });

  it('lets bodiless actions leave the body out', () => {
    expect(operation('post', '/api/places/{id}/fork').requestBody.required).toBe(false);
    expect(operation('post', '/api/admin/webhooks/{id}/test').requestBody.required).toBe(false);
    expect(operation('post', '/api/places').requestBody.required).toBe(true);
  });

  it('lists shared schemas once under components and refers to them', () => {
    const text = JSON.stringify(doc);
    for (const name of ['Problem', 'Place', 'User', 'Webhook', 'PageMeta', 'Role', 'EventType', 'FailureOutcome']) {
      expect(doc.components.schemas[name], name).toBeDefined();
      expect(text).toContain(`"$ref":"#/components/schemas/${name}"`);
    }
    expect(doc.components.schemas.Role).toEqual({ type: 'string', enum: ['admin', 'manager', 'driver', 'customer'] });
  });

  it('marks every deprecated item of the compat registry deprecated: true', () => {
    const text = JSON.stringify(doc);
    for (const item of COMPAT_ITEMS.filter((i) => i.status === 'deprecated')) {
      expect(text.includes(`"x-compat-key":"${item.key}"`), item.key).toBe(true);
    }
    expect(operation('get', '/api/hailing/failure_reasons').deprecated).toBe(true);
    const user = doc.components.schemas.User;
    expect(user.properties.active_hailing_booking_ids.deprecated).toBe(true);
    const filters = (operation('get', '/api/users').parameters as Json[]).find((p) => p.name === 'filters');
    expect(filters?.schema.properties.on_active_hailing_booking.deprecated).toBe(true);
  });

  it('points every deprecation and successor-version Link at an anchor of the API guide page the service serves', async () => {
    const guide = await t.anonymous.get('/docs/guide');
    expect(guide.status).toBe(200);
    const ids = new Set([...guide.text.matchAll(/ id="([^"]+)"/g)].map((match) => match[1]));
    for (const item of COMPAT_ITEMS.filter((i) => i.status === 'deprecated')) {
      const links = (deprecationHeaders(item.key).link ?? '').split(', ');
      expect(links.map((link) => link.replace(/^<[^>]*>/, '')), item.key).toEqual(item.successor ? ['; rel="successor-version"', '; rel="deprecation"'] : ['; rel="deprecation"']);
      for (const link of links) expect(ids, `${item.key}: ${link}`).toContain(/^<\/docs\/guide#([a-z_-]+)>/.exec(link)?.[1]);
    }
  });

  it('documents every event type under webhooks with its payload', () => {
    expect(Object.keys(doc.webhooks).sort()).toEqual([...EVENT_TYPES].sort());
    for (const type of EVENT_TYPES) {
      const schema = resolve(doc.webhooks[type].post.requestBody.content['application/json'].schema);
      expect(schema.properties.type.const).toBe(type);
      expect(resolve(schema.properties.data).type ?? resolve(schema.properties.data).properties, type).toBeTruthy();
    }
  });
});

describe('the document against the running service', () => {
  it('documents the status of every answer to a set of wrong requests', async () => {
    const driver = await createUser(tenant.admin, { role: 'driver' });
    const requests: [string, string, () => Promise<{ status: number; body: Json; headers: Json }>][] = [
      ['get', '/api/places', () => t.anonymous.get('/api/places')],
      ['get', '/api/places', () => tenant.admin.get('/api/places?nope=1')],
      ['get', '/api/places/{id}', () => tenant.admin.get('/api/places/0190b6c8-0000-7000-8000-00000000beef')],
      ['post', '/api/places', () => tenant.admin.post('/api/places', { place: {} })],
      ['post', '/api/places', () => tenant.admin.post('/api/places', undefined, { raw: '{', headers: { 'content-type': 'application/json' } })],
      ['post', '/api/places', () => tenant.admin.post('/api/places', undefined, { raw: 'x', headers: { 'content-type': 'text/plain' } })],
      ['post', '/api/admin/hailing/services', () => driver.client.post('/api/admin/hailing/services', { service: {} })],
      ['post', '/api/operator/tenants', () => t.client('wrong').post('/api/operator/tenants', { tenant: { name: 'x' } })],
      ['get', '/api/users', () => tenant.admin.get('/api/users?filters[role]=pilot')],
    ];
    const ajv = addFormats(new Ajv({ strict: false }));
    ajv.addSchema({ components: doc.components }, 'document');
    const problem = ajv.compile({ $ref: 'document#/components/schemas/Problem' });
    for (const [method, path, send] of requests) {
      const res = await send();
      expect(Object.keys(operation(method, path).responses), `${method} ${path} → ${res.status}`).toContain(String(res.status));
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(problem(res.body), JSON.stringify(problem.errors)).toBe(true);
    }
    expect(OPERATOR_TOKEN).toBeTruthy();
  });

  it('records every event with a payload its webhooks entry describes', async () => {
    const service = await createService(tenant.admin);
    const driver = await createUser(tenant.admin, { role: 'driver' });
    const booking = await createBooking(tenant.admin, { service_id: service.id });
    await tourEnRoute(tenant.admin, [booking.id], driver.id);
    await driveStop(driver.client, booking.stops[0].id, 'completed');
    await driveStop(driver.client, booking.stops[1].id, 'arrived');
    await expectOk(driver.client.post(`/api/stops/${booking.stops[1].id}/fail`, { outcome: 'return_now' }));
    const events = (await expectOk(tenant.admin.get('/api/admin/events?limit=100'))).events as Json[];
    const ajv = addFormats(new Ajv({ strict: false }));
    const seen = new Set<string>();
    for (const event of events) {
      const check = ajv.compile(envelopeOf(event.type));
      expect(check(event), `${event.type}: ${JSON.stringify(check.errors)}`).toBe(true);
      seen.add(event.type);
    }
    expect([...seen]).toEqual(expect.arrayContaining(['booking.created', 'tour.created', 'tour.active_status_changed', 'booking.stop_failed', 'booking.return_started']));
  });
});
