// Pure mapping between tour stops and the optimiser's Problem, and back: which stops are fixed, where the driver
// starts, precedence (a pickup before its drop-off), time windows; the stops the solver could not serve placed where
// they cost least, and the schedule that before/after figures and `unplaced` are read from (decision 0955).
import type { Problem, Request, Solution } from '../../../optimizer/index.ts';
import type { StopRow } from '../stops/index.ts';
import type { PackageLink } from '../stops/index.ts';
import type { Point } from './travel.ts';

export type PlanStop = Pick<StopRow, 'id' | 'bookingId' | 'type' | 'status' | 'lat' | 'lng' | 'timeWindowStartsAt' | 'timeWindowEndsAt' | 'serviceDurationSeconds'>;

export type UnplacedReason = 'time_window' | 'precedence' | 'capacity';
export interface Unplaced {
  stop_id: string;
  reason: UnplacedReason;
}

/** Stops the optimiser may move: on a tour and not yet under way (or waiting for dispatch, for plans). */
export const isMovable = (s: Pick<PlanStop, 'status'>): boolean => s.status === 'scheduled' || s.status === 'to_be_dispatched';

/** No window: an end far enough (a year) that no route reaches it. */
export const OPEN_END_SECONDS = 365 * 24 * 3600;
/** Lateness costs this much more than travel when an unplaced stop is placed: it goes where it harms windows least. */
const LATENESS_WEIGHT = 1000;
/** Rounding noise of float travel times is not lateness (planning and the auto-dispatch fit check alike). */
export const LATE_EPSILON_SECONDS = 0.5;

/** Where the open part of a tour starts: a point (or anywhere, when null) and the seconds after `startAt` it is free. */
export interface Start {
  point: Point | null;
  readyAfterSeconds: number;
}

/**
 * The stop under way (approaching or arrived) is served first, so the open part starts there once it is served;
 * else the driver's last known position; else the last stop served; else anywhere (the first open stop is free).
 */
export function startOf(tourStops: readonly PlanStop[], driverPosition: Point | null): Start {
  const underway = tourStops.filter((s) => s.status === 'approaching' || s.status === 'arrived').at(-1);
  if (underway) return { point: { lat: underway.lat, lng: underway.lng }, readyAfterSeconds: underway.serviceDurationSeconds };
  if (driverPosition) return { point: driverPosition, readyAfterSeconds: 0 };
  const served = tourStops.filter((s) => s.status === 'completed' || s.status === 'failed').at(-1);
  return { point: served ? { lat: served.lat, lng: served.lng } : null, readyAfterSeconds: 0 };
}

/**
 * For every stop, the stops among `stops` that must come before it: a package's pickup before its drop-off, and a
 * booking's pickups before its drop-offs (the rule `dropoffsBeforePickups` checks on every tour).
 */
export function predecessors(stops: readonly PlanStop[], links: readonly PackageLink[]): Map<string, Set<string>> {
  const ids = new Set(stops.map((s) => s.id));
  const preds = new Map(stops.map((s) => [s.id, new Set<string>()]));
  for (const link of links) {
    if (ids.has(link.pickupStopId) && ids.has(link.dropoffStopId) && link.pickupStopId !== link.dropoffStopId) preds.get(link.dropoffStopId)!.add(link.pickupStopId);
  }
  for (const d of stops) {
    if (d.type !== 'dropoff' || !d.bookingId) continue;
    for (const p of stops) if (p.type === 'pickup' && p.bookingId === d.bookingId) preds.get(d.id)!.add(p.id);
  }
  return preds;
}

/**
 * What the solver sees. Locations: 0 the start (anywhere when there is no start point: zero travel from it), 1 the
 * end (open: zero travel to it), 2 + i the i-th movable stop. `points` are what to route: the start point, if any,
 * then the stops; `matrix` (filled by `withTravel`) is seconds between locations.
 */
