// The optimise route over HTTP (issue 16 goal: re-optimising a 100-stop tour after one stop pair is inserted, p95 ≤
// 200 ms), in process on embedded PGlite: a tour of 49 bookings (98 stops, random points in a 10 km square, no
// windows) is optimised once; then, per trial, one more booking's pickup and drop-off are inserted at the front (100
// stops), POST /api/hailing/tours/{id}/optimize runs with a 100 ms budget, and the booking is cancelled again.
// Reported: the route's wall time (p50/p95/max) against the bare baseline of the same run — GET of the same tour,
// which reads and renders its 100 stops — so the difference is what optimising adds (routing, search, the write).
//
//   npm run bench -- optimize-route [--trials 30] [--budget-ms 100]
import { parseArgs } from 'node:util';
import { createRng } from '../src/optimizer/prng.ts';
import { inProcessApp, loadAverage, machineDescription, median, printTable, quantile, timed } from './_harness.ts';

const { values } = parseArgs({ args: process.argv.slice(3), options: { trials: { type: 'string', default: '30' }, 'budget-ms': { type: 'string', default: '100' } } });
const trials = Number(values.trials);
const budget = Number(values['budget-ms']);
const rng = createRng(1);

const { call, close } = await inProcessApp('optimize');

const point = () => ({ location: { lat: 52.47 + rng.next() * 0.09, lng: 13.33 + rng.next() * 0.15 }, address: { street: 'Bench', number: '1', city: 'Berlin' } });
const area = (await call('POST', '/api/admin/service_areas', { service_area: { name: 'Bench', currency: 'EUR', time_zone: 'Europe/Berlin' } })).service_area;
const service = (await call('POST', '/api/admin/hailing/services', { service: { name: 'Bench', service_area_id: area.id } })).service;
const booking = async () =>
  (await call('POST', '/api/hailing/bookings', { booking: { service_id: service.id, stops: [{ type: 'pickup', ...point() }, { type: 'dropoff', ...point() }], packages: [{ pickup_stop_index: 0, dropoff_stop_index: 1 }] } })).booking;

const bookings = [];
for (let i = 0; i < 49; i++) bookings.push(await booking());
const tour = (await call('POST', '/api/hailing/bookings/merge', { booking_ids: bookings.map((b) => b.id) })).tour;
await call('POST', `/api/hailing/tours/${tour.id}/optimize`, { time_limit_ms: 2000 });

console.log(`Machine: ${machineDescription()}; load average ${loadAverage()}`);
console.log(`${trials} trials: a 100-stop tour after one pair is inserted, POST …/optimize with a ${budget} ms budget (PGlite, in process)\n`);
const optimize: number[] = [];
const bare: number[] = [];
let gained = 0;
for (let t = 0; t < trials; t++) {
  const extra = await booking();
  await call('POST', `/api/hailing/tours/${tour.id}/stops/insert`, { stop_ids: extra.stops.map((s: { id: string }) => s.id), position: 0 });
  bare.push((await timed(() => call('GET', `/api/hailing/tours/${tour.id}`)))[0]);
  const [optimizeMs, answer] = await timed<{ optimization: { before_seconds: number; after_seconds: number }; tour: { stops: unknown[] } }>(() =>
    call('POST', `/api/hailing/tours/${tour.id}/optimize`, { time_limit_ms: budget }),
  );
  optimize.push(optimizeMs);
  const { optimization, tour: optimised } = answer;
  if (optimised.stops.length !== 100) throw new Error(`expected 100 stops, got ${optimised.stops.length}`);
  gained += optimization.before_seconds - optimization.after_seconds;
  await call('POST', `/api/hailing/bookings/${extra.id}/cancel`);
}
printTable([
  { measure: 'POST optimize p50 (ms)', value: median(optimize).toFixed(0) },
  { measure: 'POST optimize p95 (ms)', value: quantile(optimize, 0.95).toFixed(0) },
  { measure: 'POST optimize max (ms)', value: Math.max(...optimize).toFixed(0) },
  { measure: 'baseline GET tour p50 (ms)', value: median(bare).toFixed(0) },
  { measure: 'baseline GET tour p95 (ms)', value: quantile(bare, 0.95).toFixed(0) },
  { measure: 'optimize / GET (p50 ratio)', value: (median(optimize) / median(bare)).toFixed(1) },
  { measure: 'mean travel seconds saved per optimisation', value: (gained / trials).toFixed(0) },
]);
await close();
