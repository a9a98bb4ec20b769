// A generated battery of hostile requests against EVERY operation of the OpenAPI document (issue 11, finding 2):
// nesting depth, lone surrogates, non-finite and extreme numbers, out-of-range dates, huge strings and wrong types,
// each invalid by construction. Every answer is 4xx problem+json and nothing is written. Bounded per operation.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/sql.ts';
import { buildTestApp, OPERATOR_TOKEN, type Client, type TestApp, type TestTenant } from '../app.ts';
import { createBooking, createOrganization, createPlace, createService, createServiceArea, createUser, createWebhook, expectOk, mergeIntoTour } from '../factories.ts';

type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  anyOf?: Schema[];
  items?: Schema;
  format?: string;
  enum?: unknown[];
  const?: unknown;
  minLength?: number;
  minItems?: number;
  minimum?: number;
};
interface Operation {
  requestBody?: { content: { 'application/json'?: { schema: Schema } } };
  parameters?: { in: string; name: string; schema?: Schema }[];
}

let t: TestApp;
let tenant: TestTenant;
let operations: { method: string; path: string; op: Operation }[];
/** Ids of existing resources, by the path segment before the parameter: requests reach the operation, not a 404. */
let existing: Record<string, string>;

beforeAll(async () => {
  t = await buildTestApp();
  tenant = await t.createTenant();
  const openapi = (await t.anonymous.get('/openapi.json')).body as { paths: Record<string, Record<string, Operation>> };
  operations = Object.entries(openapi.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
      .map(([method, op]) => ({ method: method.toUpperCase(), path, op })),
  );
  const area = await createServiceArea(tenant.admin);
  const service = await createService(tenant.admin, { service_area_id: area.id });
  const booking = await createBooking(tenant.admin, { service_id: service.id });
  const tour = await mergeIntoTour(tenant.admin, [(await createBooking(tenant.admin, { service_id: service.id })).id]);
  const webhook = await createWebhook(tenant.admin, 'https://example.com/hooks');
  await expectOk(tenant.admin.post(`/api/admin/webhooks/${webhook.id}/test`, {}), 202).catch(() => undefined);
  const deliveries = (await tenant.admin.get(`/api/admin/webhooks/${webhook.id}/deliveries`)).body?.deliveries ?? [];
  const user = await createUser(tenant.admin, { role: 'manager' });
  const config = (await expectOk(tenant.admin.post('/api/admin/hailing/scheduling_configs', { scheduling_config: { name: 'Battery' } }), 201)).scheduling_config;
  const apiKey = (await expectOk(tenant.admin.post('/api/admin/api_keys', { api_key: { name: 'battery', user_id: user.id } }), 201)).api_key;
  const reasons = (await expectOk(tenant.admin.get('/api/admin/reasons/package_failure'))).reasons ?? [];
  existing = {
    places: (await createPlace(tenant.admin)).id,
    services: service.id,
    scheduling_configs: config.id,
    service_areas: area.id,
    organizations: (await createOrganization(tenant.admin)).id,
    users: user.id,
    api_keys: apiKey.id,
    tenants: tenant.tenantId,
    bookings: booking.id,
    stops: booking.stops[0].id,
    packages: booking.packages[0].id,
    tours: tour.id,
    webhooks: webhook.id,
    deliveries: deliveries[0]?.id ?? '0190b6c8-0000-7000-8000-00000000beef',
    package_failure: reasons[0]?.key ?? 'damaged',
  };
});
afterAll(async () => t.close());

const clientFor = (path: string): Client => (path.startsWith('/api/operator/') ? t.client(OPERATOR_TOKEN) : tenant.admin);
const urlOf = (path: string): string => path.replace(/([\w-]+)\/\{\w+\}/g, (_, collection: string) => `${collection}/${existing[collection] ?? '0190b6c8-0000-7000-8000-00000000beef'}`);

const typeOf = (schema: Schema): string | undefined => {
  if (schema.anyOf) return schema.anyOf.map(typeOf).find((type) => type && type !== 'null');
  return Array.isArray(schema.type) ? schema.type.find((type) => type !== 'null') : schema.type;
};
const objectOf = (schema: Schema): Schema => (schema.anyOf ? (schema.anyOf.find((s) => s.properties) ?? schema) : schema);

