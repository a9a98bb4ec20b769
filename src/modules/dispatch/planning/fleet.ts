// Pure mapping of a plan with drivers (docs/api-guide.md "Optimising tours and planning dispatch"; decisions 1301, 1302): each driver's shift is one vehicle of
// the solver (its start and end, its hours, its capacities), each booking's stops are requests only the shifts with
// its skills and of its managing organizations may serve, and whatever stays unplaced is explained by checking the
// booking alone against each shift (`diagnose`).
import type { Problem, Request, Solution } from '../../../optimizer/index.ts';
import { LATE_EPSILON_SECONDS, modelOf, OPEN_END_SECONDS, type PlanStop } from './problem.ts';
import type { PackageLink } from '../stops/index.ts';
import type { Point } from './travel.ts';

export interface FleetShift {
  id: string;
  driverId: string;
  startsAt: Date;
  endsAt: Date;
  start: Point;
  /** Null: the tour ends at its last stop. */
  end: Point | null;
  capacity: { packages?: number | undefined; weightGrams?: number | undefined };
  skills: readonly string[];
  /** The driver's organization (a booking with managing organizations goes only to their drivers). */
  organizationId: string | null;
  /** The driver's tour under way in this shift, re-planned from where it stands (decision 1303). */
  running?: RunningTour | undefined;
}

/**
 * A tour under way: its stops done or under way stay where they are and are not planned; the vehicle leaves `from`
 * (where the driver is free of them) no earlier than `readyAt`, with `onBoard` goods loaded, and its open stops
 * (`openStopIds`) stay on it whatever the plan does with the rest.
 */
export interface RunningTour {
  tourId: string;
  from: Point;
  readyAt: Date;
  openStopIds: readonly string[];
  /** Its stops done or under way, in tour order: they keep their positions. */
  keptStopIds: readonly string[];
  /** Packages picked up (or being picked up) whose drop-off is one of `openStopIds`. */
  onBoard: readonly FleetPackage[];
}

export type FleetStop = PlanStop & { requiredSkills: readonly string[] };

export interface FleetPackage extends PackageLink {
  weightGrams: number | null;
}

export type FleetReason = 'shift_too_short' | 'capacity' | 'skills' | 'time_window' | 'no_driver_available';

export interface FleetUnplaced {
  booking_id: string | null;
  stop_id: string;
  reason: FleetReason;
  detail: string;
}

/** No limit given: larger than any load. */
const UNLIMITED = 1_000_000_000;

/**
 * Locations: stop i is i; shift k starts at n + 2k and ends at n + 2k + 1; `open` (n + 2m) is an end anywhere (no
 * travel to it). `points` are what to route: the stops, then each shift's start and end (its start again when open).
 */
export interface FleetModel {
  stops: FleetStop[];
  shifts: FleetShift[];
  /** Time 0 of the problem. */
  origin: Date;
  /** Seconds after `origin` a tour may start at the earliest (now, or later). */
  readyAt: number;
  points: Point[];
  matrix: number[][];
  /** Metres between locations from the travel source, as `matrix`; absent: great-circle metres (straight lines). */
  meters?: number[][];
  preds: Map<string, Set<string>>;
  /** Packages on board after each stop relative to before it, by stop index: [packages, grams]. */
  loads: [number, number][];
  /** Solver requests over stop indices, before eligibility. */
  requests: Request[];
  /** Per request, the shifts (indices) that may serve it. */
  allowed: number[][];
  managing: ManagingOrganizations;
  /** Per shift, what is on board when it leaves: [packages, grams] (goods of a running tour). */
  initialLoads: [number, number][];
}

/** Booking → its managing organizations (none: any driver). */
export type ManagingOrganizations = ReadonlyMap<string, readonly string[]>;

