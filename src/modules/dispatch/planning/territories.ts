// Territories for the `balanced` objective (§16, issue 39; decision 1790): before the search, the waiting bookings
// are cut into one compact area per shift, as much work (stops and time) in each as the shift's hours allow, and the
// search may put a booking only on its area's shift; the solver's makespan then evens the hours inside that frame.
// A second part of the search may move what an area's shift could not fit, and a long tour's bookings, to a nearby
// area (secondPartOf); the planner's insertion after it tries nearby first, then wherever it fits. Pure.
import type { Solution } from '../../../optimizer/index.ts';
import { fleetScheduleOf, inPrecedenceOrder, shiftEarliest, type FleetModel } from './fleet.ts';
import type { Point } from './travel.ts';

/** Rounds of recentring, and of reweighing within each (the fleet bench's day settles within these: decision 1790). */
const RECENTRE_ROUNDS = 8;
const WEIGHT_ROUNDS = 80;
/** The first reweighing step, in mean squared distances per share missed; it shrinks to 0 over the rounds. */
const STEP = 0.5;
/** Other areas a booking its own area's shift could not take may go to before any shift at all. */
const NEIGHBOURS = 2;
/** An area may hold this much more than its share, so that a booking near a border need not cross the city. */
const SLACK = 1.05;
/** The share of the planner's budget the search spends within the areas; the rest is its second part (secondPartOf). */
export const FIRST_PART = 0.6;
/** A tour this much longer than the mean may hand bookings to its neighbours in the search's second part. */
const LONG = 1.1;
/** No tour grows past this many times the mean stops in the search's second part (§16's balance: ≤ 1.25). */
const EVEN_STOPS = 1.15;

interface Unit {
  requests: number[];
  /** Where the unit's drop-offs are (its pickup when it has none): pickups sit at shared depots. */
  at: Point;
  stops: number;
  /**
   * What the unit weighs in an area's share: its stops and its time, each against the day's mean, half and half.
   * Its time, roughly: its stops' service and the way to it from its nearest neighbours (a booking in the sparse
   * outskirts costs more driving than one in a dense street).
   */
  work: number;
  /** The stop that stands for the unit in the travel matrix (its first drop-off). */
  first: number;
  /** The shifts that may serve every request of the unit. */
  allowed: number[];
}

/** Per request (as the model's `allowed`), the shifts of its area, and of its area and the nearest others. */
export interface Territories {
  /** What the search may use: the area's shift alone. */
  areas: number[][];
  /** Where a booking the area's shift could not take goes first: the area's and its NEIGHBOURS nearest others. */
  nearby: number[][];
}

/**
 * Per request, the shifts the search may use: a booking's requests are one unit, put on its area's shift; a request
 * bound to a running tour, or one only one shift may serve, keeps what it had.
 *
 * The areas are a power diagram (each unit goes to the centre k with the least squared distance minus a weight w_k):
 * its cells are convex, so areas do not overlap, and raising the weight of an area short of its share draws units in
 * from its neighbours until the shares are met (after Balzer's capacity-constrained power diagrams). The centres start
 * as consecutive runs of the units along a Hilbert curve (compact runs of equal work) and, between rounds of
 * reweighing, move to their members' mean; a last pass moves what is still over an area's room to the nearest area
 * with room.
 */
