// Compiles a Problem into the solver's flat, typed form: one node per stop plus a start and an end node per vehicle,
// a dense travel matrix over those nodes, and per-node windows, demands and request links.
import type { Objective, Problem } from './types.ts';

export interface Instance {
  /** Nodes: stops are 0..stops-1; vehicle v starts at node stops+2v and ends at stops+2v+1. */
  nodeCount: number;
  stopCount: number;
  vehicleCount: number;
  requestCount: number;
  /** travel[a * nodeCount + b]. */
  travel: Float64Array;
  earliest: Float64Array;
  latest: Float64Array;
  service: Float64Array;
  demand: Float64Array;
  /** Request of a stop node, -1 for vehicle nodes. */
  requestOf: Int32Array;
  reqPickup: Int32Array;
  reqDelivery: Int32Array;
  /** Vehicle a request is bound to, or -1. */
  reqVehicle: Int32Array;
  /** allowed[u * vehicleCount + r] = 1 when request u may go on vehicle r; null when every request may go anywhere. */
  allowed: Uint8Array | null;
  vehCapacity: Float64Array;
  /**
   * Further capacity dimensions some vehicle constrains (0: none, and the search pays nothing for them). Per node
   * demandX[x * dims + k]; per vehicle vehCapacityX[r * dims + k] (Infinity: unconstrained) and vehInitialLoadX.
   */
  dims: number;
  demandX: Float64Array;
  vehCapacityX: Float64Array;
  vehInitialLoadX: Float64Array;
  /** Most stops one route may visit (Infinity: no limit). */
  maxRouteStops: number;
  vehInitialLoad: Float64Array;
  /** Vehicles with the same class are interchangeable (same start, end, window, capacity, load). */
  vehClass: Int32Array;
  maxTravel: number;
  /** Cost of using one more vehicle: above any total distance, so fewer vehicles always win. */
  vehicleCost: number;
  /** Weight of the longest route's duration in the cost (objective `makespan`; 0 otherwise). */
  makespanWeight: number;
  /**
   * Weight of a second waited for a window that leaving later cannot absorb, on any route (objective `makespan`:
   * the makespan's; 0 otherwise).
   */
  waitingWeight: number;
}

export class ProblemError extends Error {}

/**
 * The makespan objective's weight (decision 1791): a second of the longest route weighs as much as a second of travel
 * on every leg, so it comes before distance; a second waited on any route weighs as much, so that a request does not
 * go to a short route only to wait there (the balanced plan's waiting), and the annealing sheds waiting as it shortens
 * the day. The best solution is compared exactly (makespan, then distance and weighted waiting).
 */
export const makespanWeightOf = (problem: Problem): number => problem.stops.length + 2 * problem.vehicles.length + 1;

/**
 * Windows close this much later in the compiled instance: begin times summed forward and latest begins summed
 * backward round differently, so a stop that begins exactly as its window closes must not be refused by one path
 * and accepted by the other. Every check then compares against `latest` exactly (the validators allow the same).
 */
export const WINDOW_TOLERANCE = 1e-9;

