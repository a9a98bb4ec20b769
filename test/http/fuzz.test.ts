// Bad input never causes a 500 or a write: every sampled route gets wrong types, missing and extra fields, huge
// strings, bad ids, bad cursors, malformed JSON and wrong content types, and must answer 4xx problem+json.
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/sql.ts';
import { buildTestApp, OPERATOR_TOKEN, type Client, type TestApp, type TestTenant } from '../app.ts';

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
];
const LIST_ROUTES = ['GET /api/admin/events', 'GET /api/places', 'GET /api/admin/webhooks', 'GET /api/admin/hailing/services'];
const SHOW_ROUTES = ['GET /api/places/:id', 'GET /api/admin/hailing/services/:id', 'GET /api/admin/webhooks/:id'];

type Schema = { type?: string | string[]; properties?: Record<string, Schema>; anyOf?: Schema[]; required?: string[] };

let t: TestApp;
let tenant: TestTenant;
let openapi: { paths: Record<string, Record<string, { requestBody?: { content: { 'application/json': { schema: Schema } } } }>> };
const registered = (route: string) => t.app.routeTable.some((r) => `${r.method} ${r.url}` === route);

beforeAll(async () => {
  t = await buildTestApp();
  tenant = await t.createTenant();
  openapi = (await t.anonymous.get('/openapi.json')).body;
});
afterAll(async () => t.close());

const clientFor = (route: string): Client => (route.includes('/api/operator/') ? t.client(OPERATOR_TOKEN) : tenant.admin);
const UNKNOWN_ID = '0190b6c8-0000-7000-8000-00000000beef';
const withParams = (url: string, value = UNKNOWN_ID) => url.replace(/:\w+/g, value);

function bodySchema(route: string): Schema | null {
  const [method, url] = route.split(' ') as [string, string];
  const path = url.replace(/:(\w+)/g, '{$1}');
  return openapi.paths[path]?.[method.toLowerCase()]?.requestBody?.content['application/json'].schema ?? null;
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
      if (typeOf(innerSchema) === 'string') bodies.push({ [name]: { [inner]: 'x'.repeat(100_000) } });
      bodies.push({ [name]: { [inner]: null, zz_unknown_field: 'x' } });
    }
  }
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
  it('samples routes that exist', () => {
    for (const route of ['PATCH /api/admin/tenant', 'PATCH /api/operator/tenants/:id', 'GET /api/admin/events']) expect(registered(route)).toBe(true);
  });

  it.each(WRITE_ROUTES)('%s refuses malformed JSON, wrong content types and schema-invalid bodies with 4xx, writing nothing', async (route) => {
    if (!registered(route)) return;
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
    if (!registered(route)) return;
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

  it.each(LIST_ROUTES)('%s answers bad cursors, limits and unknown parameters with 400', async (route) => {
    if (!registered(route)) return;
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
    if (!registered(route)) return;
    const url = route.split(' ')[1]!;
    for (const id of [UNKNOWN_ID, 'not-a-uuid', "1'; DROP TABLE events; --"]) {
      const res = await tenant.admin.get(withParams(url, encodeURIComponent(id)));
      expectProblem(route, res, id);
      expect(res.status).toBe(404);
    }
  });
});
