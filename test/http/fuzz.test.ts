// Bad input never causes a 500 or a write: every sampled route gets wrong types, missing and extra fields, huge
// strings, bad ids, bad cursors, malformed JSON and wrong content types, and must answer 4xx problem+json.
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/sql.ts';
import { buildTestApp, OPERATOR_TOKEN, type Client, type TestApp, type TestTenant } from '../app.ts';
import { createBooking, createPlace, createService, createWebhook, expectOk, mergeIntoTour } from '../factories.ts';

/** The sample. Add a route here when you add one; bodies are derived from the route's own schema. */
const WRITE_ROUTES = [
  'PATCH /api/admin/tenant',
  'PATCH /api/operator/tenants/:id',
  'POST /api/operator/tenants',
  'POST /api/places',
  'PATCH /api/places/:id',
  'PUT /api/places/:id/metadata',
  'POST /api/admin/hailing/services',
  'PUT /api/admin/hailing/services/:id',
  'POST /api/admin/hailing/scheduling_configs',
  'POST /api/admin/webhooks',
  'PATCH /api/admin/webhooks/:id',
  'POST /api/admin/webhooks/:id/rotate_secret',
  'POST /api/admin/webhooks/:id/recover',
  'POST /api/admin/webhooks/:id/test',
  'POST /api/admin/webhooks/:id/deliveries/:delivery_id/redeliver',
  'POST /api/hailing/bookings',
  'POST /api/hailing/bookings/:id/cancel',
  'PUT /api/hailing/bookings/:id/tip',
  'POST /api/hailing/bookings/:id/stops',
  'PUT /api/hailing/bookings/:id/stops/groups',
  'PUT /api/hailing/bookings/:id/managing_organizations',
  'PUT /api/bookings/:id/preferred_drivers',
  'POST /api/hailing/bookings/merge',
  'POST /api/hailing/tours/:id/stops/insert',
  'POST /api/hailing/tours/:id/stops',
  'POST /api/hailing/tours/:id/schedule',
  'POST /api/hailing/tours/:id/force_assign',
  'PUT /api/tours/:id/preferred_drivers',
  'PATCH /api/stops/:id/properties',
  'POST /api/stops/:id/approach',
  'POST /api/stops/:id/complete',
  'POST /api/stops/:id/fail',
  'POST /api/hailing/packages/lookup',
  'POST /api/hailing/packages/:id/remove_from_tour',
  'POST /api/hailing/packages/:id/force_delivery',
  'POST /api/hailing/packages/:id/transition',
  'POST /api/admin/reasons/package_failure',
  'PATCH /api/admin/reasons/package_failure/:key',
  'PUT /api/admin/reasons/package_failure/:key',
];
/** Webhook actions take no body and ignore one (as Stripe does): with an existing webhook they succeed whatever is sent. */
const BODY_IGNORED = ['POST /api/admin/webhooks/:id/rotate_secret', 'POST /api/admin/webhooks/:id/test', 'POST /api/admin/webhooks/:id/deliveries/:delivery_id/redeliver'];
const LIST_ROUTES = [
  'GET /api/admin/events',
  'GET /api/places',
  'GET /api/admin/webhooks',
  'GET /api/admin/hailing/services',
  'GET /api/hailing/bookings',
  'GET /api/hailing/tours',
];
const SHOW_ROUTES = [
  'GET /api/places/:id',
  'GET /api/admin/hailing/services/:id',
  'GET /api/admin/webhooks/:id',
  'GET /api/hailing/bookings/:id',
  'GET /api/hailing/tours/:id',
  'GET /api/hailing/tours/:id/visibility',
  'GET /api/stops/:id',
  'GET /api/admin/reasons/package_failure/:key',
];

type Schema = { type?: string | string[]; properties?: Record<string, Schema>; anyOf?: Schema[]; required?: string[]; maxLength?: number };

let t: TestApp;
let tenant: TestTenant;
let openapi: {
  paths: Record<string, Record<string, { requestBody?: { content: { 'application/json': { schema: Schema } } } }>>;
  components: { schemas: Record<string, Schema> };
};
const registered = (route: string) => t.app.routeTable.some((r) => `${r.method} ${r.url}` === route);

/** Ids of existing resources, by the path segment before `:id`: bad input must not reach a 500 deeper down either. */
let existing: Record<string, string>;

