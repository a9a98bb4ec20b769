// The fleet plan's search, from the model to checked routes (docs/api-guide.md "Optimising tours and planning
// dispatch"): the solver with the objective's goal, the check of every route, and what is left put in where it costs
// least (decision 1647). `balanced` searches within one area per shift first, then with what did not fit and the
// long tours' bookings free to go next door (decision 1790). One sequence for the planner (plan-fleet.ts, the solver
// in a pool thread) and the fleet benchmark (bench/fleet.ts, on its own thread): what is measured is what is planned.
// Pure but for the solve it is given.
import type { Problem, Solution, SolveOptions } from '../../../optimizer/index.ts';
import { acceptRoutes, fleetProblemOf, SOLVER_OBJECTIVE, type FleetModel, type FleetObjective } from './fleet.ts';
import { placeLeftovers } from './insert-cheapest.ts';
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
  if (territories) {
    // The second part may move what an area's shift could not take, and a long tour's bookings, next door.
    const second = secondPartOf(model, territories, solution);
    const wider = fleetProblemOf(model, Math.min(maxStops ?? Number.POSITIVE_INFINITY, second.maxStops), second.eligible).problem;
    solution = await solve(wider, { ...options, timeLimitMs: budgetMs * (1 - FIRST_PART), initial: solution.routes });
    iterations += solution.iterations;
  }
  let { routes, unplaced } = acceptRoutes(model, solution, maxStops);
  // What the search left out, or a booking it put out of order, is put in where it costs least (decision 1647) —
  // balanced: in a nearby area first, so that one booking does not stretch a tour across the city.
  if (territories) ({ routes, unplaced } = placeLeftovers({ ...model, allowed: territories.nearby }, routes, unplaced, maxStops, kept));
  ({ routes, unplaced } = placeLeftovers(model, routes, unplaced, maxStops, kept));
  return { routes, unplaced, iterations };
}
