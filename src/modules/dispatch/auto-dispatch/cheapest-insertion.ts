// Where a new booking's stops cost least on an open tour, and whether they fit there (decision 1350): pure, no I/O.
// The open part of a tour is driven from its start (planning/problem.ts `startOf`) with the booking's stops put in,
// in booking order, at every pair of positions; a placement fits when the tour stays within its stop limit, no stop
// is later than before (new stops on time), the load never exceeds the capacity and the last stop ends in the shift.
import { LATE_EPSILON_SECONDS } from '../planning/problem.ts';

/** Why a tour cannot take the booking: the binding constraint of a `no_fit` skip. */
export type FitConstraint = 'stop_limit' | 'time_window' | 'capacity' | 'shift';

/** A stop as the fit check needs it (a StopRow fits). */
export interface FitStop {
  id: string;
  status: string;
  lat: number;
  lng: number;
  timeWindowStartsAt: Date | null;
  timeWindowEndsAt: Date | null;
  serviceDurationSeconds: number;
}

/** One open tour, read for the decision. */
export interface TourForFit<S extends FitStop = FitStop> {
  id: string;
  /** The tour's stops in tour order, all statuses. */
  stops: S[];
  /** Where the open part starts (null: anywhere, the first open stop is free) and how long after `startAt`. */
  start: { point: { lat: number; lng: number } | null; readyAfterSeconds: number };
  startAt: Date;
  maxStops: number;
  /** Packages the vehicle holds at once; null when no shift says (then capacity is not applied). */
  capacity: number | null;
  /** When the driver's shift ends; null when no shift covers the tour. */
  endsAt: Date | null;
}

/** Packages picked up (+) and delivered (−) at each stop, by stop id; the booking's stops included. */
export type LoadChanges = ReadonlyMap<string, number>;

/** Seconds between the routed points: row = from. */
export type Matrix = readonly (readonly number[])[];

export interface Fit {
  tourId: string;
  /** Added travel seconds. */
  cost: number;
  /** The tour's stop ids in their new order (the booking's stops in). */
  order: string[];
}

export type FitResult = { fits: true; fit: Fit } | { fits: false; constraint: FitConstraint };

/** Past this many stops a booking's stops are put in one after the other (each at its cheapest place), not jointly. */
const JOINT_STOPS = 2;

/** The stops a new stop may go between: scheduled stops after the last one served or under way. */
export function openPartOf<S extends FitStop>(stops: readonly S[]): { fixed: S[]; open: S[] } {
  let last = -1;
  stops.forEach((s, i) => {
    if (s.status !== 'scheduled' && s.status !== 'cancelled') last = i;
  });
  const fixed = stops.slice(0, last + 1);
  const open = stops.slice(last + 1).filter((s) => s.status === 'scheduled');
  return { fixed, open };
}

/** The points to route for a tour's fit: its start (if any), its open stops, then the booking's stops. */
export function pointsOf(tour: TourForFit, added: readonly FitStop[]): { lat: number; lng: number }[] {
  const { open } = openPartOf(tour.stops);
  return [...(tour.start.point ? [tour.start.point] : []), ...open, ...added].map((s) => ({ lat: s.lat, lng: s.lng }));
}

interface Drive {
  travel: number;
  violated: FitConstraint | null;
}

/**
 * Whether the booking's stops fit on the tour and, if so, where they cost least. `matrix` routes `pointsOf(tour,
 * added)`; `load` starts at what the vehicle holds when the open part starts (`loadAtStart`).
 */
