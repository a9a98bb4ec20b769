// The live benchmark's server process: the real app, a bare one-INSERT route, and a tenant with TOURS en_route tours
// of 30 stops each (15 bookings), their drivers spread over ORGS organizations with one manager token per stream.
import Fastify from 'fastify';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { packageHistory } from '../src/db/schema.ts';
import { createTenant } from '../src/modules/identity/index.ts';
import { createRuntime } from '../src/runtime.ts';
import { newId } from '../src/shared/ids.ts';
import { reportReady } from './_harness.ts';

export interface LiveInfo {
  realUrl: string;
  bareInsertUrl: string;
  rssUrl: string;
  tours: { id: string; driverToken: string; organization: number; stop: { lat: number; lng: number } }[];
  managerTokens: string[][];
}

const TOURS = Number(process.env.BENCH_LIVE_TOURS ?? 20);
const ORGS = Number(process.env.BENCH_LIVE_ORGS ?? 10);
const MANAGERS_PER_ORG = Number(process.env.BENCH_LIVE_MANAGERS_PER_ORG ?? 100);

const config = loadConfig();
const runtime = await createRuntime(config, { migrate: true });
const { deps } = runtime;
const app = await buildApp(deps);

// BENCH_LIVE_ROLE=listener: a second API process on the same database (the delivery part holds its streams here).
if (process.env.BENCH_LIVE_ROLE === 'listener') {
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  const side = Fastify();
  side.get('/bare/rss', async () => ({ rss: process.memoryUsage().rss }));
  const sideAddress = await side.listen({ port: 0, host: '127.0.0.1' });
  reportReady({ realUrl: address, bareInsertUrl: '', rssUrl: `${sideAddress}/bare/rss`, tours: [], managerTokens: [] } satisfies LiveInfo);
} else {

async function call<T>(token: string, method: 'GET' | 'POST', url: string, body: unknown, status: number): Promise<T> {
  const res = await app.inject({ method, url, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
  if (res.statusCode !== status) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.json() as T;
}

const { admin_token: admin } = await createTenant(deps, { name: 'bench-live' });
type Id = { id: string };
const area = (await call<{ service_area: Id }>(admin, 'POST', '/api/admin/service_areas', { service_area: { name: 'Berlin', currency: 'EUR', time_zone: 'Europe/Berlin' } }, 201)).service_area;
const service = (await call<{ service: Id }>(admin, 'POST', '/api/admin/hailing/services', { service: { name: 'Parcels', service_area_id: area.id, max_stops_per_tour: 100 } }, 201)).service;
const places: string[] = [];
for (let i = 0; i < 30; i++) {
  const place = await call<{ place: Id }>(admin, 'POST', '/api/places', { place: { name: `P${i}`, location: { lat: 52.45 + i * 0.004, lng: 13.3 + (i % 5) * 0.03 }, address: { street: 'S', number: String(i), city: 'Berlin' } } }, 201);
  places.push(place.place.id);
}
const orgs: string[] = [];
const managerTokens: string[][] = [];
for (let o = 0; o < ORGS; o++) {
  orgs.push((await call<{ organization: Id }>(admin, 'POST', '/api/organizations', { organization: { name: `Org ${o}` } }, 201)).organization.id);
  const tokens: string[] = [];
  for (let m = 0; m < MANAGERS_PER_ORG; m++) {
    const user = (await call<{ user: Id }>(admin, 'POST', '/api/users', { user: { role: 'manager', name: `M${o}-${m}`, email: `m${o}-${m}@live.bench`, organization_ids: [orgs[o]] } }, 201)).user;
    tokens.push((await call<{ api_key: { token: string } }>(admin, 'POST', '/api/admin/api_keys', { api_key: { name: 'k', user_id: user.id } }, 201)).api_key.token);
  }
  managerTokens.push(tokens);
}
const tours: LiveInfo['tours'] = [];
for (let t = 0; t < TOURS; t++) {
  const organization = t % ORGS;
  const driver = (await call<{ user: Id }>(admin, 'POST', '/api/users', { user: { role: 'driver', name: `D${t}`, email: `d${t}@live.bench`, organization_ids: [orgs[organization]] } }, 201)).user;
  const driverToken = (await call<{ api_key: { token: string } }>(admin, 'POST', '/api/admin/api_keys', { api_key: { name: 'k', user_id: driver.id } }, 201)).api_key.token;
  const bookingIds: string[] = [];
  for (let b = 0; b < 15; b++) {
    const stops = [{ type: 'pickup', place_id: places[(2 * b) % 30] }, { type: 'dropoff', place_id: places[(2 * b + 1) % 30] }];
    bookingIds.push((await call<{ booking: Id }>(admin, 'POST', '/api/hailing/bookings', { booking: { service_id: service.id, stops, packages: [{ pickup_stop_index: 0, dropoff_stop_index: 1 }] } }, 201)).booking.id);
  }
  const tour = (await call<{ tour: Id }>(admin, 'POST', '/api/hailing/bookings/merge', { booking_ids: bookingIds }, 201)).tour;
  await call(admin, 'POST', `/api/hailing/tours/${tour.id}/force_assign`, { driver_id: driver.id, start: true }, 200);
  tours.push({ id: tour.id, driverToken, organization, stop: { lat: 52.45, lng: 13.3 } });
}
const NIL = '00000000-0000-0000-0000-000000000000';
const realAddress = await app.listen({ port: 0, host: '127.0.0.1' });

const bare = Fastify();
bare.post('/bare/insert', async () => {
  const row = { tenantId: NIL, id: newId(), packageId: NIL, at: new Date(), event: 'bench' };
  await deps.db.transaction(async (tx) => {
    await tx.insert(packageHistory).values(row);
  });
  return { id: row.id };
});
bare.get('/bare/rss', async () => ({ rss: process.memoryUsage().rss }));
const bareAddress = await bare.listen({ port: 0, host: '127.0.0.1' });

reportReady({ realUrl: realAddress, bareInsertUrl: `${bareAddress}/bare/insert`, rssUrl: `${bareAddress}/bare/rss`, tours, managerTokens } satisfies LiveInfo);
}
