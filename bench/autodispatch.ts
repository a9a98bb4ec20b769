// Auto-dispatch (issue 25 goal: the decision's p95 ≤ 200 ms with 40 tours of 25 stops running), in process on
// embedded PGlite: 40 tours of 25 stops (random points in a 10 km square, no windows), each force-assigned to its
// own driver and started (en_route); per trial one new booking (pickup and drop-off) is created — the bare baseline,
// POST /api/hailing/bookings alone — and then its decision runs as the worker's job would (decideAutoDispatch:
// search every tour within the budget, lock the cheapest, check again, insert, events); then the booking is
// cancelled, so every trial sees 40 tours of 25 stops.
//
//   npm run bench -- autodispatch [--trials 40] [--budget-ms 200]
import { parseArgs } from 'node:util';
import { decideAutoDispatch } from '../src/modules/dispatch/auto-dispatch/decide.ts';
import { createRng } from '../src/optimizer/prng.ts';
import { inProcessApp, loadAverage, machineDescription, median, printTable, quantile, timed } from './_harness.ts';

const { values } = parseArgs({ args: process.argv.slice(3), options: { trials: { type: 'string', default: '40' }, 'budget-ms': { type: 'string', default: '200' } } });
const trials = Number(values.trials);
const budget = Number(values['budget-ms']);
const TOURS = 40;
const rng = createRng(1);

const { deps, tenantId, call, close } = await inProcessApp('autodispatch');

const point = () => ({ location: { lat: 52.47 + rng.next() * 0.09, lng: 13.33 + rng.next() * 0.15 }, address: { street: 'Bench', number: '1', city: 'Berlin' } });
// Set up with auto-dispatch off, so the tours' own bookings are not decided; on for the trials.
const area = (await call('POST', '/api/admin/service_areas', { service_area: { name: 'Bench', currency: 'EUR', time_zone: 'Europe/Berlin' } })).service_area;
const service = (await call('POST', '/api/admin/hailing/services', { service: { name: 'Bench', service_area_id: area.id, max_stops_per_tour: 100 } })).service;
const booking = async (stops = [{ type: 'pickup', ...point() }, { type: 'dropoff', ...point() }]) =>
  (await call('POST', '/api/hailing/bookings', { booking: { service_id: service.id, stops, packages: stops.length === 2 ? [{ pickup_stop_index: 0, dropoff_stop_index: 1 }] : [] } })).booking;

const organization = (await call('POST', '/api/organizations', { organization: { name: 'Fleet' } })).organization;
for (let t = 0; t < TOURS; t++) {
  // 12 pickup-and-drop-off bookings and one drop-off only: 25 stops.
  const bookings = [];
  for (let i = 0; i < 12; i++) bookings.push(await booking());
  bookings.push(await booking([{ type: 'dropoff', ...point() }]));
  const tour = (await call('POST', '/api/hailing/bookings/merge', { booking_ids: bookings.map((b) => b.id) })).tour;
  const driver = (await call('POST', '/api/users', { user: { name: `Driver ${t}`, email: `driver-${t}@bench.example`, role: 'driver', organization_ids: [organization.id] } })).user;
  await call('POST', `/api/hailing/tours/${tour.id}/force_assign`, { driver_id: driver.id, start: true });
}
await call('PATCH', `/api/admin/service_areas/${area.id}`, { service_area: { auto_dispatch: { enabled: true, budget_ms: budget } } });
const running = (await call('GET', `/api/hailing/tours?filters[status][]=en_route&limit=100`)).tours as { stops?: unknown[] }[];

console.log(`Machine: ${machineDescription()}; load average ${loadAverage()}`);
console.log(`${trials} trials: ${running.length} en_route tours of 25 stops; one new booking each, decided with a ${budget} ms budget (PGlite, in process)\n`);
const create: number[] = [];
const decide: number[] = [];
const outcomes = new Map<string, number>();
for (let t = 0; t < trials; t++) {
  const [createMs, created] = await timed(() => booking());
  create.push(createMs);
  const [decideMs, decision] = await timed(() => decideAutoDispatch(deps, tenantId, created.id));
  decide.push(decideMs);
  const key = decision ? `${decision.status}${decision.reason ? ` (${decision.reason}${decision.constraint ? `: ${decision.constraint}` : ''})` : ''}` : 'none';
  outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
  await call('POST', `/api/hailing/bookings/${created.id}/cancel`);
}
printTable([
  { measure: 'baseline: POST booking p50 (ms)', value: median(create).toFixed(1) },
  { measure: 'baseline: POST booking p95 (ms)', value: quantile(create, 0.95).toFixed(1) },
  { measure: 'decision p50 (ms)', value: median(decide).toFixed(1) },
  { measure: 'decision p95 (ms)', value: quantile(decide, 0.95).toFixed(1) },
  { measure: 'decision max (ms)', value: Math.max(...decide).toFixed(1) },
  ...[...outcomes].map(([outcome, n]) => ({ measure: `outcome: ${outcome}`, value: n })),
]);
const failed = quantile(decide, 0.95) > 200;
console.log(failed ? '\nFAIL: decision p95 above 200 ms' : '\nOK: decision p95 within 200 ms');
await close();
process.exitCode = failed ? 1 : 0;