export function fleetModelOf(stops: readonly FleetStop[], packages: readonly FleetPackage[], shifts: readonly FleetShift[], managing: ManagingOrganizations, origin: Date, now: Date): FleetModel {
  const base = modelOf(stops, packages, { point: null, readyAfterSeconds: 0 }, origin);
  const index = new Map(stops.map((s, i) => [s.id, i]));
  const loads: [number, number][] = stops.map(() => [0, 0]);
  for (const p of packages) {
    const from = index.get(p.pickupStopId);
    const to = index.get(p.dropoffStopId);
    // A package counts only where both its ends are planned: goods already on board are counted below, per vehicle.
    if (from === undefined || to === undefined || from === to) continue;
    loads[from]![0] += 1;
    loads[from]![1] += p.weightGrams ?? 0;
    loads[to]![0] -= 1;
    loads[to]![1] -= p.weightGrams ?? 0;
  }
  // A running tour's goods on board leave at their drop-offs, which only its vehicle may serve (decision 0951).
  const boundTo = new Map<number, number>();
  const onBoardAt = new Set<number>();
  const initialLoads = shifts.map((shift, k): [number, number] => {
    const load: [number, number] = [0, 0];
    for (const id of shift.running?.openStopIds ?? []) if (index.has(id)) boundTo.set(index.get(id)!, k);
    for (const p of shift.running?.onBoard ?? []) {
      const to = index.get(p.dropoffStopId);
      if (to === undefined || index.has(p.pickupStopId)) continue;
      loads[to]![0] -= 1;
      loads[to]![1] -= p.weightGrams ?? 0;
      load[0] += 1;
      load[1] += p.weightGrams ?? 0;
      onBoardAt.add(to);
    }
    return load;
  });
  const requests = base.requests.map((r): Request => {
    const members = [r.pickup, r.delivery].filter((i): i is number => i !== undefined);
    const k = members.map((i) => boundTo.get(i)).find((v) => v !== undefined);
    if (k === undefined) return r;
    // A lone drop-off of goods on board is a delivery-only request of its vehicle.
    return r.delivery === undefined && r.pickup !== undefined && onBoardAt.has(r.pickup) ? { delivery: r.pickup, vehicle: k } : { ...r, vehicle: k };
  });
  const allowed = requests.map((r) => {
    // A running tour's own stops stay on it: already on the tour, they need no eligibility again.
    if (r.vehicle !== undefined) return [r.vehicle];
    const members = [r.pickup, r.delivery].filter((i): i is number => i !== undefined).map((i) => stops[i]!);
    const skills = new Set(members.flatMap((s) => s.requiredSkills));
    const orgs = members.flatMap((s) => (s.bookingId ? (managing.get(s.bookingId) ?? []) : []));
    return shifts.flatMap((shift, k) => ([...skills].every((x) => shift.skills.includes(x)) && (!orgs.length || (shift.organizationId !== null && orgs.includes(shift.organizationId))) ? [k] : []));
  });
  const points = [...stops.map((s) => ({ lat: s.lat, lng: s.lng })), ...shifts.flatMap((s) => [s.running?.from ?? s.start, s.end ?? s.start])];
  return { stops: [...stops], shifts: [...shifts], origin, readyAt: Math.max(0, (now.getTime() - origin.getTime()) / 1000), points, matrix: [], preds: base.preds, loads, requests, allowed, managing, initialLoads };
}

/** The location matrix from the routed `points` matrix, with the open end appended. */
export function withFleetTravel(model: FleetModel, pointSeconds: readonly (readonly number[])[], pointMeters?: readonly (readonly number[])[]): FleetModel {
  const size = model.points.length;
  // Plain loops, not a callback per cell: a re-plan of a day has 2,000 stops, 4 million cells (bench/replan.ts).
  const square = (cells: readonly (readonly number[])[]) => {
    const out: number[][] = [];
    for (let a = 0; a <= size; a++) {
      const row = new Array<number>(size + 1).fill(0);
      const from = a < size ? cells[a] : undefined;
      if (from) for (let b = 0; b < size; b++) if (b !== a) row[b] = Math.max(0, from[b] ?? 0);
      out.push(row);
    }
    return out;
  };
  return { ...model, matrix: square(pointSeconds), ...(pointMeters ? { meters: square(pointMeters) } : {}) };
}

const secondsOf = (model: FleetModel, at: Date | null, fallback: number): number => (at ? (at.getTime() - model.origin.getTime()) / 1000 : fallback);
const openEnd = (model: FleetModel) => model.points.length;
export const startOfShift = (model: FleetModel, k: number) => model.stops.length + 2 * k;
export const endOfShift = (model: FleetModel, k: number) => (model.shifts[k]!.end ? model.stops.length + 2 * k + 1 : openEnd(model));
/** When shift k's vehicle may leave: not before now, the shift's start, nor (running) the driver is free. */
export const shiftEarliest = (model: FleetModel, k: number): number => Math.max(model.readyAt, secondsOf(model, model.shifts[k]!.startsAt, 0), secondsOf(model, model.shifts[k]!.running?.readyAt ?? null, 0));