export function territoriesOf(model: FleetModel): Territories {
  const V = model.shifts.length;
  const units = unitsOf(model);
  const free = units.filter((u) => u.allowed.length > 1);
  if (V < 2 || !free.length) return { areas: model.allowed, nearby: model.allowed };

  // Work already fixed per shift (its running tour's open stops, single-shift bookings) counts against its share and
  // anchors its area.
  const fixed = new Array<number>(V).fill(0);
  const anchors: Point[][] = model.shifts.map(() => []);
  for (const u of units) {
    if (u.allowed.length !== 1) continue;
    fixed[u.allowed[0]!]! += u.work;
    anchors[u.allowed[0]!]!.push(u.at);
  }
  const hours = model.shifts.map((s, k) => Math.max(0, (s.endsAt.getTime() - model.origin.getTime()) / 1000 - shiftEarliest(model, k)));
  const totalWork = units.reduce((sum, u) => sum + u.work, 0);
  const typical = totalWork / units.length;
  // A shift's share of the work follows the hours it has in its area: its hours less the way out from its start and
  // back (an area across the city takes less, so that hours stay even too).
  let target: number[] = [];
  let room: number[] = [];
  const shareOut = (commute: readonly number[]) => {
    const inArea = hours.map((h, k) => Math.max(h / 4, h - 2 * commute[k]!));
    const total = inArea.reduce((a, b) => a + b, 0);
    const share = inArea.map((h) => (total > 0 ? (totalWork * h) / total : totalWork / V));
    target = share.map((x, k) => x - fixed[k]!);
    room = share.map((x, k) => x * SLACK + typical - fixed[k]!);
  };
  shareOut(hours.map(() => 0));

  const scale = Math.cos((meanOf(free.map((u) => u.at)).lat * Math.PI) / 180);
  const xy = free.map((u) => [u.at.lng * scale, u.at.lat] as const);
  const centres = seedCentres(model, free, xy, anchors, target, scale);
  const anchorXY = anchors.map((a) => a.map((p) => [p.lng * scale, p.lat] as const));
  const d2 = (i: number, k: number) => (xy[i]![0] - centres[k]![0]) ** 2 + (xy[i]![1] - centres[k]![1]) ** 2;
  const weight = new Array<number>(V).fill(0);
  const choice = new Array<number>(free.length).fill(-1);
  const assign = () => {
    const size = new Array<number>(V).fill(0);
    free.forEach((u, i) => {
      let best = -1;
      let cost = Number.POSITIVE_INFINITY;
      for (const k of u.allowed) {
        if (!centres[k]) continue;
        const c = d2(i, k) - weight[k]!;
        if (c < cost) [best, cost] = [k, c];
      }
      choice[i] = best;
      if (best >= 0) size[best]! += u.work;
    });
    return size;
  };
  for (let round = 0; round < RECENTRE_ROUNDS; round++) {
    // The weights move in units of the mean squared distance to a unit's centre: the scale of the cells.
    weight.fill(0);
    assign();
    const spread = free.reduce((sum, _, i) => sum + (choice[i]! >= 0 ? d2(i, choice[i]!) : 0), 0) / free.length;
    for (let t = 0; t < WEIGHT_ROUNDS; t++) {
      const size = assign();
      const step = STEP * (1 - t / WEIGHT_ROUNDS);
      for (let k = 0; k < V; k++) if (centres[k]) weight[k]! += (step * spread * (target[k]! - size[k]!)) / Math.max(1, target[k]!);
    }
    if (round === RECENTRE_ROUNDS - 1) break;
    assign();
    const commute = new Array<number>(V).fill(0);
    for (let k = 0; k < V; k++) {
      const members = [...anchorXY[k]!, ...xy.filter((_, i) => choice[i] === k)];
      if (centres[k] && members.length) centres[k] = [members.reduce((a, p) => a + p[0], 0) / members.length, members.reduce((a, p) => a + p[1], 0) / members.length];
      const from = model.matrix[model.stops.length + 2 * k];
      const mine = free.flatMap((u, i) => (choice[i] === k ? [u.first] : []));
      if (from && mine.length) commute[k] = mine.reduce((sum, i) => sum + (from[i] ?? 0), 0) / mine.length;
    }
    shareOut(commute);
  }
  const size = assign();
  // What is over an area's room goes, the cheapest move first, to an area with room it may use.
  for (let k = 0; k < V; k++) {
    while (size[k]! > room[k]!) {
      let move: { i: number; to: number; extra: number } | null = null;
      free.forEach((u, i) => {
        if (choice[i] !== k) return;
        for (const j of u.allowed) {
          if (j === k || !centres[j] || size[j]! + u.work > room[j]!) continue;
          const extra = d2(i, j) - weight[j]! - (d2(i, k) - weight[k]!);
          if (!move || extra < move.extra) move = { i, to: j, extra };
        }
      });
      if (!move) break;
      const { i, to } = move;
      size[k]! -= free[i]!.work;
      size[to]! += free[i]!.work;
      choice[i] = to;
    }
  }
  const areas = model.allowed.map((a) => [...a]);
  const nearby = model.allowed.map((a) => [...a]);
  free.forEach((u, i) => {
    // No shift the unit may use has an area: it stays free for the search.
    if (choice[i]! < 0) return;
    const cost = (k: number) => d2(i, k) - weight[k]!;
    const others = u.allowed.filter((k) => k !== choice[i] && centres[k]).sort((a, b) => cost(a) - cost(b) || a - b);
    for (const q of u.requests) {
      areas[q] = [choice[i]!];
      nearby[q] = [choice[i]!, ...others.slice(0, NEIGHBOURS)];
    }
  });
  return { areas, nearby };
}

