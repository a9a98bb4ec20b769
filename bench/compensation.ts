// Compensation (issue 13), on PGlite and PostgreSQL:
// (1) PUT /api/tours/{id}/compensation/bonus/{key} from 50 connections, each writing to its own tour (every request
//     changes the amount, so each is a real write: row lock, history row, debounce job) vs a bare single-row INSERT
//     transaction route in the same run — goal ratio ≥ 0.5. Alternating rounds (BENCH_ROUNDS, default 3), medians.
// (2) 1,000 changes to one tour inside the 120 s quiet window (ManualClock) yield exactly one delivery to a real
//     receiving HTTP server, carrying the last state.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { createTenant } from '../src/modules/identity/index.ts';
import { createRuntime } from '../src/runtime.ts';
import { ManualClock } from '../src/shared/clock.ts';
import { createWorker } from '../src/worker/loop.ts';
import '../src/worker/handlers.ts';
import { comparedTo, finishReport, load, machineDescription, scratchDatabase, startServer, summarize, type DatabaseKind, type LoadResult, type ServerHandle } from './_harness.ts';
import type { CompensationInfo } from './_compensation-server.ts';

const SERVER = path.join(path.dirname(fileURLToPath(import.meta.url)), '_compensation-server.ts');
const DURATION = Number(process.env.BENCH_DURATION_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = 50;
const kinds: DatabaseKind[] = (process.env.BENCH_DATABASES?.split(',') as DatabaseKind[] | undefined) ?? ['pglite', 'postgres'];

console.log(`Machine: ${machineDescription()}`);
console.log(`autocannon: ${CONNECTIONS} connections, ${DURATION} s per run after a 2 s warm-up, ${ROUNDS} alternating rounds, medians\n`);

/** 50 connections, each PUTting bonuses to its own tour with an amount that changes on every request. */
async function bonusWrites(server: ServerHandle<CompensationInfo>, label: string): Promise<LoadResult> {
  const { info } = server;
  let nextTour = 0;
  let amount = 0;
  // autocannon keeps one context per connection: the first request of a connection picks its tour.
  const requests: autocannon.Request[] = [
    {
      method: 'PUT',
      setupRequest: (req: autocannon.Request, context: object) => {
        const own = context as { tour?: string };
        own.tour ??= info.tourIds[nextTour++ % info.tourIds.length];
        amount++;
        return { ...req, path: `/api/tours/${own.tour}/compensation/bonus/k${amount % 5}`, body: JSON.stringify({ amount, currency: 'EUR', label: 'Bench' }) };
      },
    },
  ];
  const headers = { authorization: `Bearer ${info.token}`, 'content-type': 'application/json' };
  await autocannon({ url: info.realUrl, headers, requests, connections: 10, duration: 2 });
  const before = await server.cpuMicros();
  const result = await autocannon({ url: info.realUrl, headers, requests, connections: CONNECTIONS, duration: DURATION });
  const after = await server.cpuMicros();
  return {
    label,
    requestsPerSecond: result.requests.average,
    cpuMicrosPerRequest: (after - before) / Math.max(1, result.requests.total),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    otherCpuMicrosPerRequest: {},
  };
}

/** 1,000 changes inside one window, then the window passes: count the deliveries a real receiver gets. */
async function burst(kind: DatabaseKind): Promise<Record<string, string | number>> {
  const database = await scratchDatabase(kind);
  const received: { total_amount: number }[] = [];
  const receiver = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      received.push((JSON.parse(body) as { data: { total_amount: number } }).data);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const clock = new ManualClock('2026-06-01T08:00:00Z');
  const config = loadConfig({ ...process.env, DATA_DIR: database.dataDir, DATABASE_URL: database.url ?? '', LOG_LEVEL: 'warn' }, { webhooksAllowPrivateTargets: true, rateLimit: { perSecond: 1e6, burst: 1e6 } });
  const runtime = await createRuntime(config, { migrate: true, clock });
  try {
    const { admin_token: token } = await createTenant(runtime.deps, { name: 'Burst' });
    const app = await buildApp(runtime.deps);
    const call = async (method: 'POST' | 'PUT', url: string, body: unknown, status: number) => {
      const res = await app.inject({ method, url, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
      if (res.statusCode !== status) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
      return res.json() as Record<string, Record<string, string>>;
    };
    const port = (receiver.address() as AddressInfo).port;
    await call('POST', '/api/admin/webhooks', { webhook: { url: `http://127.0.0.1:${port}/hooks`, events: ['tour.compensation_updated'] } }, 201);
    const area = (await call('POST', '/api/admin/service_areas', { service_area: { name: 'Berlin', currency: 'EUR', time_zone: 'Europe/Berlin' } }, 201)).service_area!;
    const service = (await call('POST', '/api/admin/hailing/services', { service: { name: 'Parcels', service_area_id: area.id } }, 201)).service!;
    const stops = [
      { type: 'pickup', location: { lat: 52.5, lng: 13.4 }, address: { street: 'Depot', city: 'Berlin' } },
      { type: 'dropoff', location: { lat: 52.51, lng: 13.41 }, address: { street: 'Mall', city: 'Berlin' } },
    ];
    const booking = (await call('POST', '/api/hailing/bookings', { booking: { service_id: service.id, stops } }, 201)).booking!;
    const tour = (await call('POST', '/api/hailing/bookings/merge', { booking_ids: [booking.id] }, 201)).tour!;
    const worker = createWorker(runtime.deps);
    const started = performance.now();
    for (let i = 1; i <= 1000; i++) {
      await call('PUT', `/api/tours/${tour.id}/compensation/bonus/k${i % 5}`, { amount: i, currency: 'EUR' }, 200);
      clock.advance(100); // 1,000 changes over 100 s: all inside one window
    }
    const seconds = (performance.now() - started) / 1000;
    await worker.drain();
    const beforeWindow = received.length;
    clock.advanceSeconds(120);
    await worker.drain();
    await new Promise((resolve) => setTimeout(resolve, 200));
    const expectedTotal = [996, 997, 998, 999, 1000].reduce((a, b) => a + b, 0);
    const ok = beforeWindow === 0 && received.length === 1 && received[0]!.total_amount === expectedTotal;
    await app.close();
    return { run: `${kind} 1,000 changes in one window`, 'changes/s (one client)': Math.round(1000 / seconds), deliveries: received.length, 'last state delivered': ok ? 'yes' : 'NO' };
  } finally {
    await runtime.close();
    receiver.close();
    await database.drop();
  }
}

const rows: Record<string, string | number>[] = [];
let failed = false;
for (const kind of kinds) {
  const database = await scratchDatabase(kind);
  const server = await startServer<CompensationInfo>(SERVER, database);
  try {
    const bareRuns: LoadResult[] = [];
    const realRuns: LoadResult[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      bareRuns.push(await load({ server, url: server.info.bareInsertUrl, method: 'POST', connections: CONNECTIONS, durationSeconds: DURATION, label: `${kind} bare` }));
      realRuns.push(await bonusWrites(server, `${kind} bonus`));
    }
    if ([...bareRuns, ...realRuns].some((r) => r.non2xx || r.errors)) failed = true;
    const bareRow = summarize(`${kind} bare INSERT`, bareRuns);
    rows.push(bareRow, comparedTo(bareRow, summarize(`${kind} PUT bonus (own tour per connection)`, realRuns), { ratio: 'real/bare', cpu: 'CPU bare/real' }));
  } finally {
    await server.stop();
    await database.drop();
  }
  const b = await burst(kind);
  if (b.deliveries !== 1 || b['last state delivered'] !== 'yes') failed = true;
  rows.push(b);
}
finishReport(rows, failed);
