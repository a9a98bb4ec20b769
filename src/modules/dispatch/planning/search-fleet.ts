// The fleet plan's search, from the model to checked routes (docs/api-guide.md "Optimising tours and planning
// dispatch"): the solver with the objective's goal, the check of every route, and what is left put in where it costs
// least (decision 1647). `balanced` searches within one area per shift first, then with what did not fit and the
// long tours' bookings free to go next door (decision 1790). One sequence for the planner (plan-fleet.ts, the solver
// in a pool thread) and the fleet benchmark (bench/fleet.ts, on its own thread): what is measured is what is planned.
// Pure but for the solve it is given.
import type { Problem, Solution, SolveOptions } from '../../../optimizer/index.ts';
import { acceptRoutes, fleetProblemOf, fleetScheduleOf, SOLVER_OBJECTIVE, startOfShift, type FleetModel, type FleetObjective, type FleetSchedule } from './fleet.ts';
import { insertCheapest, placeLeftovers } from './insert-cheapest.ts';
import { convexHull, strictlyInside } from './balance.ts';
import type { Point } from './travel.ts';
import { FIRST_PART, secondPartOf, territoriesOf } from './territories.ts';

/** Runs one search; the caller adds its seed and clock. */
export type SolveFleet = (problem: Problem, options: Pick<SolveOptions, 'timeLimitMs' | 'objective' | 'initial'>) => Promise<Solution> | Solution;

export interface FleetSearch {
  /** Stop indices per shift, every route checked. */
  routes: number[][];
  /** Stops no route could take. */
  unplaced: number[];
  /** The solver's iterations, over both parts of a balanced search. */
  iterations: number;
}

/** Plans the model's stops onto its shifts within `budgetMs` of search, each tour at most `maxStops` stops. */
export async function searchFleet(model: FleetModel, objective: FleetObjective, solve: SolveFleet, budgetMs: number, maxStops?: number): Promise<FleetSearch> {
  const options = { objective: SOLVER_OBJECTIVE[objective] };
  const kept = model.shifts.map((s) => s.running?.keptStopIds.length ?? 0);
  // Balanced: one compact area per shift, sized by its hours, before the search evens the hours (decision 1790).
  const territories = objective === 'balanced' ? territoriesOf(model) : null;
  const { problem } = fleetProblemOf(model, maxStops, territories?.areas ?? model.allowed);
  if (!problem.requests.length) return { routes: model.shifts.map(() => []), unplaced: [], iterations: 0 };
  let solution = await solve(problem, { ...options, timeLimitMs: territories ? budgetMs * FIRST_PART : budgetMs });
  let iterations = solution.iterations;
  let limit = maxStops ?? Number.POSITIVE_INFINITY;
  if (territories) {
    // The second part may move what an area's shift could not take, and a long tour's bookings, next door.
    const second = secondPartOf(model, territories, solution);
    limit = Math.min(limit, second.maxStops);
    const wider = fleetProblemOf(model, limit, second.eligible).problem;
    solution = await solve(wider, { ...options, timeLimitMs: budgetMs * (1 - FIRST_PART), initial: solution.routes });
    iterations += solution.iterations;
  }
  let { routes, unplaced } = acceptRoutes(model, solution, maxStops);
  // What the search left out, or a booking it put out of order, is put in where it costs least (decision 1647) —
  // balanced: in a nearby area first, so that one booking does not stretch a tour across the city.
  if (territories) ({ routes, unplaced } = placeLeftovers({ ...model, allowed: territories.nearby }, routes, unplaced, maxStops, kept));
  ({ routes, unplaced } = placeLeftovers(model, routes, unplaced, maxStops, kept));
  if (territories) routes = shedWaits({ ...model, allowed: territories.nearby }, routes, limit, kept);
  return { routes, unplaced, iterations };
}

/** A tour that waits this long before a stop's window opens may hand that stop's booking to a neighbour. */
const WAITED_SECONDS = 300;