export type FleetObjective = 'fewest_tours' | 'least_driving' | 'balanced';
export const SOLVER_OBJECTIVE = { fewest_tours: 'vehicles-then-distance', least_driving: 'distance', balanced: 'makespan' } as const;

/**
 * The solver's problem: a request no shift may serve has an empty `vehicles` (the solver returns it unassigned).
 * `eligible` narrows the model's eligibility for the search alone (the balanced objective's territories).
 */
export function fleetProblemOf(model: FleetModel, maxStops?: number, eligible: readonly (readonly number[])[] = model.allowed): { problem: Problem } {
  const requests: Request[] = model.requests.map((r, q) => {
    const allowed = eligible[q]!;
    return allowed.length === model.shifts.length ? { ...r } : { ...r, vehicles: allowed };
  });
  const problem: Problem = {
    ...(maxStops !== undefined ? { maxStopsPerRoute: maxStops } : {}),
    travel: { kind: 'matrix', matrix: model.matrix },
    stops: model.stops.map((s, i) => ({
      location: i,
      demand: model.loads[i]![0],
      demands: model.loads[i]!,
      earliest: Math.max(0, secondsOf(model, s.timeWindowStartsAt, 0)),
      latest: secondsOf(model, s.timeWindowEndsAt, OPEN_END_SECONDS),
      service: s.serviceDurationSeconds,
    })),
    requests,
    vehicles: model.shifts.map((s, k) => ({
      start: startOfShift(model, k),
      end: endOfShift(model, k),
      earliest: shiftEarliest(model, k),
      latest: secondsOf(model, s.endsAt, OPEN_END_SECONDS),
      capacity: s.capacity.packages ?? UNLIMITED,
      capacities: [s.capacity.packages ?? UNLIMITED, s.capacity.weightGrams ?? UNLIMITED],
      ...(s.running ? { initialLoad: model.initialLoads[k]![0], initialLoads: model.initialLoads[k]! } : {}),
    })),
  };
  return { problem };
}

export interface FleetSchedule {
  /** Seconds after `origin` each stop's service begins, in route order. */
  arrivals: number[];
  /** Seconds driven from the shift's start to its end (or the last stop, when open). */
  travelSeconds: number;
  /** Seconds after `origin` the tour is back at its end. */
  finish: number;
  /** Whether every window, the shift's end and both capacities hold. */
  feasible: boolean;
  /**
   * Seconds after `origin` the tour leaves its start: when it must, not before (docs/api-guide.md "Optimising tours and
   * planning dispatch": a tour that would wait at its first stop leaves that much later; a running tour has left).
   */
  departure: number;
  /** Seconds waited at or before stops for a window to open, after the tour left. */
  waitingSeconds: number;
  /** Metres along the route, start to end: the travel source's (`meters`), else great-circle. */
  distanceMeters: number;
}

/**
 * Drives shift k's route: leave the start when it must (a tour not under way leaves as late as it can without being
 * later anywhere: by the waiting it would do before its first stop without slack, Savelsbergh's forward slack), wait
 * for windows, serve, reach the end.
 */
export function fleetScheduleOf(model: FleetModel, k: number, route: readonly number[]): FleetSchedule {
  const earliest = shiftEarliest(model, k);
  const { delay, ...first } = driveFrom(model, k, route, earliest);
  if (model.shifts[k]!.running || delay <= 0) return first;
  const { delay: _none, ...later } = driveFrom(model, k, route, earliest + delay);
  return later;
}