/** A skeleton that satisfies the schema's shape (required members, formats, enums), so a mutation is what fails. */
function skeleton(schema: Schema, depth = 0): unknown {
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return schema.enum[0];
  switch (typeOf(schema)) {
    case 'object': {
      const inner = objectOf(schema);
      return Object.fromEntries((inner.required ?? []).map((name) => [name, depth > 5 ? null : skeleton(inner.properties?.[name] ?? {}, depth + 1)]));
    }
    case 'array':
      return Array.from({ length: schema.minItems ?? 0 }, () => skeleton(schema.items ?? {}, depth + 1));
    case 'string':
      if (schema.format === 'date-time') return '2026-06-01T08:00:00Z';
      if (schema.format === 'uuid') return existing.places;
      if (schema.format === 'email') return 'battery@example.com';
      if (schema.format === 'uri') return 'https://example.com/battery';
      return 'x'.repeat(Math.max(1, schema.minLength ?? 1));
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return false;
    default:
      return null;
  }
}

/** Leaves of the schema (up to three levels down) with their pointer segments and schema. */
function leaves(schema: Schema, path: string[] = [], depth = 0): { path: string[]; schema: Schema }[] {
  const inner = objectOf(schema);
  if (typeOf(schema) !== 'object' || !inner.properties || depth > 3) return [{ path, schema }];
  return Object.entries(inner.properties).flatMap(([name, field]) => leaves(field, [...path, name], depth + 1));
}

function withValue(base: unknown, path: string[], value: unknown): unknown {
  if (!path.length) return value;
  const [head, ...rest] = path as [string, ...string[]];
  const object = typeof base === 'object' && base !== null && !Array.isArray(base) ? (base as Record<string, unknown>) : {};
  return { ...object, [head]: withValue(object[head], rest, value) };
}

/** A placeholder swapped for raw JSON text after stringifying (JSON.stringify cannot write 1e400 or a lone surrogate). */
const RAW = (text: string) => `@@RAW:${text}@@`;
const render = (body: unknown): string =>
  JSON.stringify(body).replace(/"@@RAW:((?:[^"\\]|\\.)*?)@@"/g, (_, escaped: string) => JSON.parse(`"${escaped}"`) as string);

const nested = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);

/** The hostile bodies for one operation: each is invalid whatever the schema, so each must be refused. */
function battery(schema: Schema | null): { label: string; raw: string }[] {
  const base = schema ? skeleton(schema) : {};
  const cases: { label: string; raw: string }[] = [
    { label: 'depth 100', raw: nested(100) },
    { label: 'depth 5000', raw: nested(5000) },
    { label: 'deep inside the body', raw: render(withValue(base, [Object.keys(base as object)[0] ?? 'x', 'zz_deep'], RAW(nested(80)))) },
    { label: 'lone surrogate at the top', raw: '{"zz":"a\\ud800b"}' },
    { label: 'huge string (2 MiB)', raw: JSON.stringify({ zz: 'x'.repeat(2 * 1024 * 1024) }) },
    { label: 'null', raw: 'null' },
    { label: 'a number', raw: '1e400' },
  ];
  const fields = schema ? leaves(schema) : [];
  const strings = fields.filter((f) => typeOf(f.schema) === 'string' && f.path.length);
  const numbers = fields.filter((f) => (typeOf(f.schema) === 'number' || typeOf(f.schema) === 'integer') && f.path.length);
  const dates = fields.filter((f) => f.schema.format === 'date-time' || f.schema.anyOf?.some((s) => s.format === 'date-time'));
  // Bounded: at most three fields of each kind per operation.
  for (const f of strings.slice(0, 3)) cases.push({ label: `lone surrogate in /${f.path.join('/')}`, raw: render(withValue(base, f.path, RAW('"x\\udc00"'))) });
  for (const f of numbers.slice(0, 3)) {
    cases.push({ label: `1e400 in /${f.path.join('/')}`, raw: render(withValue(base, f.path, RAW('1e400'))) });
    cases.push({ label: `-1e400 in /${f.path.join('/')}`, raw: render(withValue(base, f.path, RAW('-1e400'))) });
    cases.push({ label: `a string in /${f.path.join('/')}`, raw: render(withValue(base, f.path, '1')) });
  }
  for (const f of dates.slice(0, 3)) {
    for (const at of ['0000-01-01T00:00:00Z', '1969-12-31T23:59:59Z', '10000-01-01T00:00:00Z', '2026-02-30T00:00:00Z']) {
      cases.push({ label: `${at} in /${f.path.join('/')}`, raw: render(withValue(base, f.path, at)) });
    }
  }
  for (const f of strings.slice(0, 2)) cases.push({ label: `an object in /${f.path.join('/')}`, raw: render(withValue(base, f.path, { zz: 1 })) });
  return cases;
}

