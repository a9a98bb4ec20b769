// The tracking benchmark's server process: the real app, a bare one-SELECT route, and a tenant with TOURS en-route
// tours of BOOKINGS bookings each, every tour's driver already past its first pickup so that one booking per tour is
// the one the driver heads to (its recipients see the position). Reports every booking's tracking token.
import { and, eq } from 'drizzle-orm';
import Fastify from 'fastify';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { bookings } from '../src/db/schema.ts';
import { createTenant } from '../src/modules/identity/index.ts';
import { createRuntime } from '../src/runtime.ts';
import { reportReady } from './_harness.ts';

export interface TrackingInfo {
  realUrl: string;
  bareUrl: string;
  rssUrl: string;
  tours: { id: string; driverToken: string; headingToken: string; tokens: string[] }[];
}

const TOURS = Number(process.env.BENCH_TRACKING_TOURS ?? 50);
const BOOKINGS = Number(process.env.BENCH_TRACKING_BOOKINGS_PER_TOUR ?? 10);

const config = loadConfig();
const runtime = await createRuntime(config, { migrate: true });
const { deps } = runtime;
const app = await buildApp(deps);

async function call<T>(token: string, method: 'GET' | 'POST', url: string, body: unknown, status: number): Promise<T> {
  const res = await app.inject({ method, url, headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, ...(body === undefined ? {} : { payload: JSON.stringify(body) }) });
  if (res.statusCode !== status) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.json() as T;
}

const { tenant, admin_token: admin } = await createTenant(deps, { name: 'bench-tracking' });
type Id = { id: string };
const area = (await call<{ service_area: Id }>(admin, 'POST', '/api/admin/service_areas', { service_area: { name: 'Berlin', currency: 'EUR', time_zone: 'Europe/Berlin' } }, 201)).service_area;
const service = (await call<{ service: Id }>(admin, 'POST', '/api/admin/hailing/services', { service: { name: 'Parcels', service_area_id: area.id, max_stops_per_tour: 100 } }, 201)).service;
const places: string[] = [];
for (let i = 0; i < 2 * BOOKINGS; i++) {
  const place = await call<{ place: Id }>(admin, 'POST', '/api/places', { place: { name: `P${i}`, location: { lat: 52.45 + i * 0.004, lng: 13.3 + (i % 5) * 0.03 }, address: { street: 'S', number: String(i), city: 'Berlin' } } }, 201);
  places.push(place.place.id);
}
const tokenOf = (url: string) => url.split('/').pop()!;
const organization = (await call<{ organization: Id }>(admin, 'POST', '/api/organizations', { organization: { name: 'Couriers' } }, 201)).organization;
const tours: TrackingInfo['tours'] = [];
let anyBookingId = '';
for (let t = 0; t < TOURS; t++) {
  const driver = (await call<{ user: Id }>(admin, 'POST', '/api/users', { user: { role: 'driver', name: `Driver ${t}`, email: `d${t}@tracking.bench`, organization_ids: [organization.id] } }, 201)).user;
  const driverToken = (await call<{ api_key: { token: string } }>(admin, 'POST', '/api/admin/api_keys', { api_key: { name: 'k', user_id: driver.id } }, 201)).api_key.token;
  const bookingIds: string[] = [];
  for (let b = 0; b < BOOKINGS; b++) {
    const stops = [{ type: 'pickup', place_id: places[2 * b] }, { type: 'dropoff', place_id: places[2 * b + 1] }];
    bookingIds.push((await call<{ booking: Id }>(admin, 'POST', '/api/hailing/bookings', { booking: { service_id: service.id, stops, packages: [{ pickup_stop_index: 0, dropoff_stop_index: 1 }] } }, 201)).booking.id);
  }
  anyBookingId = bookingIds[0]!;
  const tour = (await call<{ tour: Id }>(admin, 'POST', '/api/hailing/bookings/merge', { booking_ids: bookingIds }, 201)).tour;
  const started = (await call<{ tour: { stops: { id: string; type: string; booking_id: string }[] } }>(admin, 'POST', `/api/hailing/tours/${tour.id}/force_assign`, { driver_id: driver.id, start: true }, 200)).tour;
  // The driver completes stops until the next one is a drop-off: its booking's recipients see the position.
  let heading = '';
  for (const stop of started.stops) {
    if (stop.type === 'dropoff') {
      heading = stop.booking_id;
      break;
    }
    for (const action of ['approach', 'arrive', 'complete']) await call(driverToken, 'POST', `/api/stops/${stop.id}/${action}`, {}, 200);
  }
  const tokens: string[] = [];
  let headingToken = '';
  for (const id of bookingIds) {
    const token = tokenOf((await call<{ booking: { tracking: { url: string } } }>(admin, 'GET', `/api/hailing/bookings/${id}`, undefined, 200)).booking.tracking.url);
    tokens.push(token);
    if (id === heading) headingToken = token;
  }
  tours.push({ id: tour.id, driverToken, headingToken, tokens });
}
const realAddress = await app.listen({ port: 0, host: '127.0.0.1' });

const bare = Fastify();
bare.get('/bare/booking', async () => {
  const [row] = await deps.db.select().from(bookings).where(and(eq(bookings.tenantId, tenant.id), eq(bookings.id, anyBookingId)));
  return { booking: { id: row?.id, status: row?.status } };
});
bare.get('/bare/rss', async () => ({ rss: process.memoryUsage().rss }));
const bareAddress = await bare.listen({ port: 0, host: '127.0.0.1' });

reportReady({ realUrl: realAddress, bareUrl: `${bareAddress}/bare/booking`, rssUrl: `${bareAddress}/bare/rss`, tours } satisfies TrackingInfo);