/**
 * The search's second part, from what the first found: the bookings it could not place in their areas, and those of
 * the tours that finish well after the others (by LONG × the mean), may go to the nearby areas' shifts too — the
 * makespan then hands a long tour's bookings at its border to a neighbour with time to spare, and makes room next door for
 * what did not fit; no tour may grow past EVEN_STOPS × the mean stops (or past what it has), so stops stay even.
 */
export function secondPartOf(model: FleetModel, territories: Territories, found: Pick<Solution, 'routes' | 'unassigned'>): { eligible: number[][]; maxStops: number } {
  const requestOf = new Map<number, number>();
  model.requests.forEach((r, q) => {
    for (const i of [r.pickup, r.delivery]) if (i !== undefined) requestOf.set(i, q);
  });
  const widen = new Set(found.unassigned.map((q) => bookingOf(model, q)));
  const hours = found.routes.map((route, k) => (route.length ? fleetScheduleOf(model, k, route).finish - shiftEarliest(model, k) : null));
  const used = hours.filter((h): h is number => h !== null);
  const mean = used.reduce((a, b) => a + b, 0) / Math.max(1, used.length);
  found.routes.forEach((route, k) => {
    if (hours[k] === null || hours[k]! <= LONG * mean) return;
    for (const i of route) if (requestOf.has(i)) widen.add(bookingOf(model, requestOf.get(i)!));
  });
  const stops = found.routes.reduce((sum, r) => sum + r.length, 0) + found.unassigned.reduce((sum, q) => sum + (model.requests[q]!.pickup !== undefined ? 1 : 0) + (model.requests[q]!.delivery !== undefined ? 1 : 0), 0);
  const tours = Math.max(1, found.routes.filter((r) => r.length).length);
  const maxStops = Math.max(Math.ceil((EVEN_STOPS * stops) / tours), ...found.routes.map((r) => r.length));
  return { eligible: territories.areas.map((a, q) => (widen.has(bookingOf(model, q)) ? territories.nearby[q]! : a)), maxStops };
}

/** The booking request q belongs to (a request without one stands alone). */
function bookingOf(model: FleetModel, q: number): string {
  const r = model.requests[q]!;
  const first = r.pickup ?? r.delivery!;
  return model.stops[first]!.bookingId ?? `stop:${first}`;
}

/** A booking's requests (a request without a booking is its own unit), where they go and which shifts all may use. */
function unitsOf(model: FleetModel): Unit[] {
  const byBooking = new Map<string, number[]>();
  model.requests.forEach((_, q) => byBooking.set(bookingOf(model, q), [...(byBooking.get(bookingOf(model, q)) ?? []), q]));
  const units = [...byBooking.values()].map((requests): Unit => {
    const drops = requests.flatMap((q) => (model.requests[q]!.delivery !== undefined ? [model.requests[q]!.delivery!] : []));
    const members = requests.flatMap((q) => [model.requests[q]!.pickup, model.requests[q]!.delivery].filter((i): i is number => i !== undefined));
    const points = (drops.length ? drops : members).map((i) => model.points[i]!);
    const may = requests.map((q) => model.allowed[q]!).reduce((a, b) => a.filter((k) => b.includes(k)));
    // Only shifts that could serve the booking alone: an early window far out is no area's business whose shift starts
    // at another depot (where none could, the search and the diagnosis decide).
    const route = inPrecedenceOrder(model, [...new Set(members)]);
    const fits = may.length > 1 ? may.filter((k) => fleetScheduleOf(model, k, route).feasible) : may;
    const allowed = fits.length ? fits : may;
    const service = [...new Set(members)].reduce((sum, i) => sum + model.stops[i]!.serviceDurationSeconds, 0);
    return { requests, at: meanOf(points), stops: new Set(members).size, work: service, first: drops[0] ?? members[0]!, allowed };
  });
  // The way in: the mean of the two shortest legs from other units (one unit alone: none).
  for (const u of units) {
    let a = Number.POSITIVE_INFINITY;
    let b = Number.POSITIVE_INFINITY;
    for (const v of units) {
      if (v === u) continue;
      const leg = model.matrix[v.first]?.[u.first] ?? Number.POSITIVE_INFINITY;
      if (leg < a) [a, b] = [leg, a];
      else if (leg < b) b = leg;
    }
    if (Number.isFinite(b)) u.work += (a + b) / 2;
    else if (Number.isFinite(a)) u.work += a;
  }
  const meanStops = units.reduce((sum, u) => sum + u.stops, 0) / units.length;
  const meanSeconds = units.reduce((sum, u) => sum + u.work, 0) / units.length;
  for (const u of units) u.work = (u.stops / meanStops + (meanSeconds > 0 ? u.work / meanSeconds : 1)) / 2;
  return units;
}

