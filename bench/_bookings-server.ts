// The bookings benchmark's server process: the real app plus bare routes doing one single-row INSERT transaction and
// one primary-key SELECT through the same database layer; two tenants seeded with 10,000 and 200,000 bookings
// visible to one manager's organization.
import { and, eq, sql } from 'drizzle-orm';
import Fastify from 'fastify';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { bookings, packageHistory } from '../src/db/schema.ts';
import { createTenant } from '../src/modules/identity/index.ts';
import { createRuntime } from '../src/runtime.ts';
import { newId } from '../src/shared/ids.ts';
import { reportReady } from './_harness.ts';

export interface BookingsInfo {
  realCreateUrl: string;
  createBody: string;
  bareInsertUrl: string;
  realShowUrl: string;
  bareSelectUrl: string;
  adminToken: string;
  listUrl: string;
  smallManagerToken: string;
  largeManagerToken: string;
}

const SMALL = Number(process.env.BENCH_SMALL_BOOKINGS ?? 10_000);
const LARGE = Number(process.env.BENCH_LARGE_BOOKINGS ?? 200_000);

const config = loadConfig();
const runtime = await createRuntime(config, { migrate: true });
const { deps } = runtime;
const app = await buildApp(deps);

async function call<T>(token: string, method: 'GET' | 'POST', url: string, body: unknown, status: number): Promise<T> {
  const res = await app.inject({ method, url, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
  if (res.statusCode !== status) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.json() as T;
}

/** A tenant with a service, two places, an organization and a manager of it. */
async function tenantWorld(name: string) {
  const { tenant, admin_token: admin } = await createTenant(deps, { name });
  const area = (await call<{ service_area: { id: string } }>(admin, 'POST', '/api/admin/service_areas', { service_area: { name: 'Berlin', currency: 'EUR', time_zone: 'Europe/Berlin' } }, 201)).service_area;
  const org = (await call<{ organization: { id: string } }>(admin, 'POST', '/api/organizations', { organization: { name: 'Couriers' } }, 201)).organization;
  const manager = (await call<{ user: { id: string } }>(admin, 'POST', '/api/users', { user: { role: 'manager', name: 'M', email: `m@${name}.bench`, organization_ids: [org.id] } }, 201)).user;
  const key = (await call<{ api_key: { token: string } }>(admin, 'POST', '/api/admin/api_keys', { api_key: { name: 'm', user_id: manager.id } }, 201)).api_key;
  const service = (await call<{ service: { id: string } }>(admin, 'POST', '/api/admin/hailing/services', { service: { name: 'Parcels', service_area_id: area.id } }, 201)).service;
  const place = async (street: string, lat: number) =>
    (await call<{ place: { id: string } }>(admin, 'POST', '/api/places', { place: { name: street, location: { lat, lng: 13.4 }, address: { street, number: '1', city: 'Berlin' } } }, 201)).place.id;
  return { tenantId: tenant.id, admin, orgId: org.id, managerToken: key.token, serviceId: service.id, serviceAreaId: area.id, places: [await place('Depot', 52.5), await place('Mall', 52.52)] };
}

/**
 * `count` bookings of two stops each, visible to `orgId`, written in SQL (the API would take hours at 200,000).
 * Ids are time-ordered like UUIDv7 (older than anything created later), so keyset pagination sees real order.
 */
async function seed(w: Awaited<ReturnType<typeof tenantWorld>>, count: number): Promise<void> {
  const id = (expr: string) =>
    `(substr(lpad(to_hex(${expr}), 12, '0'), 1, 8) || '-' || substr(lpad(to_hex(${expr}), 12, '0'), 9, 4) || '-7000-8000-' || lpad(to_hex(${expr}), 12, '0'))::uuid`;
  const address = `'{"street": "Mall", "number": "1", "zip_code": null, "city": "Berlin", "country": null, "additional_line": null}'::jsonb`;
  const now = new Date().toISOString();
  await deps.db.execute(sql.raw(`
    INSERT INTO bookings (tenant_id, id, service_id, service_area_id, status, managing_organization_ids, preferred_driver_ids, metadata, created_at, updated_at)
    SELECT '${w.tenantId}', ${id('i')}, '${w.serviceId}', '${w.serviceAreaId}', 'to_be_dispatched', ARRAY['${w.orgId}']::uuid[], '{}', '{}', '${now}', '${now}'
      FROM generate_series(1, ${count}) AS i`));
  await deps.db.execute(sql.raw(`
    INSERT INTO booking_visibility (tenant_id, organization_id, booking_id)
    SELECT '${w.tenantId}', '${w.orgId}', ${id('i')} FROM generate_series(1, ${count}) AS i`));
  for (const p of [0, 1]) {
    await deps.db.execute(sql.raw(`
      INSERT INTO stops (tenant_id, id, booking_id, type, status, position, place_id, lat, lng, address, "group", service_duration_seconds, created_at, updated_at)
      SELECT '${w.tenantId}', ${id(`i * 2 + ${p} + ${count * 4}`)}, ${id('i')}, '${p === 0 ? 'pickup' : 'dropoff'}', 'to_be_dispatched', ${p},
             '${w.places[p]}', 52.5, 13.4, ${address}, 'A-${p === 0 ? 'pickup' : 'dropoff'}-${w.places[p]}', 120, '${now}', '${now}'
        FROM generate_series(1, ${count}) AS i`));
  }
  // VACUUM too: the seeded rows would otherwise keep autovacuum busy during the first runs.
  await deps.db.execute(sql`VACUUM ANALYZE`);
}

const main = await tenantWorld('bench-main');
const small = await tenantWorld('bench-small');
const large = await tenantWorld('bench-large');
await seed(small, SMALL);
await seed(large, LARGE);

const createBody = JSON.stringify({
  booking: {
    service_id: main.serviceId,
    stops: [
      { type: 'pickup', place_id: main.places[0] },
      { type: 'dropoff', place_id: main.places[1] },
    ],
    packages: [{ pickup_stop_index: 0, dropoff_stop_index: 1 }],
  },
});
const shown = await call<{ booking: { id: string } }>(main.admin, 'POST', '/api/hailing/bookings', JSON.parse(createBody), 201);
const realAddress = await app.listen({ port: 0, host: '127.0.0.1' });

const bare = Fastify();
bare.post('/bare/insert', async () => {
  const row = { tenantId: main.tenantId, id: newId(), packageId: shown.booking.id, at: new Date(), event: 'bench' };
  await deps.db.transaction(async (tx) => {
    await tx.insert(packageHistory).values(row);
  });
  return { id: row.id };
});
bare.get<{ Params: { id: string } }>('/bare/bookings/:id', async (request) => {
  const [row] = await deps.db
    .select()
    .from(bookings)
    .where(and(eq(bookings.tenantId, main.tenantId), eq(bookings.id, request.params.id)));
  return { booking: row };
});
const bareAddress = await bare.listen({ port: 0, host: '127.0.0.1' });

reportReady({
  realCreateUrl: `${realAddress}/api/hailing/bookings`,
  createBody,
  bareInsertUrl: `${bareAddress}/bare/insert`,
  realShowUrl: `${realAddress}/api/hailing/bookings/${shown.booking.id}`,
  bareSelectUrl: `${bareAddress}/bare/bookings/${shown.booking.id}`,
  adminToken: main.admin,
  listUrl: `${realAddress}/api/hailing/bookings`,
  smallManagerToken: small.managerToken,
  largeManagerToken: large.managerToken,
} satisfies BookingsInfo);