export function compile(problem: Problem, objective: Objective): Instance {
  const { stops, requests, vehicles, travel } = problem;
  const stopCount = stops.length;
  const vehicleCount = vehicles.length;
  const requestCount = requests.length;
  const n = stopCount + 2 * vehicleCount;
  const locationOf = new Int32Array(n);
  const earliest = new Float64Array(n);
  const latest = new Float64Array(n);
  const service = new Float64Array(n);
  const demand = new Float64Array(n);
  const requestOf = new Int32Array(n).fill(-1);
  stops.forEach((s, i) => {
    locationOf[i] = s.location;
    earliest[i] = s.earliest;
    latest[i] = s.latest + WINDOW_TOLERANCE;
    service[i] = s.service;
    demand[i] = s.demand;
  });
  // Only dimensions some vehicle constrains are carried: a demand in a dimension no vehicle limits never binds.
  let dims = 0;
  for (const v of vehicles) (v.capacities ?? []).forEach((c, k) => { if (c !== undefined && c !== null) dims = Math.max(dims, k + 1); });
  const demandX = new Float64Array(n * dims);
  const vehCapacityX = new Float64Array(vehicleCount * dims).fill(Infinity);
  const vehInitialLoadX = new Float64Array(vehicleCount * dims);
  if (dims > 0) {
    stops.forEach((s, i) => {
      for (let k = 0; k < dims; k++) demandX[i * dims + k] = s.demands?.[k] ?? 0;
    });
    vehicles.forEach((v, r) => {
      for (let k = 0; k < dims; k++) {
        const c = v.capacities?.[k];
        if (c !== undefined && c !== null) vehCapacityX[r * dims + k] = c;
        vehInitialLoadX[r * dims + k] = v.initialLoads?.[k] ?? 0;
      }
    });
  }
  // Vehicles a request may use; a vehicle is interchangeable with another only if the same requests may use both.
  const restricted = requests.some((r) => r.vehicles !== undefined);
  const allowed = restricted ? new Uint8Array(requestCount * vehicleCount).fill(1) : null;
  const skillKey = Array.from({ length: vehicleCount }, () => '');
  if (allowed) {
    const lists = new Map<string, number>();
    requests.forEach((r, u) => {
      if (r.vehicles === undefined) return;
      allowed.fill(0, u * vehicleCount, (u + 1) * vehicleCount);
      for (const k of r.vehicles) {
        if (!(Number.isInteger(k) && k >= 0 && k < vehicleCount)) throw new ProblemError(`request ${u} names vehicle ${k}, which does not exist`);
        allowed[u * vehicleCount + k] = 1;
      }
      const key = [...r.vehicles].sort((a, b) => a - b).join(',');
      if (lists.has(key)) return;
      lists.set(key, lists.size);
      for (let k = 0; k < vehicleCount; k++) skillKey[k] += allowed[u * vehicleCount + k] ? '1' : '0';
    });
  }
  const vehCapacity = new Float64Array(vehicleCount);
  const vehInitialLoad = new Float64Array(vehicleCount);
  const vehClass = new Int32Array(vehicleCount);
  const classKeys = new Map<string, number>();
  vehicles.forEach((v, k) => {
    const start = stopCount + 2 * k;
    locationOf[start] = v.start;
    locationOf[start + 1] = v.end;
    earliest[start] = earliest[start + 1] = v.earliest;
    latest[start] = latest[start + 1] = v.latest + WINDOW_TOLERANCE;
    vehCapacity[k] = v.capacity;
    vehInitialLoad[k] = v.initialLoad ?? 0;
    // A vehicle with requests bound to it is never interchangeable with another.
    const bound = problem.requests.some((r) => r.vehicle === k);
    const key = bound
      ? `bound ${k}`
      : [v.start, v.end, v.earliest, v.latest, v.capacity, v.initialLoad ?? 0, ...vehCapacityX.subarray(k * dims, (k + 1) * dims), ...vehInitialLoadX.subarray(k * dims, (k + 1) * dims), skillKey[k]].join(',');
    vehClass[k] = classKeys.get(key) ?? classKeys.size;
    classKeys.set(key, vehClass[k]!);
  });

  const reqPickup = new Int32Array(requestCount).fill(-1);
  const reqDelivery = new Int32Array(requestCount).fill(-1);
  const reqVehicle = new Int32Array(requestCount).fill(-1);
  requests.forEach((r, k) => {
    if (r.pickup === undefined && r.delivery === undefined) throw new ProblemError(`request ${k} has no stop`);
    for (const s of [r.pickup, r.delivery]) {
      if (s === undefined) continue;
      if (!(s >= 0 && s < stopCount)) throw new ProblemError(`request ${k} names stop ${s}, which does not exist`);
      if (requestOf[s] !== -1) throw new ProblemError(`stop ${s} belongs to two requests`);
      requestOf[s] = k;
    }
    reqPickup[k] = r.pickup ?? -1;
    reqDelivery[k] = r.delivery ?? -1;
    if (r.vehicle !== undefined) {
      if (!(r.vehicle >= 0 && r.vehicle < vehicleCount)) throw new ProblemError(`request ${k} names vehicle ${r.vehicle}, which does not exist`);
      reqVehicle[k] = r.vehicle;
      // Bound to one vehicle and restricted to a list: both apply.
      if (allowed) for (let v = 0; v < vehicleCount; v++) if (v !== r.vehicle) allowed[k * vehicleCount + v] = 0;
    }
  });
  for (let s = 0; s < stopCount; s++) if (requestOf[s] === -1) throw new ProblemError(`stop ${s} belongs to no request`);

  const maxRouteStops = problem.maxStopsPerRoute ?? Infinity;
  if (!(maxRouteStops >= 1)) throw new ProblemError(`maxStopsPerRoute must be at least 1, got ${problem.maxStopsPerRoute}`);

  const tt = new Float64Array(n * n);
  let maxTravel = 0;
  if (travel.kind === 'euclidean') {
    const pts = travel.points;
    for (let a = 0; a < n; a++) {
      const pa = pts[locationOf[a]!];
      if (!pa) throw new ProblemError(`location ${locationOf[a]} has no point`);
      for (let b = 0; b < n; b++) {
        const pb = pts[locationOf[b]!]!;
        const d = Math.hypot(pa[0] - pb[0], pa[1] - pb[1]);
        tt[a * n + b] = d;
        if (d > maxTravel) maxTravel = d;
      }
    }
  } else {
    const m = travel.matrix;
    for (let a = 0; a < n; a++) {
      const row = m[locationOf[a]!];
      if (!row) throw new ProblemError(`location ${locationOf[a]} has no matrix row`);
      for (let b = 0; b < n; b++) {
        const d = row[locationOf[b]!];
        if (d === undefined || !(d >= 0)) throw new ProblemError(`travel ${locationOf[a]}→${locationOf[b]} is missing or negative`);
        tt[a * n + b] = d;
        if (d > maxTravel) maxTravel = d;
      }
    }
  }
  const vehicleCost = objective === 'vehicles-then-distance' ? 2 * (n + 1) * Math.max(1, maxTravel) : 0;
  const makespanWeight = objective === 'makespan' ? makespanWeightOf(problem) : 0;
  return {
    nodeCount: n, stopCount, vehicleCount, requestCount, travel: tt, earliest, latest, service, demand, requestOf,
    reqPickup, reqDelivery, reqVehicle, allowed, vehCapacity, dims, demandX, vehCapacityX, vehInitialLoadX,
    maxRouteStops, vehInitialLoad, vehClass, maxTravel, vehicleCost, makespanWeight, waitingWeight: makespanWeight,
  };
}