/**
 * A centre per shift: a shift with fixed work starts at its anchors; the free units, in Hilbert-curve order, are cut
 * into consecutive runs of equal work, one per other shift with work to get (the weights even out unequal shares),
 * each run's mean given to the shift whose start is nearest. A shift left without a centre gets no area.
 */
function seedCentres(model: FleetModel, free: readonly Unit[], xy: readonly (readonly [number, number])[], anchors: readonly (readonly Point[])[], target: readonly number[], scale: number): ([number, number] | null)[] {
  const centres: ([number, number] | null)[] = anchors.map((a) => (a.length ? [meanOf(a).lng * scale, meanOf(a).lat] : null));
  const open = model.shifts.map((_, k) => k).filter((k) => centres[k] === null && target[k]! > 0);
  if (!open.length) return centres;
  const xs = xy.map((p) => p[0]);
  const ys = xy.map((p) => p[1]);
  const [x0, y0] = [Math.min(...xs), Math.min(...ys)];
  const side = Math.max(Math.max(...xs) - x0, Math.max(...ys) - y0) || 1;
  const order = free.map((_, i) => i).sort((a, b) => hilbert(xy[a]![0] - x0, xy[a]![1] - y0, side) - hilbert(xy[b]![0] - x0, xy[b]![1] - y0, side) || a - b);
  const total = free.reduce((sum, u) => sum + u.work, 0);
  const runs: [number, number][] = [];
  let run: number[] = [];
  let work = 0;
  for (const i of order) {
    run.push(i);
    work += free[i]!.work;
    if (runs.length < open.length - 1 && work >= ((runs.length + 1) * total) / open.length) {
      runs.push(meanXY(run.map((j) => xy[j]!)));
      run = [];
    }
  }
  if (run.length) runs.push(meanXY(run.map((j) => xy[j]!)));
  const startOf = (k: number) => model.points[model.stops.length + 2 * k]!;
  for (const c of runs) {
    if (!open.length) break;
    const near = (k: number) => (startOf(k).lng * scale - c[0]) ** 2 + (startOf(k).lat - c[1]) ** 2;
    const k = open.reduce((best, x) => (near(x) < near(best) ? x : best));
    open.splice(open.indexOf(k), 1);
    centres[k] = c;
  }
  return centres;
}

/** The point's index along a Hilbert curve over a 1,024 × 1,024 grid of the square [0, side)². */
function hilbert(x: number, y: number, side: number): number {
  const n = 1024;
  let X = Math.min(n - 1, Math.floor((x / side) * n));
  let Y = Math.min(n - 1, Math.floor((y / side) * n));
  let d = 0;
  for (let s = n / 2; s >= 1; s /= 2) {
    const rx = (X & s) > 0 ? 1 : 0;
    const ry = (Y & s) > 0 ? 1 : 0;
    d += s * s * ((3 * rx) ^ ry);
    if (ry === 0) {
      if (rx === 1) [X, Y] = [n - 1 - X, n - 1 - Y];
      [X, Y] = [Y, X];
    }
  }
  return d;
}

const meanXY = (points: readonly (readonly [number, number])[]): [number, number] => [points.reduce((a, p) => a + p[0], 0) / points.length, points.reduce((a, p) => a + p[1], 0) / points.length];

const meanOf = (points: readonly Point[]): Point => ({
  lat: points.reduce((sum, p) => sum + p.lat, 0) / Math.max(1, points.length),
  lng: points.reduce((sum, p) => sum + p.lng, 0) / Math.max(1, points.length),
});
