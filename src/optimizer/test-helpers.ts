// Test helpers for the solver's property tests (solver.property.test.ts, fleet.property.test.ts): an evaluator of
// solutions written from the types' documentation alone, and the generators both draw their instances from.
import fc from 'fast-check';
import type { Problem, Request, Solution, Stop } from './index.ts';

/**
 * Feasibility of a solution, independently of the solver's own bookkeeping: one route per vehicle, each stop once,
 * the stop limit, windows, the scalar capacity and every further dimension from the initial loads, the return by
 * the vehicle's end, precedence, bound and allowed vehicles, and the reported distance, makespan and vehicle count.
 * The first broken rule, or null.
 */
export function check(problem: Problem, solution: Solution): string | null {
  const pts = problem.travel.kind === 'euclidean' ? problem.travel.points : null;
  const travel = (a: number, b: number) =>
    pts ? Math.hypot(pts[a]![0] - pts[b]![0], pts[a]![1] - pts[b]![1]) : (problem.travel as { matrix: readonly (readonly number[])[] }).matrix[a]![b]!;
  const visits = new Map<number, [number, number]>();
  let distance = 0;
  let makespan = 0;
  if (solution.routes.length !== problem.vehicles.length) return 'one route per vehicle expected';
  for (const [v, route] of solution.routes.entries()) {
    const vehicle = problem.vehicles[v]!;
    if (route.length === 0) continue;
    if (route.length > (problem.maxStopsPerRoute ?? Infinity)) return `vehicle ${v} visits ${route.length} stops, over the limit ${problem.maxStopsPerRoute}`;
    let time = vehicle.earliest;
    let load = vehicle.initialLoad ?? 0;
    const loads = (vehicle.capacities ?? []).map((_, d) => vehicle.initialLoads?.[d] ?? 0);
    let at = vehicle.start;
    for (const [k, s] of route.entries()) {
      const stop = problem.stops[s]!;
      if (visits.has(s)) return `stop ${s} visited twice`;
      visits.set(s, [v, k]);
      distance += travel(at, stop.location);
      time = Math.max(time + travel(at, stop.location), stop.earliest);
      if (time > stop.latest + 1e-9) return `stop ${s} served late on vehicle ${v}`;
      load += stop.demand;
      if (load > vehicle.capacity + 1e-9) return `vehicle ${v} over capacity at stop ${s}`;
      for (const [d, cap] of (vehicle.capacities ?? []).entries()) {
        loads[d] = loads[d]! + (stop.demands?.[d] ?? 0);
        if (cap !== undefined && loads[d]! > cap + 1e-9) return `vehicle ${v} over capacity ${d} at stop ${s}`;
      }
      time += stop.service;
      at = stop.location;
    }
    distance += travel(at, vehicle.end);
    time += travel(at, vehicle.end);
    if (time > vehicle.latest + 1e-9) return `vehicle ${v} back late`;
    makespan = Math.max(makespan, time - vehicle.earliest);
  }
  for (const [k, r] of problem.requests.entries()) {
    const p = r.pickup !== undefined ? visits.get(r.pickup) : undefined;
    const d = r.delivery !== undefined ? visits.get(r.delivery) : undefined;
    if (solution.unassigned.includes(k)) {
      if (p || d) return `unassigned request ${k} is on a route`;
      continue;
    }
    if ((r.pickup !== undefined && !p) || (r.delivery !== undefined && !d)) return `request ${k} neither served nor reported unassigned`;
    if (p && d && (p[0] !== d[0] || p[1] > d[1])) return `request ${k}: delivery before pickup or on another vehicle`;
    const v = (p ?? d)![0];
    if (r.vehicle !== undefined && v !== r.vehicle) return `request ${k} not on its vehicle`;
    if (r.vehicles !== undefined && !r.vehicles.includes(v)) return `request ${k} on vehicle ${v}, not one of ${r.vehicles.join(',')}`;
  }
  if (Math.abs(distance - solution.distance) > 1e-6) return `distance ${solution.distance} reported, ${distance} driven`;
  if (Math.abs(makespan - solution.makespan) > 1e-6) return `makespan ${solution.makespan} reported, ${makespan} driven`;
  if (solution.vehicles !== solution.routes.filter((r) => r.length).length) return 'vehicle count differs from the routes';
  return null;
}

