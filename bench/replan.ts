// `replan: only_new` through the API (issue 39 goal: one booking into a day's plan of 40 tours ≤ 300 ms p95), in
// process on embedded PGlite: 40 drivers with a 10-hour shift each from one of 3 depots, and 1,000 bookings — a
// pickup at a depot and a drop-off at a location of the shipped simulator data, the fleet bench's day
// (bench/fleet.ts) — planned `balanced` over the drivers and applied (40 tours, each claimed by its driver); then
// per trial one new booking is created (the bare baseline: POST /api/hailing/bookings alone) and planned into the
// running tours as a dispatcher's "add to today's plan" does (POST /api/hailing/dispatch/plan with the 40 drivers
// and `replan: only_new`, not applied: the tours' stops read, the model, the travel matrix over all 2,000 stops,
// the insertion, the proposal's routes and ETAs); then the booking is cancelled, so every trial sees the same day.
//
//   npm run bench -- replan [--trials 40] [--bookings-per-driver 25]
import { parseArgs } from 'node:util';
import { createRng } from '../src/optimizer/prng.ts';
import { berlinLocations } from '../src/simulate/city.ts';
import { createWorker } from '../src/worker/loop.ts';
import { inProcessApp, loadAverage, machineDescription, median, printTable, quantile, timed } from './_harness.ts';

const { values } = parseArgs({ args: process.argv.slice(3), options: { trials: { type: 'string', default: '40' }, 'bookings-per-driver': { type: 'string', default: '25' } } });
const trials = Number(values.trials);
const perTour = Number(values['bookings-per-driver']);
const TOURS = 40;
const rng = createRng(39);
const locations = berlinLocations();
const DEPOTS = [
  { lat: 52.52, lng: 13.41 },
  { lat: 52.47, lng: 13.35 },
  { lat: 52.54, lng: 13.55 },
];

const { deps, call, close } = await inProcessApp('replan');

const address = { street: 'Bench', number: '1', city: 'Berlin' };
const area = (await call('POST', '/api/admin/service_areas', { service_area: { name: 'Bench', currency: 'EUR', time_zone: 'Europe/Berlin' } })).service_area;
const service = (await call('POST', '/api/admin/hailing/services', { service: { name: 'Bench', service_area_id: area.id, max_stops_per_tour: 100 } })).service;
const booking = async (depot: { lat: number; lng: number }) => {
  const drop = locations[Math.floor(rng.next() * locations.length)]!;
  const stops = [
    { type: 'pickup', location: depot, address },
    { type: 'dropoff', location: { lat: drop.lat, lng: drop.lng }, address },
  ];
  return (await call('POST', '/api/hailing/bookings', { booking: { service_id: service.id, stops, packages: [{ pickup_stop_index: 0, dropoff_stop_index: 1 }] } })).booking as { id: string };
};

const organization = (await call('POST', '/api/organizations', { organization: { name: 'Fleet' } })).organization;
const now = Date.now();
const hours = (h: number) => new Date(now + h * 3600_000).toISOString();
const drivers: string[] = [];
for (let t = 0; t < TOURS; t++) {
  const depot = DEPOTS[t % DEPOTS.length]!;
  const driver = (await call('POST', '/api/users', { user: { name: `Driver ${t}`, email: `driver-${t}@bench.example`, role: 'driver', organization_ids: [organization.id] } })).user;
  drivers.push(driver.id);
  await call('POST', `/api/drivers/${driver.id}/shifts`, { shift: { starts_at: hours(0), ends_at: hours(10), start_location: depot, end_location: depot } });
}
const day: string[] = [];
for (let b = 0; b < TOURS * perTour; b++) day.push((await booking(DEPOTS[b % DEPOTS.length]!)).id);
// The day's plan as a dispatcher makes it: balanced over the 40 drivers, applied (each tour claimed by its driver).
// Past 200 bookings a plan is a job (decision 1302): the worker's, run here to the end.
const [planMs, applied] = await timed(async () => {
  const started = (await call('POST', '/api/hailing/dispatch/plan', { booking_ids: day, drivers, apply: true })).plan;
  await createWorker(deps).drain();
  return (await call('GET', `/api/hailing/dispatch/plans/${started.id}`)).plan;
});
if (applied.status !== 'done') throw new Error(`the day's plan ${applied.status}: ${JSON.stringify(applied.error)}`);
const tours = applied.tours as { stop_ids: string[] }[];

console.log(`Machine: ${machineDescription()}; load average ${loadAverage()}`);
console.log(`the day: ${day.length} bookings planned (balanced, applied) in ${(planMs / 1000).toFixed(1)} s into ${tours.length} tours of ${Math.min(...tours.map((t) => t.stop_ids.length))}–${Math.max(...tours.map((t) => t.stop_ids.length))} stops, ${(applied.unplaced as unknown[]).length} stops unplaced`);
console.log(`${trials} trials: one new booking each, planned into the day's tours with replan: only_new (PGlite, in process)\n`);
const create: number[] = [];
const replan: number[] = [];
let placed = 0;
for (let t = 0; t < trials; t++) {
  const [createMs, created] = await timed(() => booking(DEPOTS[t % DEPOTS.length]!));
  create.push(createMs);
  const [replanMs, result] = await timed(() => call('POST', '/api/hailing/dispatch/plan', { booking_ids: [created.id], drivers, replan: 'only_new' }));
  replan.push(replanMs);
  if (!(result.plan.unplaced as unknown[]).length) placed++;
  await call('POST', `/api/hailing/bookings/${created.id}/cancel`);
}
printTable([
  { measure: 'baseline: POST booking p50 (ms)', value: median(create).toFixed(1) },
  { measure: 'baseline: POST booking p95 (ms)', value: quantile(create, 0.95).toFixed(1) },
  { measure: 'replan only_new p50 (ms)', value: median(replan).toFixed(1) },
  { measure: 'replan only_new p95 (ms)', value: quantile(replan, 0.95).toFixed(1) },
  { measure: 'replan only_new max (ms)', value: Math.max(...replan).toFixed(1) },
  { measure: 'replan p50 / booking p50', value: (median(replan) / median(create)).toFixed(1) },
  { measure: 'placed', value: `${placed}/${trials}` },
]);
await close();