export interface Model<S extends PlanStop = PlanStop> {
  stops: S[];
  preds: Map<string, Set<string>>;
  start: Start;
  startAt: Date;
  points: Point[];
  matrix: number[][];
  /** Problem requests: a pickup with its only drop-off as a pair, every other stop alone; stop indices into `stops`. */
  requests: Request[];
}

export function modelOf<S extends PlanStop>(stops: readonly S[], links: readonly PackageLink[], start: Start, startAt: Date): Model<S> {
  const preds = predecessors(stops, links);
  const succs = new Map(stops.map((s) => [s.id, [] as string[]]));
  for (const [id, before] of preds) for (const p of before) succs.get(p)!.push(id);
  const index = new Map(stops.map((s, i) => [s.id, i]));
  const paired = new Set<string>();
  const requests: Request[] = [];
  // A pair is a pickup with exactly one dependant that depends on it alone: the solver keeps those in order. Longer
  // chains (one pickup, several drop-offs) are kept in order by `keepPrecedence` after the search.
  for (const s of stops) {
    const after = succs.get(s.id)!;
    const d = after[0];
    if (after.length === 1 && d && preds.get(d)!.size === 1 && !paired.has(s.id) && !paired.has(d)) {
      paired.add(s.id).add(d);
      requests.push({ pickup: index.get(s.id)!, delivery: index.get(d)! });
    }
  }
  for (const s of stops) if (!paired.has(s.id)) requests.push({ pickup: index.get(s.id)! });
  const points = [...(start.point ? [start.point] : []), ...stops.map((s) => ({ lat: s.lat, lng: s.lng }))];
  return { stops: [...stops], preds, start, startAt, points, matrix: [], requests };
}

/** The location matrix from the routed `points` matrix (see Model). */
export function withTravel<S extends PlanStop>(model: Model<S>, pointSeconds: readonly (readonly number[])[]): Model<S> {
  const n = model.stops.length + 2;
  const offset = model.start.point ? 1 : 0;
  const pointOf = (loc: number): number | null => (loc === 0 ? (model.start.point ? 0 : null) : loc === 1 ? null : loc - 2 + offset);
  const matrix: number[][] = [];
  for (let a = 0; a < n; a++) {
    const row: number[] = [];
    for (let b = 0; b < n; b++) {
      const pa = pointOf(a);
      const pb = pointOf(b);
      // Nothing drives back to the start, and the end is wherever the last stop is.
      row.push(a === b || b === 0 || pa === null || pb === null ? 0 : Math.max(0, pointSeconds[pa]?.[pb] ?? 0));
    }
    matrix.push(row);
  }
  return { ...model, matrix };
}

const seconds = (model: Model, at: Date | null, fallback: number): number => (at ? (at.getTime() - model.startAt.getTime()) / 1000 : fallback);

/** `maxStops`: the service's max_stops_per_tour, for tours a plan proposes (a tour being reordered keeps its count). */
export function problemOf(model: Model, vehicles: number, maxStops?: number): Problem {
  return {
    ...(maxStops !== undefined ? { maxStopsPerRoute: maxStops } : {}),
    travel: { kind: 'matrix', matrix: model.matrix },
    stops: model.stops.map((s, i) => ({
      location: i + 2,
      demand: 0,
      earliest: Math.max(0, seconds(model, s.timeWindowStartsAt, 0)),
      latest: seconds(model, s.timeWindowEndsAt, OPEN_END_SECONDS),
      service: s.serviceDurationSeconds,
    })),
    requests: model.requests,
    vehicles: Array.from({ length: vehicles }, () => ({ start: 0, end: 1, earliest: model.start.readyAfterSeconds, latest: Number.MAX_SAFE_INTEGER, capacity: Number.MAX_SAFE_INTEGER })),
  };
}

export interface Schedule {
  /** Seconds driven from the start through the route (the open end costs nothing). */
  travelSeconds: number;
  /** Seconds each stop's service begins after its window closed, by stop index (absent when on time). */
  late: Map<number, number>;
  /** Seconds after `startAt` each stop's service begins, in route order (the API's ETA: API guide, "ETAs"). */
  arrivals: number[];
}

