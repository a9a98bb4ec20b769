// Re-optimising one driver's tour (issue 16 goal: a 100-stop tour after one stop pair is inserted, p95 ≤ 200 ms).
// A random 50-pair tour (one vehicle, six-hour windows around a random feasible order) is first optimised for 2 s; then, per trial,
// one new pickup/drop-off pair is added and the tour re-optimised from the current order with a 100 ms budget.
// Reported: wall time per re-optimisation (p50/p95/max) and the tour's travel against two references of the same
// run: the bare baseline (cheapest insertion of the new pair, no search) and a 2 s search from scratch.
//
//   npm run bench -- optimizer-reoptimize [--trials 30] [--budget-ms 100] [--seed 1]
import { parseArgs } from 'node:util';
import { createRng } from '../src/optimizer/prng.ts';
import { solve, type Problem, type Stop } from '../src/optimizer/index.ts';
import { machineDescription, median, printTable } from './_harness.ts';

const { values } = parseArgs({
  args: process.argv.slice(3),
  options: { trials: { type: 'string', default: '30' }, 'budget-ms': { type: 'string', default: '100' }, seed: { type: 'string', default: '1' } },
});
const trials = Number(values.trials);
const budget = Number(values['budget-ms']);
const rng = createRng(Number(values.seed));
const rnd = (n: number) => Math.round(rng.next() * n);

/**
 * A tour of `pairs` requests on a 100 × 100 square. A random visiting order is driven first and every window
 * (six hours wide) is placed around the time its stop is reached, so a feasible tour exists; `order` is that tour.
 */
function tourProblem(pairs: number): Problem & { points: [number, number][]; order: number[] } {
  const points: [number, number][] = [[50, 50]];
  const stops: Stop[] = [];
  const keyed: [number, number][] = [];
  for (let k = 0; k < pairs; k++) {
    points.push([rnd(100), rnd(100)], [rnd(100), rnd(100)]);
    stops.push({ location: 2 * k + 1, demand: 1, earliest: 0, latest: 0, service: 2 });
    stops.push({ location: 2 * k + 2, demand: -1, earliest: 0, latest: 0, service: 2 });
    const at = rng.next();
    keyed.push([at, 2 * k], [at + rng.next() * 0.3, 2 * k + 1]);
  }
  const order = keyed.sort((a, b) => a[0] - b[0]).map(([, s]) => s);
  let time = 0;
  let at = 0;
  for (const s of order) {
    const stop = stops[s]!;
    const [x, y] = points[stop.location]!;
    time += Math.hypot(x - points[at]![0], y - points[at]![1]);
    stops[s] = { ...stop, earliest: Math.max(0, time - 180), latest: time + 180 };
    time += stop.service;
    at = stop.location;
  }
  return {
    points,
    order,
    travel: { kind: 'euclidean', points },
    stops,
    requests: Array.from({ length: pairs }, (_, k) => ({ pickup: 2 * k, delivery: 2 * k + 1 })),
    vehicles: [{ start: 0, end: 0, earliest: 0, latest: 100_000, capacity: 20 }],
  };
}

const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;

console.log(`Machine: ${machineDescription()} (shared with other work while measured)`);
console.log(`${trials} trials: a 100-stop tour, one pair inserted, re-optimised with a ${budget} ms budget\n`);
const times: number[] = [];
const ratioInsert: number[] = [];
const ratioReopt: number[] = [];
let unplaced = 0;
for (let t = 0; t < trials; t++) {
  const base = tourProblem(50);
  const planned = solve(base, { timeLimitMs: 2000, seed: t + 1, objective: 'distance', initial: [base.order] });
  // One more pair arrives; the current order is the start.
  const more = tourProblem(1);
  const problem: Problem = {
    ...base,
    travel: { kind: 'euclidean', points: [...base.points, ...more.points.slice(1)] },
    // The new booking is flexible enough to fit somewhere in the shift.
    stops: [...base.stops, ...more.stops.map((s) => ({ ...s, location: s.location + 100, earliest: 0, latest: 100_000 }))],
    requests: [...base.requests, { pickup: 100, delivery: 101 }],
  };
  const initial = planned.routes;
  const insertOnly = solve(problem, { timeLimitMs: 0, maxIterations: 0, initial, objective: 'distance' });
  const started = performance.now();
  const reopt = solve(problem, { timeLimitMs: budget, initial, objective: 'distance', seed: t + 1 });
  times.push(performance.now() - started);
  const reference = solve(problem, { timeLimitMs: 2000, seed: t + 7, objective: 'distance' });
  const ref = Math.min(reference.distance, reopt.distance);
  ratioInsert.push(insertOnly.distance / ref);
  ratioReopt.push(reopt.distance / ref);
  if (reopt.unassigned.length) unplaced++;
}
printTable([
  { measure: 're-optimisation wall time p50 (ms)', value: median(times).toFixed(0) },
  { measure: 're-optimisation wall time p95 (ms)', value: percentile(times, 0.95).toFixed(0) },
  { measure: 're-optimisation wall time max (ms)', value: Math.max(...times).toFixed(0) },
  { measure: 'travel: insertion only / best known in run (mean)', value: (ratioInsert.reduce((a, b) => a + b, 0) / trials).toFixed(4) },
  { measure: 'travel: re-optimised / best known in run (mean)', value: (ratioReopt.reduce((a, b) => a + b, 0) / trials).toFixed(4) },
  { measure: 'trials where the new pair could not be placed', value: unplaced },
]);
