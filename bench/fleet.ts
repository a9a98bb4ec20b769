// A day in Berlin planned with the fleet (issue 25): 1,000 bookings (a pickup at one of 3 depots, a drop-off at a
// location of the shipped simulator data, half of them with a 2-hour window), 40 drivers with 8-hour shifts from the
// 3 depots (60 packages and 400 kg each, so capacity binds on some tours). The planning core of
// `POST /api/hailing/dispatch/plan` with `drivers` (the fleet model, straight-line travel at 30 km/h, the planner's
// search on this thread — planning/search-fleet.ts: the solve, the check of every route, the leftovers put in — and
// the unplaced diagnosis) — without HTTP and database, which add the same for any plan. Each objective is solved on
// the same day in the same run (issue 39). Reported per objective: bookings placed, the balance (max/mean stops per
// driver, the mean share of a tour's drop-offs inside another tour's convex hull, waiting over working time:
// planning/balance.ts), the longest used shift against the mean and against a lower bound (each stop's cheapest way
// in and its service, shared by all drivers), driving, and the plan's wall time.
//
// `--city monaco` plans the day in the demo region instead, on its road travel times (issue 38: a plan of 1,000
// bookings on roads in ≤ 30 s as on straight lines): drop-offs at the simulator's Monaco addresses, 3 depots among
// them, the matrix from the region's road graph built as the import stores it (roads/step.ts) and searched as a
// request does (travel/matrix.ts: every point snapped, every cell reached, else straight lines); the matrix's time is
// in the model's.
//
//   npm run bench -- fleet [--bookings 1000] [--drivers 40] [--budget-ms 20000] [--objectives balanced,fewest_tours,least_driving] [--clock cpu|wall] [--new 20] [--city berlin|monaco]
import { parseArgs } from 'node:util';
import { explainUnplaced, fleetModelOf, fleetScheduleOf, withFleetTravel, type FleetObjective, type FleetShift, type FleetStop } from '../src/modules/dispatch/planning/fleet.ts';
import path from 'node:path';
import { readOsmFile } from '../src/modules/region/index.ts';
import { decodeRoadGraph, encodeRoadGraph } from '../src/modules/region/roads/encoding.ts';
import { buildRoadGraph } from '../src/modules/region/roads/graph.ts';
import { roadNetworkOf } from '../src/modules/region/roads/network.ts';
import { roadMatrix } from '../src/modules/region/roads/search.ts';
import { snapAll } from '../src/modules/region/travel/matrix.ts';
import { straightLineMatrix } from '../src/modules/region/travel/straight-line.ts';
import { solve } from '../src/optimizer/index.ts';
import { createRng } from '../src/optimizer/prng.ts';
import { berlinLocations, monacoPlaces } from '../src/simulate/city.ts';
import { balanceOf } from '../src/modules/dispatch/planning/balance.ts';
import { insertCheapest } from '../src/modules/dispatch/planning/insert-cheapest.ts';
import { searchFleet } from '../src/modules/dispatch/planning/search-fleet.ts';
import { machineDescription, printTable } from './_harness.ts';

const { values } = parseArgs({
  args: process.argv.slice(3),
  options: {
    bookings: { type: 'string', default: '1000' },
    drivers: { type: 'string', default: '40' },
    'budget-ms': { type: 'string', default: '20000' },
    objectives: { type: 'string', default: 'balanced,fewest_tours,least_driving' },
    clock: { type: 'string', default: 'cpu' },
    new: { type: 'string', default: '20' },
    city: { type: 'string', default: 'berlin' },
  },
});
const bookings = Number(values.bookings);
const drivers = Number(values.drivers);
const budget = Number(values['budget-ms']);
const arriving = Number(values.new);
const objectives = values.objectives.split(',') as FleetObjective[];
const SPEED_KMH = 30;
const cpuMs = (): number => {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
};
const clock = values.clock === 'wall' ? () => performance.now() : cpuMs;

const rng = createRng(25);
const onRoads = values.city === 'monaco';
const locations = onRoads ? monacoPlaces().map((p) => p.location) : berlinLocations();
const origin = new Date('2026-12-01T07:00:00Z');
const at = (hours: number) => new Date(origin.getTime() + hours * 3600_000);
const DEPOTS = onRoads
  ? [0, Math.floor(locations.length / 2), locations.length - 1].map((i) => locations[i]!)
  : [
      { lat: 52.52, lng: 13.41 },
      { lat: 52.47, lng: 13.35 },
      { lat: 52.54, lng: 13.55 },
    ];

