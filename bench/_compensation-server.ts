// The compensation benchmark's server process: the real app with 50 tours (one per autocannon connection), plus a
// bare route doing one single-row INSERT transaction through the same database layer.
import Fastify from 'fastify';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { compensationHistory } from '../src/db/schema.ts';
import { createTenant } from '../src/modules/identity/index.ts';
import { createRuntime } from '../src/runtime.ts';
import { newId } from '../src/shared/ids.ts';
import { reportReady } from './_harness.ts';

export interface CompensationInfo {
  /** Base URL of the real app. */
  realUrl: string;
  bareInsertUrl: string;
  tourIds: string[];
  token: string;
}

const TOURS = Number(process.env.BENCH_TOURS ?? 50);

const config = loadConfig();
const runtime = await createRuntime(config, { migrate: true });
const { deps } = runtime;
const { tenant, admin_token: token } = await createTenant(deps, { name: 'Bench' });
const app = await buildApp(deps);

async function call<T>(method: 'POST' | 'PUT', url: string, body: unknown, status: number): Promise<T> {
  const res = await app.inject({ method, url, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
  if (res.statusCode !== status) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.json() as T;
}

const { service_area: area } = await call<{ service_area: { id: string } }>('POST', '/api/admin/service_areas', { service_area: { name: 'Berlin', currency: 'EUR', time_zone: 'Europe/Berlin' } }, 201);
const { service } = await call<{ service: { id: string } }>('POST', '/api/admin/hailing/services', { service: { name: 'Parcels', service_area_id: area.id } }, 201);
const tourIds: string[] = [];
for (let i = 0; i < TOURS; i++) {
  const stops = [
    { type: 'pickup', location: { lat: 52.5, lng: 13.4 }, address: { street: 'Depot', city: 'Berlin' } },
    { type: 'dropoff', location: { lat: 52.51, lng: 13.41 }, address: { street: `Street ${i}`, city: 'Berlin' } },
  ];
  const { booking } = await call<{ booking: { id: string } }>('POST', '/api/hailing/bookings', { booking: { service_id: service.id, stops } }, 201);
  const { tour } = await call<{ tour: { id: string } }>('POST', '/api/hailing/bookings/merge', { booking_ids: [booking.id] }, 201);
  await call('PUT', `/api/tours/${tour.id}/compensation/base`, { amount: 4000, currency: 'EUR', label: 'Base' }, 200);
  tourIds.push(tour.id);
}
const realAddress = await app.listen({ port: 0, host: '127.0.0.1' });

const bare = Fastify();
bare.post('/bare/insert', async () => {
  const row = { tenantId: tenant.id, id: newId(), tourId: tourIds[0]!, at: new Date(), actorId: null, component: 'bonus' as const, key: 'bench', from: null, to: { amount: 1, label: null } };
  await deps.db.transaction(async (tx) => {
    await tx.insert(compensationHistory).values(row);
  });
  return { id: row.id };
});
const bareAddress = await bare.listen({ port: 0, host: '127.0.0.1' });

reportReady({ realUrl: realAddress, bareInsertUrl: `${bareAddress}/bare/insert`, tourIds, token } satisfies CompensationInfo);