beforeAll(async () => {
  t = await buildTestApp();
  tenant = await t.createTenant();
  openapi = (await t.anonymous.get('/openapi.json')).body;
  const service = await createService(tenant.admin);
  const booking = await createBooking(tenant.admin, { service_id: service.id });
  const tour = await mergeIntoTour(tenant.admin, [(await createBooking(tenant.admin, { service_id: service.id })).id]);
  const webhook = await createWebhook(tenant.admin, 'https://example.com/hooks');
  await tenant.admin.post(`/api/admin/webhooks/${webhook.id}/test`, {});
  const [delivery] = (await expectOk(tenant.admin.get(`/api/admin/webhooks/${webhook.id}/deliveries`))).deliveries;
  const config = (await expectOk(tenant.admin.post('/api/admin/hailing/scheduling_configs', { scheduling_config: { name: 'Fuzz' } }), 201)).scheduling_config;
  // Every collection a sampled route names, so requests against "an existing resource" really find one.
  existing = {
    places: (await createPlace(tenant.admin)).id,
    services: service.id,
    scheduling_configs: config.id,
    tenants: tenant.tenantId,
    bookings: booking.id,
    stops: booking.stops[0].id,
    packages: booking.packages[0].id,
    tours: tour.id,
    webhooks: webhook.id,
    deliveries: delivery?.id ?? UNKNOWN_ID,
    // A package failure reason (the stop-failure key customer_absent named none).
    package_failure: 'damaged',
  };
});
afterAll(async () => t.close());

const clientFor = (route: string): Client => (route.includes('/api/operator/') ? t.client(OPERATOR_TOKEN) : tenant.admin);
const UNKNOWN_ID = '0190b6c8-0000-7000-8000-00000000beef';
const withParams = (url: string, value = UNKNOWN_ID) => url.replace(/:\w+/g, value);
const withExistingIds = (url: string) => url.replace(/(\w+)\/:\w+/g, (_, collection: string) => `${collection}/${existing[collection] ?? UNKNOWN_ID}`);

function bodySchema(route: string): Schema | null {
  const [method, url] = route.split(' ') as [string, string];
  const path = url.replace(/:(\w+)/g, '{$1}');
  const schema = openapi.paths[path]?.[method.toLowerCase()]?.requestBody?.content['application/json'].schema;
  return schema ? inlined(schema) : null;
}

/** The schema with the document's `$ref`s to shared components replaced by the components (two levels are enough here). */
function inlined(schema: Schema & { $ref?: string }, depth = 0): Schema {
  const target = schema.$ref ? openapi.components.schemas[schema.$ref.replace('#/components/schemas/', '')] : schema;
  if (!target || depth > 3) return target ?? schema;
  return {
    ...target,
    ...(target.properties ? { properties: Object.fromEntries(Object.entries(target.properties).map(([k, v]) => [k, inlined(v, depth + 1)])) } : {}),
    ...(target.anyOf ? { anyOf: target.anyOf.map((v) => inlined(v, depth + 1)) } : {}),
  };
}

const typeOf = (schema: Schema): string | undefined => {
  if (schema.anyOf) return schema.anyOf.map(typeOf).find((type) => type && type !== 'null');
  return Array.isArray(schema.type) ? schema.type.find((type) => type !== 'null') : schema.type;
};

/** A value of a type the field does not accept. */
function wrongValue(schema: Schema): unknown {
  switch (typeOf(schema)) {
    case 'string':
      return 12345;
    case 'number':
    case 'integer':
      return '12';
    case 'boolean':
      return 'true';
    case 'array':
      return { not: 'an array' };
    default:
      return 'not an object';
  }
}

/** Invalid bodies derived from the schema: missing, extra, wrong-typed and huge fields, at the top and one level down. */
function invalidBodies(schema: Schema | null): unknown[] {
  const bodies: unknown[] = [[], 42, 'text', true, { zz_unknown_field: 1 }];
  if (schema?.required?.length) bodies.push({});
  for (const [name, field] of Object.entries(schema?.properties ?? {})) {
    bodies.push({ [name]: wrongValue(field), zz_extra: true });
    for (const [inner, innerSchema] of Object.entries(field.properties ?? {})) {
      bodies.push({ [name]: { [inner]: wrongValue(innerSchema) } });
      // Too long unless the field deliberately takes large payloads (base64 proofs of up to 5 MiB).
      if (typeOf(innerSchema) === 'string' && !((innerSchema.maxLength ?? 0) >= 100_000)) bodies.push({ [name]: { [inner]: 'x'.repeat(100_000) } });
      bodies.push({ [name]: { [inner]: null, zz_unknown_field: 'x' } });
    }
  }
  return bodies;
}