/** Drives one route (stop indices): travel each leg, wait for a window to open, serve, as ETAs are computed. */
export function scheduleOf(model: Model, route: readonly number[]): Schedule {
  let t = model.start.readyAfterSeconds;
  let travelSeconds = 0;
  let at = 0;
  const late = new Map<number, number>();
  const arrivals: number[] = [];
  for (const i of route) {
    const s = model.stops[i]!;
    const leg = model.matrix[at]?.[i + 2] ?? 0;
    travelSeconds += leg;
    t = Math.max(t + leg, seconds(model, s.timeWindowStartsAt, 0));
    const over = t - seconds(model, s.timeWindowEndsAt, Number.POSITIVE_INFINITY);
    if (over > LATE_EPSILON_SECONDS) late.set(i, over);
    arrivals.push(t);
    t += s.serviceDurationSeconds;
    at = i + 2;
  }
  return { travelSeconds, late, arrivals };
}

const costOf = (model: Model, route: readonly number[]): number => {
  const { travelSeconds, late } = scheduleOf(model, route);
  return travelSeconds + LATENESS_WEIGHT * [...late.values()].reduce((a, b) => a + b, 0);
};

/** Where in `route` stop `i` may go: after every predecessor and before every dependant already on it. */
function bounds(model: Model, route: readonly number[], i: number): [number, number] | null {
  const id = model.stops[i]!.id;
  let lo = 0;
  let hi = route.length;
  route.forEach((j, k) => {
    const other = model.stops[j]!.id;
    if (model.preds.get(id)!.has(other)) lo = Math.max(lo, k + 1);
    if (model.preds.get(other)!.has(id)) hi = Math.min(hi, k);
  });
  return lo <= hi ? [lo, hi] : null;
}

/**
 * Inserts stop `i` into the cheapest route and position that keep precedence, among routes with `room` stops to spare
 * under `maxStops`; `routes` are changed in place. False when no route has the room.
 */
function placeCheapest(model: Model, routes: number[][], i: number, only: number | undefined, maxStops: number, room = 1): boolean {
  const fits = (r: number) => (only === undefined || r === only) && routes[r]!.length + room <= maxStops;
  let best: { r: number; k: number; cost: number } | null = null;
  routes.forEach((route, r) => {
    if (!fits(r)) return;
    const range = bounds(model, route, i);
    if (!range) return;
    const base = costOf(model, route);
    for (let k = range[0]; k <= range[1]; k++) {
      const cost = costOf(model, [...route.slice(0, k), i, ...route.slice(k)]) - base;
      if (!best || cost < best.cost) best = { r, k, cost };
    }
  });
  const chosen = best as { r: number; k: number } | null;
  if (chosen) routes[chosen.r]!.splice(chosen.k, 0, i);
  else {
    const r = only ?? routes.findIndex((_, k) => fits(k));
    if (r === -1 || !fits(r)) return false;
    routes[r]!.push(i);
  }
  return true;
}

/** Stops related by precedence, directly or through others: they travel on one tour. */
function componentOf(model: Model, i: number): Set<number> {
  const index = new Map(model.stops.map((s, k) => [s.id, k]));
  const seen = new Set([i]);
  const queue = [i];
  while (queue.length) {
    const k = queue.pop()!;
    const id = model.stops[k]!.id;
    const related = [...model.preds.get(id)!, ...[...model.preds].filter(([, before]) => before.has(id)).map(([other]) => other)];
    for (const other of related) {
      const j = index.get(other)!;
      if (seen.has(j)) continue;
      queue.push(j);
      seen.add(j);
    }
  }
  return seen;
}