const stops: FleetStop[] = [];
const packages: { pickupStopId: string; dropoffStopId: string; weightGrams: number }[] = [];
// The day's bookings, then `--new` more that arrive once the day is planned (replan: only_new, one at a time).
for (let b = 0; b < bookings + arriving; b++) {
  const depot = DEPOTS[b % DEPOTS.length]!;
  const { lat, lng } = locations[Math.floor(rng.next() * locations.length)]!;
  const windowed = rng.next() < 0.5;
  const opens = 1 + Math.floor(rng.next() * 6);
  const base = { bookingId: `b${b}`, status: 'to_be_dispatched' as const, serviceDurationSeconds: 120, requiredSkills: [] };
  stops.push({ ...base, id: `p${b}`, type: 'pickup', lat: depot.lat, lng: depot.lng, timeWindowStartsAt: null, timeWindowEndsAt: null, serviceDurationSeconds: 30 });
  stops.push({ ...base, id: `d${b}`, type: 'dropoff', lat, lng, timeWindowStartsAt: windowed ? at(opens) : null, timeWindowEndsAt: windowed ? at(opens + 2) : null });
  const count = 1 + Math.floor(rng.next() * 3);
  for (let k = 0; k < count; k++) packages.push({ pickupStopId: `p${b}`, dropoffStopId: `d${b}`, weightGrams: 1000 + Math.floor(rng.next() * 19_000) });
}
const shifts: FleetShift[] = Array.from({ length: drivers }, (_, k) => ({
  id: `s${k}`,
  driverId: `driver${k}`,
  startsAt: at(1),
  endsAt: at(9),
  start: DEPOTS[k % DEPOTS.length]!,
  end: DEPOTS[k % DEPOTS.length]!,
  capacity: { packages: 60, weightGrams: 400_000 },
  skills: [],
  organizationId: null,
}));

// The region's graph is the installation's, built once at import: not part of a plan's time.
const network = onRoads ? roadNetworkOf('bench', decodeRoadGraph(encodeRoadGraph(buildRoadGraph(await readOsmFile(path.resolve(import.meta.dirname, '../regions/monaco.osm.pbf')))))) : null;
const started = performance.now();
let model = fleetModelOf(stops, packages, shifts, new Map(), origin, origin);
let travel = 'straight lines';
// The bookings still to arrive are not the day's: the day is planned on the model without them (the same points but
// theirs, so a stop's index is the same in both), and they are put into its plan on the whole model.
let day = fleetModelOf(stops.slice(0, 2 * bookings), packages.filter((p) => Number(p.pickupStopId.slice(1)) < bookings), shifts, new Map(), origin, origin);
{
  const n = model.points.length;
  let flat = straightLineMatrix(model.points, SPEED_KMH).seconds;
  const snapped = network ? snapAll(network, model.points) : null;
  if (network && snapped) {
    const road = roadMatrix(network.workspace, snapped, snapped).seconds;
    const unreached = road.filter((s) => !Number.isFinite(s)).length;
    if (unreached === 0) flat = road;
    travel = unreached === 0 ? `road network (${n} × ${n})` : `straight lines: ${unreached} road cells unreached`;
  } else if (network) travel = 'straight lines: a point off every road';
  model = withFleetTravel(model, Array.from({ length: n }, (_, i) => Array.from(flat.subarray(i * n, i * n + n))));
  const whole = (j: number) => (j < 2 * bookings ? j : j + 2 * arriving);
  const m = day.points.length;
  day = withFleetTravel(day, Array.from({ length: m }, (_, i) => Array.from({ length: m }, (_, j) => flat[whole(i) * n + whole(j)]!)));
}
const modelSeconds = (performance.now() - started) / 1000;