/** Strings that name Object.prototype members: a lookup table indexed with them must not find anything. */
const PROTOTYPE_NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty'];

/** A body shaped like the schema: its required members filled with plausible values (formats, enums, minimums). */
function skeleton(schema: Schema, depth = 0): unknown {
  const s = schema as Schema & { enum?: unknown[]; const?: unknown; format?: string; minLength?: number; minimum?: number; minItems?: number; items?: Schema };
  if (s.const !== undefined) return s.const;
  if (s.enum?.length) return s.enum[0];
  switch (typeOf(schema)) {
    case 'object': {
      const inner = schema.anyOf?.find((x) => x.properties) ?? schema;
      return Object.fromEntries((inner.required ?? []).map((name) => [name, depth > 5 ? null : skeleton(inner.properties?.[name] ?? {}, depth + 1)]));
    }
    case 'array':
      return Array.from({ length: s.minItems ?? 0 }, () => skeleton(s.items ?? {}, depth + 1));
    case 'string':
      if (s.format === 'date-time') return '2026-06-01T08:00:00Z';
      if (s.format === 'uuid') return existing.bookings;
      if (s.format === 'uri') return 'https://example.com/fuzz';
      return 'x'.repeat(Math.max(1, s.minLength ?? 1));
    case 'integer':
    case 'number':
      return s.minimum ?? 1;
    case 'boolean':
      return false;
    default:
      return null;
  }
}

/**
 * Schema-shaped bodies (required members filled) whose string fields, top level and one level down, name
 * Object.prototype members; for a body without string fields, those names as member names. Never empty: every
 * route gets requests.
 */
function prototypeNameBodies(schema: Schema | null): unknown[] {
  const base = (schema ? skeleton(schema) : {}) as Record<string, unknown>;
  const bodies: unknown[] = [];
  for (const [name, field] of Object.entries(schema?.properties ?? {})) {
    if (typeOf(field) === 'string') bodies.push(...PROTOTYPE_NAMES.map((value) => ({ ...base, [name]: value })));
    const inner = (typeof base[name] === 'object' && base[name] !== null ? base[name] : {}) as Record<string, unknown>;
    for (const [innerName, innerSchema] of Object.entries(field.properties ?? {})) {
      if (typeOf(innerSchema) === 'string') bodies.push(...PROTOTYPE_NAMES.map((value) => ({ ...base, [name]: { ...inner, [innerName]: value } })));
    }
  }
  if (!bodies.length) bodies.push(...PROTOTYPE_NAMES.map((member) => JSON.parse(`{${JSON.stringify(member)}: "x"}`) as unknown));
  return bodies;
}

/** Row counts of every table but the idempotency store: a refused request writes none of them. */
async function rowCounts(): Promise<Record<string, number>> {
  const tables = await queryRows<{ table_name: string }>(
    t.deps.db,
    sql`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name <> 'idempotency_keys'`,
  );
  const counts: Record<string, number> = {};
  for (const { table_name } of tables) {
    const [row] = await queryRows<{ n: number }>(t.deps.db, sql`SELECT count(*)::int AS n FROM ${sql.identifier(table_name)}`);
    counts[table_name] = row?.n ?? 0;
  }
  return counts;
}

function expectProblem(route: string, res: { status: number; headers: Record<string, unknown>; body: { error_code?: unknown } }, sent: unknown): void {
  const where = `${route} with ${JSON.stringify(sent).slice(0, 200)}`;
  expect(res.status, where).toBeGreaterThanOrEqual(400);
  expect(res.status, where).toBeLessThan(500);
  expect(String(res.headers['content-type']), where).toMatch(/application\/problem\+json/);
  expect(typeof res.body.error_code, where).toBe('string');
}