/**
 * After the search (decision 1791): a tour that waits for a window is often done with its area before a late window
 * opens. Each booking it waits for goes, whole, where it adds least driving on another shift the model allows (the
 * nearby areas'), if that tour stays within the longest finish and the stop limit and the two tours then wait and
 * drive less together; the tours that wait most first.
 */
export function shedWaits(model: FleetModel, routes: readonly (readonly number[])[], maxStops: number, kept: readonly number[]): number[][] {
  let result = routes.map((r) => [...r]);
  const schedules = result.map((route, k) => fleetScheduleOf(model, k, route));
  const longest = Math.max(...schedules.filter((_, k) => result[k]!.length).map((s) => s.finish));
  const price = (s: FleetSchedule) => s.waitingSeconds + s.travelSeconds;
  const keyOf = (i: number) => model.stops[i]!.bookingId ?? model.stops[i]!.id;
  const hullOf = (route: readonly number[]) => convexHull(route.filter((i) => model.stops[i]!.type === 'dropoff').map((i) => model.points[i]!));
  const hulls = result.map(hullOf);
  const order = result.map((_, k) => k).filter((k) => !model.shifts[k]!.running).sort((a, b) => schedules[b]!.waitingSeconds - schedules[a]!.waitingSeconds);
  for (const k of order) {
    // The tour's waits change as it hands bookings on: each time, the first it has not tried yet.
    const tried = new Set<string>();
    const nextWait = () => waitedAt(model, k, result[k]!, schedules[k]!).find((i) => !tried.has(keyOf(i)));
    for (let waited = nextWait(); waited !== undefined; waited = nextWait()) {
      const key = keyOf(waited);
      tried.add(key);
      const group = result[k]!.filter((i) => keyOf(i) === key);
      const without = result[k]!.filter((i) => keyOf(i) !== key);
      const others = { ...model, allowed: model.allowed.map((a) => a.filter((shift) => shift !== k)) };
      const { routes: next, unplaced } = insertCheapest(others, result.map((r, j) => (j === k ? without : r)), [group], maxStops, kept);
      if (unplaced.length) continue;
      const j = next.findIndex((r, m) => m !== k && r.length !== result[m]!.length);
      const left = fleetScheduleOf(model, k, without);
      const joined = fleetScheduleOf(model, j, next[j]!);
      // Compact areas stay so: the other tour's hull may take in no drop-off of another tour, nor the booking's
      // drop-offs lie inside any other tour's hull once it has moved.
      const moved = group.filter((i) => model.stops[i]!.type === 'dropoff').map((i) => model.points[i]!);
      const grown = hullOf(next[j]!);
      const shrunk = hullOf(without);
      const inside = (hull: readonly Point[], p: Point) => hull.length > 2 && strictlyInside(hull, p);
      const crosses = result.some((route, m) => m !== j && route.some((i) => model.stops[i]!.type === 'dropoff' && !group.includes(i) && inside(grown, model.points[i]!) && !inside(hulls[j]!, model.points[i]!)));
      if (crosses || moved.some((p) => hulls.some((h, m) => m !== j && m !== k && inside(h, p)) || inside(shrunk, p))) continue;
      if (joined.finish > longest || price(left) + price(joined) >= price(schedules[k]!) + price(schedules[j]!)) continue;
      hulls[k] = shrunk;
      hulls[j] = grown;
      result = next;
      schedules[k] = left;
      schedules[j] = joined;
    }
  }
  return result;
}

/** The stops of shift k's route its tour reaches WAITED_SECONDS or more before their windows open. */
function waitedAt(model: FleetModel, k: number, route: readonly number[], schedule: FleetSchedule): number[] {
  const waited: number[] = [];
  let free = schedule.departure;
  let at = startOfShift(model, k);
  route.forEach((i, n) => {
    const arrival = schedule.arrivals[n]!;
    if (arrival - (free + model.matrix[at]![i]!) >= WAITED_SECONDS) waited.push(i);
    free = arrival + model.stops[i]!.serviceDurationSeconds;
    at = i;
  });
  return waited;
}
