// The baseline's server process: the real app and, beside it, a bare Fastify route doing one primary-key SELECT
// of the same place through the same database layer.
import { and, eq } from 'drizzle-orm';
import Fastify from 'fastify';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { places } from '../src/db/schema.ts';
import { createTenant } from '../src/modules/identity/index.ts';
import { createRuntime } from '../src/runtime.ts';
import { reportReady } from './_harness.ts';

export interface BaselineInfo {
  bareUrl: string;
  realUrl: string;
  token: string;
}

const config = loadConfig();
const runtime = await createRuntime(config, { migrate: true });
const { deps } = runtime;

const { tenant, admin_token: token } = await createTenant(deps, { name: 'Bench' });
const app = await buildApp(deps);
const created = await app.inject({
  method: 'POST',
  url: '/api/places',
  headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
  payload: JSON.stringify({ place: { name: 'Depot', location: { lat: 52.52, lng: 13.405 }, address: { street: 'Alexanderplatz', number: '1', city: 'Berlin' } } }),
});
if (created.statusCode !== 201) throw new Error(`could not create the bench place: ${created.body}`);
const placeId = (created.json() as { place: { id: string } }).place.id;
const realAddress = await app.listen({ port: 0, host: '127.0.0.1' });

const bare = Fastify();
bare.get<{ Params: { id: string } }>('/bare/:id', async (request) => {
  const [row] = await deps.db
    .select()
    .from(places)
    .where(and(eq(places.tenantId, tenant.id), eq(places.id, request.params.id)));
  return { place: row };
});
const bareAddress = await bare.listen({ port: 0, host: '127.0.0.1' });

reportReady({ bareUrl: `${bareAddress}/bare/${placeId}`, realUrl: `${realAddress}/api/places/${placeId}`, token } satisfies BaselineInfo);