describe('bad input', () => {
  it('samples only routes that exist', () => {
    expect([...WRITE_ROUTES, ...LIST_ROUTES, ...SHOW_ROUTES].filter((route) => !registered(route))).toEqual([]);
  });

  it.each(WRITE_ROUTES)('%s refuses malformed JSON, wrong content types and schema-invalid bodies with 4xx, writing nothing', async (route) => {
    expect(registered(route), `${route} is not registered`).toBe(true);
    const [method, url] = route.split(' ') as [string, string];
    const client = clientFor(route);
    const before = await rowCounts();
    const target = withParams(url);

    const malformed = await client.request(method, target, undefined, { raw: '{"a": ', headers: { 'content-type': 'application/json' } });
    expectProblem(route, malformed, 'malformed JSON');
    expect(malformed.status).toBe(400);
    const wrongType = await client.request(method, target, undefined, { raw: 'name=x', headers: { 'content-type': 'text/plain' } });
    expectProblem(route, wrongType, 'text/plain');
    expect(wrongType.status).toBe(415);

    for (const body of invalidBodies(bodySchema(route))) expectProblem(route, await client.request(method, target, body), body);
    if (url.includes(':')) {
      for (const id of ['not-a-uuid', 'x'.repeat(2000), '%00']) {
        const res = await client.request(method, withParams(url, id), {});
        expectProblem(route, res, id);
      }
    }
    expect(await rowCounts()).toEqual(before);
  });

  it.each(WRITE_ROUTES)('%s answers arbitrary JSON with 4xx (property-based)', async (route) => {
    expect(registered(route), `${route} is not registered`).toBe(true);
    const [method, url] = route.split(' ') as [string, string];
    const client = clientFor(route);
    const before = await rowCounts();
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 3 }), async (body) => {
        expectProblem(route, await client.request(method, withParams(url), body), body);
      }),
      { numRuns: 25 },
    );
    expect(await rowCounts()).toEqual(before);
  });

  it.each(WRITE_ROUTES.filter((route) => !BODY_IGNORED.includes(route)))('%s refuses bad bodies against an existing resource with 4xx, writing nothing', async (route) => {
    expect(registered(route), `${route} is not registered`).toBe(true);
    const [method, url] = route.split(' ') as [string, string];
    const client = clientFor(route);
    const before = await rowCounts();
    for (const body of invalidBodies(bodySchema(route))) expectProblem(route, await client.request(method, withExistingIds(url), body), body);
    expect(await rowCounts()).toEqual(before);
  });

  it.each(WRITE_ROUTES)('%s never answers 5xx to strings naming Object.prototype members', async (route) => {
    expect(registered(route), `${route} is not registered`).toBe(true);
    const [method, url] = route.split(' ') as [string, string];
    const bodies = prototypeNameBodies(bodySchema(route));
    expect(bodies.length).toBeGreaterThan(0);
    for (const body of bodies) {
      const res = await clientFor(route).request(method, withExistingIds(url), body);
      expect(res.status, `${route} with ${JSON.stringify(body)}: ${JSON.stringify(res.body)}`).toBeLessThan(500);
      // The id in the URL exists: a 404 would mean the request never reached the resource. Completing is the
      // driver's action on its own tour's stop: for the admin, whose tour it is not, the stop is not there (404).
      if (route !== 'POST /api/stops/:id/complete') expect(res.status, `${route}: ${JSON.stringify(res.body)}`).not.toBe(404);
    }
  });

  it.each(LIST_ROUTES)('%s answers bad cursors, limits and unknown parameters with 400', async (route) => {
    expect(registered(route), `${route} is not registered`).toBe(true);
    const url = route.split(' ')[1]!;
    const bad = [
      'cursor=not-a-cursor',
      `cursor=${Buffer.from('{"a":1}').toString('base64url')}`,
      `cursor=${'A'.repeat(600)}`,
      'limit=0',
      'limit=101',
      'limit=abc',
      'filters[zz_unknown]=1',
      'zz_unknown=1',
      'filters=1',
    ];
    for (const query of bad) {
      const res = await tenant.admin.get(`${url}?${query}`);
      expectProblem(route, res, query);
      expect(res.status, `${route}?${query}`).toBe(400);
    }
  });

  it.each(SHOW_ROUTES)('%s answers unknown and malformed ids with 404', async (route) => {
    expect(registered(route), `${route} is not registered`).toBe(true);
    const url = route.split(' ')[1]!;
    for (const id of [UNKNOWN_ID, 'not-a-uuid', "1'; DROP TABLE events; --"]) {
      const res = await tenant.admin.get(withParams(url, encodeURIComponent(id)));
      expectProblem(route, res, id);
      expect(res.status).toBe(404);
    }
  });
});