/** Hostile query strings for reads: out-of-range dates in every date filter, non-finite limits, huge cursors. */
function queryBattery(op: Operation): string[] {
  const names = (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
  const cases = ['limit=1e400', 'limit=-1', `cursor=${'A'.repeat(5000)}`, 'zz_unknown=1', `filters[zz]=${'x'.repeat(3000)}`];
  for (const name of names.filter((n) => /filters/.test(n))) cases.push(`${name}=0000-01-01T00:00:00Z`);
  for (const filter of ['created_after', 'created_before', 'since']) cases.push(`filters[${filter}]=0000-01-01T00:00:00Z`, `filters[${filter}]=99999-01-01T00:00:00Z`);
  return cases;
}

/** Row counts of every table but the idempotency store, in one statement: a refused request writes none of them. */
let countAll: ReturnType<typeof sql> | null = null;
async function rowCounts(): Promise<Record<string, number>> {
  if (!countAll) {
    const tables = await queryRows<{ table_name: string }>(
      t.deps.db,
      sql`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name <> 'idempotency_keys' ORDER BY table_name`,
    );
    countAll = sql.join(
      [sql`SELECT `, sql.join(tables.map(({ table_name }) => sql`(SELECT count(*)::int FROM ${sql.identifier(table_name)}) AS ${sql.identifier(table_name)}`), sql`, `)],
      sql``,
    );
  }
  const [row] = await queryRows<Record<string, number>>(t.deps.db, countAll);
  return row ?? {};
}

/** Operations are split into this many tests so each stays well inside the test timeout on a busy machine. */
const CHUNKS = 12;

describe('the hostile battery', () => {
  it('covers every operation of the OpenAPI document', () => {
    expect(operations.length).toBeGreaterThan(60);
    const documented = new Set(operations.map((o) => `${o.method} ${o.path.replace(/\{(\w+)\}/g, ':$1')}`));
    const registered = t.app.routeTable.filter((r) => !r.hidden && r.url.startsWith('/api/') && r.method !== 'HEAD').map((r) => `${r.method} ${r.url}`);
    expect(registered.filter((route) => !documented.has(route))).toEqual([]);
  });

  it.each(Array.from({ length: CHUNKS }, (_, i) => i))('answers every hostile request with 4xx problem+json and writes nothing (operations ≡ %i mod 12)', async (chunk) => {
    let sent = 0;
    for (const { method, path, op } of operations.filter((_, i) => i % CHUNKS === chunk)) {
      const client = clientFor(path);
      const url = urlOf(path);
      const before = await rowCounts();
      const schema = op.requestBody?.content['application/json']?.schema ?? null;
      const requests =
        method === 'GET'
          ? queryBattery(op).map((query) => ({ label: query.slice(0, 80), send: () => client.request('GET', `${url}?${query}`) }))
          : battery(schema).map(({ label, raw }) => ({
              label,
              send: () => client.request(method, url, undefined, { raw, headers: { 'content-type': 'application/json' } }),
            }));
      for (const { label, send } of requests) {
        const res = await send();
        sent++;
        const where = `${method} ${path} — ${label}: ${res.status} ${res.text.slice(0, 300)}`;
        expect(res.status, where).toBeGreaterThanOrEqual(400);
        expect(res.status, where).toBeLessThan(500);
        expect(String(res.headers['content-type']), where).toMatch(/application\/problem\+json/);
      }
      expect(await rowCounts(), `${method} ${path} wrote`).toEqual(before);
    }
    expect(sent).toBeGreaterThan(30);
  });
});