/** Topological order of some stops (predecessors first), ties in index order. */
function inPrecedenceOrder(model: Model, members: readonly number[]): number[] {
  const left = [...members].sort((a, b) => a - b);
  const done: number[] = [];
  while (left.length) {
    const k = left.findIndex((i) => ![...model.preds.get(model.stops[i]!.id)!].some((p) => left.some((j) => model.stops[j]!.id === p)));
    done.push(...left.splice(k === -1 ? 0 : k, 1));
  }
  return done;
}

export interface Placement {
  routes: number[][];
  unplaced: Unplaced[];
}

/**
 * The solver's routes made whole: stops it left unassigned are placed where they cost least (their window ignored,
 * precedence kept), stops that precedence ties to another tour or order are moved after their predecessors (chains
 * the solver does not model), and every stop that is then served after its window is named. No route grows beyond
 * `maxStops`: a stop (or chain) no route has room for is on none and named with reason `capacity`.
 */
export function placeAll(model: Model, solution: Pick<Solution, 'routes' | 'unassigned'>, maxStops = Number.POSITIVE_INFINITY): Placement {
  const routes = solution.routes.map((r) => [...r]);
  if (!routes.length) routes.push([]);
  const routeOf = (i: number) => routes.findIndex((r) => r.includes(i));
  const moved = new Set<number>();
  const left: number[] = [];
  // Precedence chains first: each component rides on the tour of its first placed member, in precedence order.
  const handled = new Set<number>();
  for (let i = 0; i < model.stops.length; i++) {
    if (handled.has(i)) continue;
    const component = componentOf(model, i);
    component.forEach((k) => handled.add(k));
    if (component.size <= 1) continue;
    const ordered = inPrecedenceOrder(model, [...component]);
    const target = ordered.map(routeOf).find((r) => r !== -1);
    // A component split across routes or out of order is placed again whole, predecessors first: each member then
    // only has to follow what is already placed, which always fits.
    if (ordered.some((k) => routeOf(k) === -1 || routeOf(k) !== target || !respects(model, routes[target!]!, k))) {
      for (const k of ordered) {
        const r = routeOf(k);
        if (r === -1) continue;
        routes[r]!.splice(routes[r]!.indexOf(k), 1);
        moved.add(k);
      }
    }
    // The whole chain rides on one route: the target if it has room for the members still to place, else the first
    // placed member goes wherever the whole chain fits.
    const missing = ordered.filter((k) => routeOf(k) === -1).length;
    let into = target !== undefined && routes[target]!.length + missing <= maxStops ? target : undefined;
    for (const k of ordered) {
      if (routeOf(k) !== -1) continue;
      if (!placeCheapest(model, routes, k, into, maxStops, into === undefined ? missing : 1)) {
        left.push(...ordered.filter((m) => routeOf(m) === -1 && !left.includes(m)));
        break;
      }
      into = routeOf(k);
    }
  }
  const unassignedStops = new Set(solution.unassigned.flatMap((r) => [model.requests[r]?.pickup, model.requests[r]?.delivery]).filter((i): i is number => i !== undefined));
  for (const i of [...unassignedStops].sort((a, b) => a - b)) {
    if (routeOf(i) === -1 && !left.includes(i) && !placeCheapest(model, routes, i, undefined, maxStops)) left.push(i);
  }
  const unplaced: Unplaced[] = left.sort((a, b) => a - b).map((i) => ({ stop_id: model.stops[i]!.id, reason: 'capacity' }));
  for (const route of routes) {
    for (const i of scheduleOf(model, route).late.keys()) {
      unplaced.push({ stop_id: model.stops[i]!.id, reason: moved.has(i) && !unassignedStops.has(i) ? 'precedence' : 'time_window' });
    }
  }
  return { routes, unplaced };
}

/** Whether stop `i` on `route` comes after all its predecessors and before all its dependants there. */
function respects(model: Model, route: readonly number[], i: number): boolean {
  const k = route.indexOf(i);
  const range = bounds(model, [...route.slice(0, k), ...route.slice(k + 1)], i);
  return range !== null && k >= range[0] && k <= range[1];
}