function driveFrom(model: FleetModel, k: number, route: readonly number[], departure: number): FleetSchedule & { delay: number } {
  const shift = model.shifts[k]!;
  let t = departure;
  let at = startOfShift(model, k);
  let travelSeconds = 0;
  let feasible = true;
  const onBoard = [...model.initialLoads[k]!];
  const arrivals: number[] = [];
  let waitingSeconds = 0;
  let distanceMeters = 0;
  // How much later the tour could leave: no later than any stop's slack plus the waiting before it, nor than the
  // shift's end allows.
  let slack = Number.POSITIVE_INFINITY;
  for (const i of route) {
    const s = model.stops[i]!;
    const leg = model.matrix[at]![i]!;
    travelSeconds += leg;
    distanceMeters += model.meters ? model.meters[at]![i]! : metresBetween(model.points[at], model.points[i]);
    waitingSeconds += Math.max(0, secondsOf(model, s.timeWindowStartsAt, 0) - (t + leg));
    t = Math.max(t + leg, secondsOf(model, s.timeWindowStartsAt, 0));
    const latest = secondsOf(model, s.timeWindowEndsAt, Number.POSITIVE_INFINITY);
    if (t > latest + LATE_EPSILON_SECONDS) feasible = false;
    slack = Math.min(slack, waitingSeconds + Math.max(0, latest - t));
    arrivals.push(t);
    t += s.serviceDurationSeconds;
    onBoard[0]! += model.loads[i]![0];
    onBoard[1]! += model.loads[i]![1];
    if (onBoard[0]! > (shift.capacity.packages ?? UNLIMITED) || onBoard[1]! > (shift.capacity.weightGrams ?? UNLIMITED)) feasible = false;
    at = i;
  }
  const last = model.matrix[at]![endOfShift(model, k)]!;
  travelSeconds += last;
  distanceMeters += model.meters ? model.meters[at]![endOfShift(model, k)]! : metresBetween(model.points[at], model.points[endOfShift(model, k)]);
  const finish = t + last;
  const ends = secondsOf(model, shift.endsAt, Number.POSITIVE_INFINITY);
  if (finish > ends + LATE_EPSILON_SECONDS) feasible = false;
  slack = Math.min(slack, waitingSeconds + Math.max(0, ends - finish));
  return { arrivals, travelSeconds, finish, feasible, departure, waitingSeconds, distanceMeters, delay: feasible ? Math.min(slack, waitingSeconds) : 0 };
}