export function cheapestFit(tour: TourForFit, added: readonly FitStop[], matrix: Matrix, changes: LoadChanges): FitResult {
  const { fixed, open } = openPartOf(tour.stops);
  const live = tour.stops.filter((s) => s.status !== 'cancelled').length;
  if (live + added.length > tour.maxStops) return { fits: false, constraint: 'stop_limit' };
  const offset = tour.start.point ? 1 : 0;
  // Nodes: 0…n-1 the open stops, n…n+k-1 the booking's stops; their point is node + offset.
  const nodes: FitStop[] = [...open, ...added];
  const n = open.length;
  const at = (s: Date | null, fallback: number) => (s ? (s.getTime() - tour.startAt.getTime()) / 1000 : fallback);
  const earliest = nodes.map((s) => Math.max(0, at(s.timeWindowStartsAt, 0)));
  const latest = nodes.map((s) => at(s.timeWindowEndsAt, Number.POSITIVE_INFINITY));
  const endBy = tour.endsAt ? at(tour.endsAt, 0) : Number.POSITIVE_INFINITY;
  const delta = nodes.map((s) => changes.get(s.id) ?? 0);
  const startLoad = loadAtStart(fixed, changes);
  const leg = (from: number, to: number): number => (from < 0 ? (offset ? (matrix[0]?.[to + offset] ?? 0) : 0) : (matrix[from + offset]?.[to + offset] ?? 0));

  /** Drives the route (node indices); `allowedLate` is each open stop's lateness before the insertion. */
  const drive = (route: readonly number[], allowedLate: readonly number[] | null): Drive & { late: number[] } => {
    let t = tour.start.readyAfterSeconds;
    let travel = 0;
    let load = startLoad;
    let prev = -1;
    let violated: FitConstraint | null = null;
    const late = new Array<number>(n).fill(0);
    for (const i of route) {
      const d = leg(prev, i);
      travel += d;
      t = Math.max(t + d, earliest[i]!);
      const over = t - latest[i]!;
      if (i < n) late[i] = Math.max(0, over);
      const allowed = i < n && allowedLate ? allowedLate[i]! : 0;
      if (allowedLate && over > allowed + LATE_EPSILON_SECONDS) violated ??= 'time_window';
      load += delta[i]!;
      if (tour.capacity !== null && load > tour.capacity) violated ??= 'capacity';
      t += nodes[i]!.serviceDurationSeconds;
      prev = i;
    }
    if (route.length && t > endBy + LATE_EPSILON_SECONDS) violated ??= 'shift';
    return { travel, violated, late };
  };

  const base = open.map((_, i) => i);
  const before = drive(base, null);
  const newNodes = added.map((_, k) => n + k);
  const seen = new Map<FitConstraint, number>();
  let best: { cost: number; route: number[] } | null = null;
  const consider = (route: number[]): Drive => {
    const driven = drive(route, before.late);
    if (driven.violated) seen.set(driven.violated, (seen.get(driven.violated) ?? 0) + 1);
    else if (!best || driven.travel - before.travel < best.cost) best = { cost: driven.travel - before.travel, route };
    return driven;
  };
  if (newNodes.length <= JOINT_STOPS) {
    // Every pair of positions, the booking's stops in booking order (its pickups before its drop-offs).
    const [first, second] = newNodes;
    for (let i = 0; i <= n; i++) {
      if (second === undefined) {
        consider([...base.slice(0, i), first!, ...base.slice(i)]);
        continue;
      }
      for (let j = i; j <= n; j++) consider([...base.slice(0, i), first!, ...base.slice(i, j), second, ...base.slice(j)]);
    }
  } else {
    // Longer bookings: each stop at its cheapest place after the one before it, then the whole route is checked.
    let route = base;
    let from = 0;
    for (const node of newNodes) {
      let pick: { cost: number; k: number } | null = null;
      for (let k = from; k <= route.length; k++) {
        const candidate = [...route.slice(0, k), node, ...route.slice(k)];
        const driven = drive(candidate, null);
        if (!pick || driven.travel < pick.cost) pick = { cost: driven.travel, k };
      }
      route = [...route.slice(0, pick!.k), node, ...route.slice(pick!.k)];
      from = pick!.k + 1;
    }
    consider(route);
  }
  const chosen = best as { cost: number; route: number[] } | null;
  if (!chosen) return { fits: false, constraint: bindingOf(seen) };
  const order = [...fixed.map((s) => s.id), ...chosen.route.map((i) => nodes[i]!.id)];
  // Cancelled stops stay on the tour after its open stops, as they were listed (they are never driven to).
  const cancelled = tour.stops.filter((s) => s.status === 'cancelled' && !order.includes(s.id)).map((s) => s.id);
  return { fits: true, fit: { tourId: tour.id, cost: chosen.cost, order: [...order, ...cancelled] } };
}

/** What the vehicle holds when its open part starts: packages picked up at stops served or under way, not delivered. */
function loadAtStart(fixed: readonly FitStop[], changes: LoadChanges): number {
  return Math.max(0, fixed.filter((s) => s.status !== 'failed' && s.status !== 'cancelled').reduce((load, s) => load + (changes.get(s.id) ?? 0), 0));
}

/** The constraint that blocked most placements; ties go to the one a dispatcher can act on first. */
const PRIORITY: readonly FitConstraint[] = ['stop_limit', 'capacity', 'shift', 'time_window'];
export function bindingOf(seen: ReadonlyMap<FitConstraint, number>): FitConstraint {
  let best: FitConstraint = 'time_window';
  let count = -1;
  for (const c of PRIORITY) {
    const n = seen.get(c) ?? 0;
    if (n > count) {
      best = c;
      count = n;
    }
  }
  return best;
}

/** The cheapest of several tours' fits, or the binding constraint across those that had none. */
export function cheapestOf(results: readonly FitResult[]): FitResult {
  let best: Fit | null = null;
  const seen = new Map<FitConstraint, number>();
  for (const r of results) {
    if (r.fits) {
      if (!best || r.fit.cost < best.cost) best = r.fit;
    } else seen.set(r.constraint, (seen.get(r.constraint) ?? 0) + 1);
  }
  return best ? { fits: true, fit: best } : { fits: false, constraint: bindingOf(seen) };
}
