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
}

export interface Problem {
  travel: Travel;
  stops: readonly Stop[];
  requests: readonly Request[];
  vehicles: readonly Vehicle[];
  /** At most this many stops on any one route (a tour's stop limit); default unlimited. */
  maxStopsPerRoute?: number;
}

export interface SolveOptions {
  /** Wall-clock budget; the best solution found is returned when it ends (anytime). */
  timeLimitMs: number;
  /** Same seed, same problem, same iteration count → same result. */
  seed?: number;
  /**
   * `vehicles-then-distance` (planning, the benchmarks' objective) or `distance` (one tour: least travel).
   * Default `vehicles-then-distance`.
   */
  objective?: 'vehicles-then-distance' | 'distance';
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
  iterations: number;
  elapsedMs: number;
}
