// The optimise route over HTTP (issue 16 goal: re-optimising a 100-stop tour after one stop pair is inserted, p95 ≤
// 200 ms), in process on embedded PGlite: a tour of 49 bookings (98 stops, random points in a 10 km square, no
// windows) is optimised once; then, per trial, one more booking's pickup and drop-off are inserted at the front (100
// stops), POST /api/hailing/tours/{id}/optimize runs with a 100 ms budget, and the booking is cancelled again.
// Reported: the route's wall time (p50/p95/max) against the bare baseline of the same run — GET of the same tour,
// which reads and renders its 100 stops — so the difference is what optimising adds (routing, search, the write).
//
//   npm run bench -- optimize-route [--trials 30] [--budget-ms 100]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pino from 'pino';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openPglite } from '../src/db/client.ts';
import type { Deps } from '../src/deps.ts';
import { wireHooks } from '../src/hooks.ts';
import { createSolverPool } from '../src/optimizer/index.ts';
import { createTenant } from '../src/modules/identity/index.ts';
import { createRng } from '../src/optimizer/prng.ts';
import { systemClock } from '../src/shared/clock.ts';
import { machineDescription, median, printTable } from './_harness.ts';

const { values } = parseArgs({ args: process.argv.slice(3), options: { trials: { type: 'string', default: '30' }, 'budget-ms': { type: 'string', default: '100' } } });
const trials = Number(values.trials);
const budget = Number(values['budget-ms']);
const rng = createRng(1);

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tourbook-bench-optimize-'));
const database = await openPglite({ dataDir: path.join(dataDir, 'db') });
await database.migrate();
const config = loadConfig({}, { dataDir, logLevel: 'warn', rateLimit: { perSecond: 1_000_000, burst: 1_000_000 } });
const deps: Deps = { db: database.db, database, clock: systemClock, config, log: pino({ level: 'warn' }), hooks: wireHooks(), optimizer: createSolverPool(config.optimizerThreads) };
const app = await buildApp(deps);
await app.ready();
const { admin_token: token } = await createTenant(deps, { name: 'Bench' });

async function call(method: 'GET' | 'POST', url: string, body?: unknown) {
  const res = await app.inject({ method, url, headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) }, ...(body ? { payload: JSON.stringify(body) } : {}) });
  if (res.statusCode >= 300) throw new Error(`${method} ${url} → ${res.statusCode} ${res.body}`);
  return JSON.parse(res.body);
}

const point = () => ({ location: { lat: 52.47 + rng.next() * 0.09, lng: 13.33 + rng.next() * 0.15 }, address: { street: 'Bench', number: '1', city: 'Berlin' } });
const area = (await call('POST', '/api/admin/service_areas', { service_area: { name: 'Bench', currency: 'EUR', time_zone: 'Europe/Berlin' } })).service_area;
const service = (await call('POST', '/api/admin/hailing/services', { service: { name: 'Bench', service_area_id: area.id } })).service;
const booking = async () =>
  (await call('POST', '/api/hailing/bookings', { booking: { service_id: service.id, stops: [{ type: 'pickup', ...point() }, { type: 'dropoff', ...point() }], packages: [{ pickup_stop_index: 0, dropoff_stop_index: 1 }] } })).booking;

const bookings = [];
for (let i = 0; i < 49; i++) bookings.push(await booking());
const tour = (await call('POST', '/api/hailing/bookings/merge', { booking_ids: bookings.map((b) => b.id) })).tour;
await call('POST', `/api/hailing/tours/${tour.id}/optimize`, { time_limit_ms: 2000 });

const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;
const timed = async (f: () => Promise<unknown>) => {
  const started = performance.now();
  await f();
  return performance.now() - started;
};

console.log(`Machine: ${machineDescription()}; load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
console.log(`${trials} trials: a 100-stop tour after one pair is inserted, POST …/optimize with a ${budget} ms budget (PGlite, in process)\n`);
const optimize: number[] = [];
const bare: number[] = [];
let gained = 0;
for (let t = 0; t < trials; t++) {
  const extra = await booking();
  await call('POST', `/api/hailing/tours/${tour.id}/stops/insert`, { stop_ids: extra.stops.map((s: { id: string }) => s.id), position: 0 });
  bare.push(await timed(() => call('GET', `/api/hailing/tours/${tour.id}`)));
  let answer: { optimization: { before_seconds: number; after_seconds: number }; tour: { stops: unknown[] } } | null = null;
  optimize.push(await timed(async () => (answer = await call('POST', `/api/hailing/tours/${tour.id}/optimize`, { time_limit_ms: budget }))));
  const { optimization, tour: optimised } = answer!;
  if (optimised.stops.length !== 100) throw new Error(`expected 100 stops, got ${optimised.stops.length}`);
  gained += optimization.before_seconds - optimization.after_seconds;
  await call('POST', `/api/hailing/bookings/${extra.id}/cancel`);
}
printTable([
  { measure: 'POST optimize p50 (ms)', value: median(optimize).toFixed(0) },
  { measure: 'POST optimize p95 (ms)', value: percentile(optimize, 0.95).toFixed(0) },
  { measure: 'POST optimize max (ms)', value: Math.max(...optimize).toFixed(0) },
  { measure: 'baseline GET tour p50 (ms)', value: median(bare).toFixed(0) },
  { measure: 'baseline GET tour p95 (ms)', value: percentile(bare, 0.95).toFixed(0) },
  { measure: 'optimize / GET (p50 ratio)', value: (median(optimize) / median(bare)).toFixed(1) },
  { measure: 'mean travel seconds saved per optimisation', value: (gained / trials).toFixed(0) },
]);
await app.close();
await deps.optimizer.close();
await database.close();
fs.rmSync(dataDir, { recursive: true, force: true });