/** A point of the 60 × 60 plane the instances are drawn on. */
export const point = fc.tuple(fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 60 }));

/** A short search: a property checks many instances, each in a few iterations. */
export const FAST = { timeLimitMs: 10_000, maxIterations: 40 };
/** OPTIMIZER_PROPERTY_RUNS=100 multiplies every property's runs (a long hunt for counterexamples; not in CI). */
export const RUNS = Math.max(1, Number(process.env.OPTIMIZER_PROPERTY_RUNS ?? 1));

/** The kinds of request drawn, pairs most often: a pair, a lone pickup (stays on board), goods already on board. */
export const requestKind = (pairs: number) => fc.constantFrom(...Array.from({ length: pairs }, () => 'pair' as const), 'pickup' as const, 'delivery' as const);

/** A drawn request: its two stops, whichever of them its kind uses, and where it may go. */
export interface DrawnRequest {
  kind: 'pair' | 'pickup' | 'delivery';
  pickup: Stop;
  delivery: Stop;
  restriction: Pick<Request, 'vehicle' | 'vehicles'>;
  /** The vehicle carrying goods on board (a lone delivery), before `% vehicles`; else the request's own index. */
  bound: number | undefined;
}

/**
 * The stops and requests of drawn requests, and what each vehicle has on board: pairs and lone pickups keep their
 * restriction; a lone delivery is goods on board, bound to the vehicle carrying them and counted in its loads
 * (`dims` further dimensions).
 */
export function requestsOf(drawn: readonly DrawnRequest[], vehicles: number, dims: number): { stops: Stop[]; requests: Request[]; onBoard: { load: number; loads: number[] }[] } {
  const stops: Stop[] = [];
  const requests: Request[] = [];
  const onBoard = Array.from({ length: vehicles }, () => ({ load: 0, loads: new Array<number>(dims).fill(0) }));
  drawn.forEach((r, k) => {
    if (r.kind === 'pair') {
      requests.push({ pickup: stops.length, delivery: stops.length + 1, ...r.restriction });
      stops.push(r.pickup, r.delivery);
    } else if (r.kind === 'pickup') {
      requests.push({ pickup: stops.length, ...r.restriction });
      stops.push(r.pickup);
    } else {
      const v = (r.bound ?? k) % vehicles;
      onBoard[v]!.load += r.pickup.demand;
      (r.pickup.demands ?? []).forEach((q, d) => (onBoard[v]!.loads[d]! += q));
      requests.push({ delivery: stops.length, vehicle: v });
      stops.push(r.delivery);
    }
  });
  return { stops, requests, onBoard };
}

/** Each problem with a random deal of its stops to vehicles (or to none: -1), in a random order, as a start. */
export const withAnyStart = (problems: fc.Arbitrary<Problem>) =>
  problems.chain((problem) =>
    fc.tuple(
      fc.constant(problem),
      fc.array(fc.tuple(fc.integer({ min: -1, max: problem.vehicles.length - 1 }), fc.double({ min: 0, max: 1, noNaN: true })), {
        minLength: problem.stops.length,
        maxLength: problem.stops.length,
      }),
    ),
  );

/** The starting routes a deal makes: each vehicle's stops in the order of their keys. */
export function dealt(problem: Problem, deal: readonly (readonly [number, number])[]): number[][] {
  const initial: number[][] = problem.vehicles.map(() => []);
  [...deal.entries()].sort((a, b) => a[1][1] - b[1][1]).forEach(([stop, [v]]) => v >= 0 && initial[v]!.push(stop));
  return initial;
}
