// The optimiser's public interface: a PDPTW problem, the options of a solve, and its result. Domain-free.

/** Travel times between locations: Euclidean over planar points, or a (possibly asymmetric) matrix. */
export type Travel =
  | { kind: 'euclidean'; points: readonly (readonly [number, number])[] }
  | { kind: 'matrix'; matrix: readonly (readonly number[])[] };

/** One place to visit. `location` indexes the travel points/matrix; times are in the travel unit. */
export interface Stop {
  location: number;
  /** Positive at a pickup, negative at a delivery. */
  demand: number;
  /**
   * Further capacity dimensions (packages, weight, volume…), signed like `demand`: dimension k is checked against
   * the vehicle's `capacities[k]`; a missing entry is 0.
   */
  demands?: readonly number[];
  earliest: number;
  latest: number;
  service: number;
}

/**
 * A request: a pickup and its delivery (stop indices), served by one vehicle, pickup first. A request with only
 * a delivery is goods already on board (give it `vehicle` and count it in that vehicle's `initialLoad`); one with
 * only a pickup stays on board to the route's end.
 */
export interface Request {
  pickup?: number;
  delivery?: number;
  /** Restricts the request to one vehicle (index into `vehicles`). */
  vehicle?: number;
  /**
   * Restricts the request to these vehicles (skills); with `vehicle` too, both apply. An empty list: no vehicle
   * may serve it, and it is returned unassigned.
   */
  vehicles?: readonly number[];
}

/**
 * A vehicle leaves `start` no earlier than `earliest` and reaches `end` no later than `latest`. Stops that are
 * already fixed (done, or being served) are not part of the problem: they are expressed by the start location and
 * time (the driver's position after them) and by `initialLoad`.
 */
export interface Vehicle {
  start: number;
  end: number;
  earliest: number;
  latest: number;
  capacity: number;
  initialLoad?: number;
  /**
   * Capacity per further dimension (see `Stop.demands`). A dimension this vehicle leaves undefined, or all of them
   * when the array is absent, does not constrain it.
   */
  capacities?: readonly (number | undefined)[];
  /** Load already on board per further dimension (goods of lone deliveries); a missing entry is 0. */
  initialLoads?: readonly number[];
}

export interface Problem {
  travel: Travel;
  stops: readonly Stop[];
  requests: readonly Request[];
  vehicles: readonly Vehicle[];
  /** At most this many stops on any one route (a tour's stop limit); default unlimited. */
  maxStopsPerRoute?: number;
}

export type Objective = 'vehicles-then-distance' | 'distance' | 'makespan';

export interface SolveOptions {
  /** Wall-clock budget; the best solution found is returned when it ends (anytime). */
  timeLimitMs: number;
  /** Same seed, same problem, same iteration count → same result. */
  seed?: number;
  /**
   * Always first: as many requests placed as the vehicles can take (the rest are returned in `unassigned`). Then
   * `vehicles-then-distance` (planning, the benchmarks' objective): fewest vehicles, then least travel;
   * `distance` (one tour: least travel); or `makespan` (finish the day early): the shortest longest route, then
   * least waiting (see `Solution.waiting`) and travel, a second waited weighing as a second on every leg; a route's
   * duration is the time it is back at its end minus its vehicle's `earliest` (a route leaves at its vehicle's
   * `earliest`; an unused vehicle counts 0). Default `vehicles-then-distance`.
   */
  objective?: Objective;
  /** A starting solution: stop indices per vehicle. The result is never worse than it. */
  initial?: readonly (readonly number[])[];
  /** Stops after this many ALNS iterations even if time remains (tests, determinism checks). */
  maxIterations?: number;
  /**
   * The clock the budget is measured on, in milliseconds (default `performance.now`). A benchmark on a shared
   * machine passes the process's CPU time so a run gets its budget of work whatever the load.
   */
  clock?: () => number;
}

export interface Solution {
  /** Stop indices per vehicle, in visiting order (an unused vehicle has an empty route). */
  routes: number[][];
  /** Requests (indices) that no vehicle can serve within the constraints. */
  unassigned: number[];
  vehicles: number;
  distance: number;
  /** The longest route's duration (see `SolveOptions.objective`), whatever the objective. */
  makespan: number;
  /**
   * Seconds the routes wait for windows that leaving later could not absorb (a route may leave after its vehicle's
   * `earliest` by as much as its forward slack allows), whatever the objective.
   */
  waiting: number;
  iterations: number;
  elapsedMs: number;
}