// Lower bound of the longest shift: every stop is entered by some leg, at least its cheapest one from any other
// stop or a depot, and is served; that work spread over all drivers — or, if larger, the one booking that needs
// the longest shift alone (out from its depot and back).
let work = 0;
for (let i = 0; i < 2 * bookings; i++) {
  let cheapest = Number.POSITIVE_INFINITY;
  for (let j = 0; j < day.points.length; j++) if (j !== i) cheapest = Math.min(cheapest, day.matrix[j]![i]!);
  work += cheapest + stops[i]!.serviceDurationSeconds;
}
let alone = 0;
for (let b = 0; b < bookings; b++) alone = Math.max(alone, 2 * day.matrix[2 * b]![2 * b + 1]! + 150);
const lowerBound = Math.max(work / drivers, alone);

let planned: number[][] | null = null;
const percent = (x: number) => `${(100 * x).toFixed(1)} %`;
const rows: Record<string, string | number>[] = [];
for (const objective of objectives) {
  const began = performance.now();
  // As the planner searches (search-fleet.ts), on this thread and the benchmark's clock.
  const { routes, unplaced, iterations } = await searchFleet(day, objective, (problem, options) => solve(problem, { ...options, seed: 1, clock }), budget);
  const explained = explainUnplaced(day, unplaced);
  const done = performance.now();
  if (objective === 'balanced') planned = routes;
  const used = routes.map((route, k) => ({ route, k, schedule: fleetScheduleOf(day, k, route) })).filter(({ route }) => route.length);
  const shiftSeconds = used.map(({ schedule }) => schedule.finish - 3600);
  const longest = Math.max(...shiftSeconds);
  const mean = shiftSeconds.reduce((a, b) => a + b, 0) / Math.max(1, shiftSeconds.length);
  const driving = used.reduce((sum, { schedule }) => sum + schedule.travelSeconds, 0);
  // The territory is the drop-offs: every tour picks up at one of the 3 shared depots.
  const balance = balanceOf(used.map(({ route, schedule }) => ({
    stops_count: route.length,
    waiting_s: schedule.waitingSeconds,
    working_s: schedule.finish - schedule.departure,
    territory: route.filter((i) => stops[i]!.type === 'dropoff').map((i) => day.points[i]!),
  })));
  const placedBookings = bookings - new Set(explained.map((u) => u.booking_id)).size;
  const reasons = explained.reduce<Record<string, number>>((acc, u) => ({ ...acc, [u.reason]: (acc[u.reason] ?? 0) + 1 }), {});
  rows.push({
    objective,
    placed: `${placedBookings}/${bookings}`,
    unplaced_reasons: JSON.stringify(reasons),
    tours: used.length,
    'max/mean stops': `${balance.max_stops}/${balance.mean_stops.toFixed(1)} = ${balance.max_over_mean.toFixed(2)}`,
    overlap: percent(balance.overlap),
    'waiting/working': percent(balance.waiting_share),
    'longest/mean h': `${(longest / 3600).toFixed(2)}/${(mean / 3600).toFixed(2)}`,
    'longest/lower bound': (longest / lowerBound).toFixed(2),
    'driving h': (driving / 3600).toFixed(1),
    'plan s (wall)': ((done - began) / 1000).toFixed(1),
    iterations,
  });
}

console.log(`fleet plan in ${onRoads ? 'Monaco' : 'Berlin'} on ${travel}: ${bookings} bookings, ${drivers} drivers (8 h shifts, 3 depots, 60 packages / 400 kg), budget ${budget} ms (${values.clock} clock) per objective, model with its travel matrix ${modelSeconds.toFixed(1)} s — ${machineDescription()}`);
printTable(rows);

// replan: only_new of one booking into the balanced plan: each arriving booking alone, into the same plan.
if (planned && arriving) {
  const times: number[] = [];
  let placedNew = 0;
  for (let b = bookings; b < bookings + arriving; b++) {
    const began = performance.now();
    const { unplaced } = insertCheapest(model, planned, [[2 * b, 2 * b + 1]]);
    times.push(performance.now() - began);
    if (!unplaced.length) placedNew++;
  }
  times.sort((a, b) => a - b);
  const p = (q: number) => times[Math.min(times.length - 1, Math.ceil(q * times.length) - 1)]!.toFixed(1);
  console.log(`replan only_new into the balanced plan, ${arriving} bookings one at a time: placed ${placedNew}/${arriving}, p50 ${p(0.5)} ms, p95 ${p(0.95)} ms, max ${p(1)} ms (the insertion alone: no HTTP, database or travel matrix)`);
}