/** Great-circle metres between two points; 0 when one is the open end (no place). */
function metresBetween(a: Point | undefined, b: Point | undefined): number {
  if (!a || !b) return 0;
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLng = (b.lng - a.lng) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * 6_371_000 * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Whether shift k may serve stop i (its request's skills and managing organizations). */
export function mayServe(model: FleetModel, k: number, i: number): boolean {
  const q = model.requests.findIndex((r) => r.pickup === i || r.delivery === i);
  return q !== -1 && model.allowed[q]!.includes(k);
}

/** Whether every stop on `route` comes after its predecessors, all of which are on it too. */
export function keepsPrecedence(model: FleetModel, route: readonly number[]): boolean {
  const position = new Map(route.map((i, p) => [model.stops[i]!.id, p]));
  return route.every((i, p) => [...model.preds.get(model.stops[i]!.id)!].every((pred) => (position.get(pred) ?? Number.POSITIVE_INFINITY) < p));
}

/** The route without every booking of which a stop comes before one of its predecessors or has one on no earlier position. */
function withoutBrokenBookings(model: FleetModel, route: readonly number[]): number[] {
  const position = new Map(route.map((i, p) => [model.stops[i]!.id, p]));
  const keyOf = (i: number) => model.stops[i]!.bookingId ?? model.stops[i]!.id;
  const broken = new Set(route.filter((i, p) => [...model.preds.get(model.stops[i]!.id)!].some((pred) => !((position.get(pred) ?? Number.POSITIVE_INFINITY) < p))).map(keyOf));
  return route.filter((i) => !broken.has(keyOf(i)));
}

/**
 * The solver's routes, kept only where they hold under the model's own check (precedence across requests the solver
 * does not see, skills and organizations, windows, shift hours, capacities): a route that does not is dropped whole, its stops unplaced; a booking out of order leaves its route alone (its stops unplaced, the rest kept when it holds). The
 * stops on no route are returned for `diagnose`. A running tour's route must also hold all its open stops and stay
 * within `maxStops` with the stops it keeps; else it stays as it is, its open stops in their order and nothing
 * added (decision 1303).
 */
export function acceptRoutes(model: FleetModel, solution: Pick<Solution, 'routes'>, maxStops = Number.POSITIVE_INFINITY): { routes: number[][]; unplaced: number[] } {
  const index = new Map(model.stops.map((s, i) => [s.id, i]));
  const routes = model.shifts.map((shift, k) => {
    const route = solution.routes[k] ?? [];
    if (!shift.running) {
      // A booking the solver put out of order (a chain it does not see) leaves the route; the rest must hold.
      const kept = withoutBrokenBookings(model, route);
      return kept.every((i) => mayServe(model, k, i)) && fleetScheduleOf(model, k, kept).feasible ? kept : [];
    }
    const holds = keepsPrecedence(model, route) && route.every((i) => mayServe(model, k, i)) && fleetScheduleOf(model, k, route).feasible;
    const own = shift.running.openStopIds.flatMap((id) => (index.has(id) ? [index.get(id)!] : []));
    const whole = own.every((i) => route.includes(i)) && route.length + shift.running.keptStopIds.length <= maxStops;
    return holds && whole ? [...route] : own;
  });
  const placed = new Set(routes.flat());
  return { routes, unplaced: model.stops.map((_, i) => i).filter((i) => !placed.has(i)) };
}

// ---- Why a booking is unplaced --------------------------------------------------------------------------------

/** A booking's stops in precedence order, as `diagnose` checks them. */
export interface DiagnosedStop {
  id: string;
  /** Seconds after the origin; null: no window. */
  earliest: number | null;
  latest: number | null;
  service: number;
  requiredSkills: readonly string[];
}

export interface DiagnosedShift {
  id: string;
  /** Seconds after the origin the tour may leave, and must be back. */
  from: number;
  to: number;
  skills: readonly string[];
  capacity: { packages?: number | undefined; weightGrams?: number | undefined };
  eligible: boolean;
  /** Travel seconds start → first stop → … → last stop → end: stops.length + 1 legs. */
  legs: readonly number[];
}

export interface Diagnosis {
  reason: FleetReason;
  detail: string;
}

const RANK: Record<FleetReason | 'fits', number> = { no_driver_available: 0, skills: 1, capacity: 2, time_window: 3, shift_too_short: 4, fits: 5 };

/**
 * Why a booking (its stops alone, `load` the most it has on board) found no place: each shift is checked in the order
 * eligibility, skills, capacity, windows, hours, and the shift that got furthest names the binding constraint. A
 * booking that fits some shift alone was crowded out: the shifts had no time left for it (`shift_too_short`).
 */
export function diagnose(stops: readonly DiagnosedStop[], load: { packages: number; weightGrams: number }, shifts: readonly DiagnosedShift[], at: (seconds: number) => string): Diagnosis {
  if (!shifts.length) return { reason: 'no_driver_available', detail: 'no shift of the given drivers overlaps its time windows' };
  let best: { rank: number; diagnosis: Diagnosis } | null = null;
  for (const shift of shifts) {
    const result = checkShift(stops, load, shift, at);
    const rank = RANK[result === 'fits' ? 'fits' : result.reason];
    const diagnosis = result === 'fits' ? { reason: 'shift_too_short' as const, detail: `it fits shift ${shift.id} alone, but no shift had time or room left for it` } : result;
    if (!best || rank > best.rank) best = { rank, diagnosis };
  }
  return best!.diagnosis;
}

function checkShift(stops: readonly DiagnosedStop[], load: { packages: number; weightGrams: number }, shift: DiagnosedShift, at: (seconds: number) => string): Diagnosis | 'fits' {
  if (!shift.eligible) return { reason: 'no_driver_available', detail: `the driver of shift ${shift.id} is not of the booking's managing organizations` };
  const missing = [...new Set(stops.flatMap((s) => s.requiredSkills))].filter((x) => !shift.skills.includes(x));
  if (missing.length) return { reason: 'skills', detail: `shift ${shift.id} lacks ${missing.map((x) => `"${x}"`).join(', ')}` };
  if (load.packages > (shift.capacity.packages ?? UNLIMITED)) return { reason: 'capacity', detail: `${load.packages} packages; shift ${shift.id} carries ${shift.capacity.packages}` };
  if (load.weightGrams > (shift.capacity.weightGrams ?? UNLIMITED)) return { reason: 'capacity', detail: `${load.weightGrams / 1000} kg; shift ${shift.id} carries ${(shift.capacity.weightGrams ?? 0) / 1000} kg` };
  let t = shift.from;
  for (const [p, s] of stops.entries()) {
    t += shift.legs[p] ?? 0;
    if (s.latest !== null && t > s.latest + LATE_EPSILON_SECONDS) {
      const window = `${s.earliest !== null ? at(s.earliest) : '…'}–${at(s.latest)}`;
      const why = s.latest < shift.from ? `closes before shift ${shift.id} starts (${at(shift.from)})` : `cannot be reached in time from the start of shift ${shift.id}`;
      return { reason: 'time_window', detail: `stop ${s.id}: its window ${window} ${why}` };
    }
    if (s.earliest !== null && s.earliest > shift.to) return { reason: 'time_window', detail: `stop ${s.id}: its window opens ${at(s.earliest)}, after shift ${shift.id} ends (${at(shift.to)})` };
    t = Math.max(t, s.earliest ?? 0) + s.service;
  }
  t += shift.legs[stops.length] ?? 0;
  if (t > shift.to + LATE_EPSILON_SECONDS) return { reason: 'shift_too_short', detail: `shift ${shift.id} ends ${at(shift.to)}; the booking alone needs until ${at(t)}` };
  return 'fits';
}

/** The unplaced stops of the model, grouped by booking and explained. */
export function explainUnplaced(model: FleetModel, unplaced: readonly number[]): FleetUnplaced[] {
  const at = (seconds: number) => new Date(model.origin.getTime() + Math.round(seconds) * 1000).toISOString();
  const byBooking = new Map<string, number[]>();
  for (const i of unplaced) {
    const key = model.stops[i]!.bookingId ?? model.stops[i]!.id;
    byBooking.set(key, [...(byBooking.get(key) ?? []), i]);
  }
  const result: FleetUnplaced[] = [];
  for (const members of byBooking.values()) {
    const ordered = inPrecedenceOrder(model, members);
    let onBoard = [0, 0];
    let most = [0, 0];
    for (const i of ordered) {
      onBoard = [onBoard[0]! + model.loads[i]![0], onBoard[1]! + model.loads[i]![1]];
      most = [Math.max(most[0]!, onBoard[0]!), Math.max(most[1]!, onBoard[1]!)];
    }
    const stops = ordered.map((i) => {
      const s = model.stops[i]!;
      return { id: s.id, earliest: s.timeWindowStartsAt ? secondsOf(model, s.timeWindowStartsAt, 0) : null, latest: s.timeWindowEndsAt ? secondsOf(model, s.timeWindowEndsAt, 0) : null, service: s.serviceDurationSeconds, requiredSkills: s.requiredSkills };
    });
    const shifts = model.shifts.map((shift, k) => {
      const locations = [startOfShift(model, k), ...ordered, endOfShift(model, k)];
      return {
        id: shift.id,
        from: shiftEarliest(model, k),
        to: secondsOf(model, shift.endsAt, OPEN_END_SECONDS),
        skills: shift.skills,
        capacity: shift.capacity,
        eligible: organizationsOf(model, ordered).every((orgs) => !orgs.length || (shift.organizationId !== null && orgs.includes(shift.organizationId))),
        legs: locations.slice(1).map((to, p) => model.matrix[locations[p]!]![to]!),
      };
    });
    const { reason, detail } = diagnose(stops, { packages: most[0]!, weightGrams: most[1]! }, shifts, at);
    for (const i of ordered) result.push({ booking_id: model.stops[i]!.bookingId, stop_id: model.stops[i]!.id, reason, detail });
  }
  return result;
}

/** The managing organizations of each booking among some stops. */
const organizationsOf = (model: FleetModel, members: readonly number[]): (readonly string[])[] =>
  [...new Set(members.map((i) => model.stops[i]!.bookingId).filter((id): id is string => !!id))].map((id) => model.managing.get(id) ?? []);

/** Topological order (predecessors first), ties by index. */
export function inPrecedenceOrder(model: FleetModel, members: readonly number[]): number[] {
  const left = [...members].sort((a, b) => a - b);
  const done: number[] = [];
  while (left.length) {
    const k = left.findIndex((i) => ![...model.preds.get(model.stops[i]!.id)!].some((p) => left.some((j) => model.stops[j]!.id === p)));
    done.push(...left.splice(k === -1 ? 0 : k, 1));
  }
  return done;
}

/** The horizon whose shifts a plan uses: from now to the last window's end (a day from now where a stop has none). */
export function horizonOf(stops: readonly Pick<PlanStop, 'timeWindowEndsAt'>[], now: Date): { from: Date; to: Date } {
  const day = now.getTime() + 24 * 3600 * 1000;
  const to = Math.max(now.getTime() + 1, ...stops.map((s) => (s.timeWindowEndsAt ? s.timeWindowEndsAt.getTime() : day)));
  return { from: now, to: new Date(to) };
}
