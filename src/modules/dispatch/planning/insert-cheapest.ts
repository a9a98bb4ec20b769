// Cheapest insertion into a fleet's routes without moving what is on them (§16 `replan: only_new`, decision 1646):
// each booking's stops go, in precedence order, into the one route and the positions where they add least driving,
// and the stops already on a route keep their order. Pure: the fleet model (fleet.ts) says what fits.
import { endOfShift, fleetScheduleOf, inPrecedenceOrder, keepsPrecedence, mayServe, shiftEarliest, startOfShift, type FleetModel } from './fleet.ts';
import { LATE_EPSILON_SECONDS } from './problem.ts';

/** A placement of one group: route k with the group's stops in at `gaps` (gap g: between the route's g-th and g+1-th stop, 0 = first). */
interface Option {
  k: number;
  gaps: number[];
  cost: number;
}

/** Past this many position tuples per route a group's stops are put in one at a time (each where it costs least), not jointly. */
const JOINT_LIMIT = 50_000;

/** What breaks the rules on a route: lateness per stop, the overrun of the shift's end, the most over a capacity. */
interface Violations {
  late: Map<number, number>;
  overrun: number;
  overload: number;
}

const NONE: Violations = { late: new Map(), overrun: 0, overload: 0 };

/**
 * Drives shift k's route as fleetScheduleOf does (leave when the shift allows, wait for windows, serve, reach the end)
 * without the distances, stopping at the first rule broken beyond `allowed`: null then, else what it broke.
 */
/** Each stop's window in seconds after the origin (none: ±Infinity), computed once per model: every check reads them. */
const windowsOf = (() => {
  const cache = new WeakMap<FleetModel, { opens: Float64Array; closes: Float64Array }>();
  return (model: FleetModel) => {
    let found = cache.get(model);
    if (!found) {
      const origin = model.origin.getTime();
      const opens = Float64Array.from(model.stops, (s) => (s.timeWindowStartsAt ? (s.timeWindowStartsAt.getTime() - origin) / 1000 : Number.NEGATIVE_INFINITY));
      const closes = Float64Array.from(model.stops, (s) => (s.timeWindowEndsAt ? (s.timeWindowEndsAt.getTime() - origin) / 1000 : Number.POSITIVE_INFINITY));
      found = { opens, closes };
      cache.set(model, found);
    }
    return found;
  };
})();

function violationsOf(model: FleetModel, k: number, route: readonly number[], allowed: Violations | null): Violations | null {
  const shift = model.shifts[k]!;
  const origin = model.origin.getTime();
  const { opens, closes } = windowsOf(model);
  const capacity = [shift.capacity.packages ?? Number.POSITIVE_INFINITY, shift.capacity.weightGrams ?? Number.POSITIVE_INFINITY];
  const late = new Map<number, number>();
  const onBoard = [...model.initialLoads[k]!];
  let overload = 0;
  let t = shiftEarliest(model, k);
  let at = startOfShift(model, k);
  for (const i of route) {
    const s = model.stops[i]!;
    t = Math.max(t + model.matrix[at]![i]!, opens[i]!);
    const lateBy = Math.max(0, t - closes[i]! - LATE_EPSILON_SECONDS);
    if (allowed) {
      if (lateBy > (allowed.late.get(i) ?? 0)) return null;
    } else if (lateBy > 0) late.set(i, lateBy);
    t += s.serviceDurationSeconds;
    onBoard[0]! += model.loads[i]![0];
    onBoard[1]! += model.loads[i]![1];
    overload = Math.max(overload, onBoard[0]! - capacity[0]!, onBoard[1]! - capacity[1]!);
    if (allowed && overload > Math.max(0, allowed.overload)) return null;
    at = i;
  }
  const finish = t + model.matrix[at]![endOfShift(model, k)]!;
  const overrun = Math.max(0, finish - (shift.endsAt.getTime() - origin) / 1000 - LATE_EPSILON_SECONDS);
  if (allowed && overrun > allowed.overrun) return null;
  return { late, overrun, overload };
}

/**
 * Whether `candidate` (the base route with the group in) keeps the rules: every stop on time, the shift's end and the
 * capacities held. A route that already broke a rule (a running tour that is late) may take the group only where it
 * makes nothing worse: no stop later than it already was, no longer overrun, no heavier overload.
 */
const fits = (model: FleetModel, k: number, base: Violations, candidate: readonly number[]): boolean => violationsOf(model, k, candidate, base) !== null;

/** The route with the group's stops in at the gaps (gaps non-decreasing, in the group's order). */
export function withGroup(route: readonly number[], group: readonly number[], gaps: readonly number[]): number[] {
  const result: number[] = [];
  let m = 0;
  for (let g = 0; g <= route.length; g++) {
    while (m < group.length && gaps[m] === g) result.push(group[m++]!);
    if (g < route.length) result.push(route[g]!);
  }
  return result;
}

/** Added driving of the group in at the gaps: each run of the group's stops between two route nodes replaces that leg. */
function addedDriving(model: FleetModel, k: number, route: readonly number[], group: readonly number[], gaps: readonly number[]): number {
  const t = model.matrix;
  const node = (g: number) => (g === 0 ? startOfShift(model, k) : route[g - 1]!);
  const next = (g: number) => (g === route.length ? endOfShift(model, k) : route[g]!);
  let cost = 0;
  let m = 0;
  while (m < group.length) {
    const g = gaps[m]!;
    let last = node(g);
    cost -= t[last]![next(g)]!;
    while (m < group.length && gaps[m] === g) {
      cost += t[last]![group[m]!]!;
      last = group[m++]!;
    }
    cost += t[last]![next(g)]!;
  }
  return cost;
}

/** Every non-decreasing tuple of `m` gaps from `from` to `last`. */
function* gapTuples(m: number, from: number, last: number): Generator<number[]> {
  if (m === 0) {
    yield [];
    return;
  }
  for (let g = from; g <= last; g++) for (const rest of gapTuples(m - 1, g, last)) yield [g, ...rest];
}

const binomial = (n: number, k: number): number => {
  let r = 1;
  for (let i = 1; i <= k; i++) r = (r * (n - k + i)) / i;
  return r;
};

/** The cheapest placement of the group in route k that fits (null: none), its stops jointly or, past the limit, one at a time. */
function cheapestIn(model: FleetModel, k: number, route: readonly number[], group: readonly number[], maxStops: number): Option | null {
  if (route.length + group.length > maxStops) return null;
  const base = violationsOf(model, k, route, null) ?? NONE;
  // A stop whose predecessor is planned outside the group (a drop-off of goods picked up elsewhere) goes only after it.
  const ids = new Set(group.map((i) => model.stops[i]!.id));
  const outside = group.some((i) => [...model.preds.get(model.stops[i]!.id)!].some((id) => !ids.has(id)));
  const holds = (candidate: readonly number[]) => (!outside || keepsPrecedence(model, candidate)) && fits(model, k, base, candidate);
  if (binomial(route.length + group.length, group.length) > JOINT_LIMIT) return oneAtATime(model, k, route, group, holds);
  const options: Option[] = [];
  for (const gaps of gapTuples(group.length, 0, route.length)) options.push({ k, gaps, cost: addedDriving(model, k, route, group, gaps) });
  options.sort((a, b) => a.cost - b.cost);
  return options.find((o) => holds(withGroup(route, group, o.gaps))) ?? null;
}

/** The cheapest fitting placement of one group over the shifts `ks`: all their jointly enumerable options in one order. */
function cheapestOverall(model: FleetModel, routes: readonly (readonly number[])[], group: readonly number[], ks: readonly number[], limit: (k: number) => number): Option | null {
  const options: Option[] = [];
  const checks = new Map<number, (candidate: readonly number[]) => boolean>();
  let best: Option | null = null;
  for (const k of ks) {
    const route = routes[k]!;
    if (route.length + group.length > limit(k)) continue;
    if (binomial(route.length + group.length, group.length) > JOINT_LIMIT) {
      const found = cheapestIn(model, k, route, group, limit(k));
      if (found && (!best || found.cost < best.cost)) best = found;
      continue;
    }
    const base = violationsOf(model, k, route, null) ?? NONE;
    const ids = new Set(group.map((i) => model.stops[i]!.id));
    const outside = group.some((i) => [...model.preds.get(model.stops[i]!.id)!].some((id) => !ids.has(id)));
    checks.set(k, (candidate) => (!outside || keepsPrecedence(model, candidate)) && fits(model, k, base, candidate));
    for (const gaps of gapTuples(group.length, 0, route.length)) options.push({ k, gaps, cost: addedDriving(model, k, route, group, gaps) });
  }
  options.sort((a, b) => a.cost - b.cost);
  for (const o of options) {
    if (best && o.cost >= best.cost) break;
    if (checks.get(o.k)!(withGroup(routes[o.k]!, group, o.gaps))) return o;
  }
  return best;
}

/** A long booking: each stop where it costs least after the previous one, the route checked with the stops in so far. */
function oneAtATime(model: FleetModel, k: number, route: readonly number[], group: readonly number[], holds: (candidate: readonly number[]) => boolean): Option | null {
  let current = [...route];
  let from = 0;
  let cost = 0;
  const gaps: number[] = [];
  for (const [m, i] of group.entries()) {
    const options = Array.from({ length: current.length - from + 1 }, (_, d) => ({ g: from + d, cost: addedDriving(model, k, current, [i], [from + d]) })).sort((a, b) => a.cost - b.cost);
    const found = options.find((o) => holds(withGroup(current, [i], [o.g])));
    if (!found) return null;
    current = withGroup(current, [i], [found.g]);
    cost += found.cost;
    // In the original route's terms: the gap counts the route's own stops before it (the group's stops in so far are m).
    gaps.push(found.g - m);
    from = found.g + 1;
  }
  return { k, gaps, cost };
}

/**
 * Inserts the groups (each a booking's stops, indices into the model) into `routes`, cheapest first: each round every
 * group's cheapest fitting placement over the shifts that may serve all its stops, the cheapest of them taken, the
 * options on its route computed again. A route's stops keep their order; `kept` counts, per shift, the stops of its
 * tour done or under way (toward `maxStops`). Groups that fit nowhere are returned unplaced, their stops on no route.
 */
export function insertCheapest(model: FleetModel, routes: readonly (readonly number[])[], groups: readonly (readonly number[])[], maxStops = Number.POSITIVE_INFINITY, kept: readonly number[] = []): { routes: number[][]; unplaced: number[] } {
  const result = routes.map((r) => [...r]);
  const ordered = groups.map((g) => inPrecedenceOrder(model, g));
  const eligible = ordered.map((g) => model.shifts.map((_, k) => k).filter((k) => g.every((i) => mayServe(model, k, i))));
  const limit = (k: number) => maxStops - (kept[k] ?? 0);
  // One booking (a replan of an urgent one): every route's options in one order, checked until the first that fits.
  if (ordered.length === 1) {
    const found = cheapestOverall(model, result, ordered[0]!, eligible[0]!, limit);
    if (found) result[found.k] = withGroup(result[found.k]!, ordered[0]!, found.gaps);
    return { routes: result, unplaced: found ? [] : [...ordered[0]!] };
  }
  const best = ordered.map((g, q) => new Map(eligible[q]!.map((k) => [k, cheapestIn(model, k, result[k]!, g, limit(k))])));
  const left = new Set(ordered.map((_, q) => q));
  for (;;) {
    let pick: { q: number; option: Option } | null = null;
    for (const q of left) {
      for (const option of best[q]!.values()) if (option && (!pick || option.cost < pick.option.cost)) pick = { q, option };
    }
    if (!pick) break;
    const { q, option } = pick;
    result[option.k] = withGroup(result[option.k]!, ordered[q]!, option.gaps);
    left.delete(q);
    for (const other of left) if (best[other]!.has(option.k)) best[other]!.set(option.k, cheapestIn(model, option.k, result[option.k]!, ordered[other]!, limit(option.k)));
  }
  return { routes: result, unplaced: [...left].flatMap((q) => ordered[q]!) };
}

/**
 * After a solve (acceptRoutes): a booking partly on the routes leaves them (a running tour's own stops stay where they
 * are), then every booking on no route is put in where it adds least — a booking of one pickup and several drop-offs,
 * which the solver sees as unrelated stops, is placed whole here. What fits nowhere is returned unplaced.
 */
export function placeLeftovers(model: FleetModel, routes: readonly (readonly number[])[], unplaced: readonly number[], maxStops = Number.POSITIVE_INFINITY, kept: readonly number[] = []): { routes: number[][]; unplaced: number[] } {
  if (!unplaced.length) return { routes: routes.map((r) => [...r]), unplaced: [] };
  const keyOf = (i: number) => model.stops[i]!.bookingId ?? model.stops[i]!.id;
  const partial = new Set(unplaced.map(keyOf));
  const own = new Set(model.shifts.flatMap((s) => s.running?.openStopIds ?? []));
  const trimmed = routes.map((route, k) => {
    const left = route.filter((i) => own.has(model.stops[i]!.id) || !partial.has(keyOf(i)));
    // Taking stops out can only make a route earlier and lighter; where travel times say otherwise it stays as it was.
    return left.length === route.length || fleetScheduleOf(model, k, left).feasible ? left : [...route];
  });
  const placed = new Set(trimmed.flat());
  const groups = new Map<string, number[]>();
  model.stops.forEach((_, i) => {
    if (!placed.has(i)) groups.set(keyOf(i), [...(groups.get(keyOf(i)) ?? []), i]);
  });
  return insertCheapest(model, trimmed, [...groups.values()], maxStops, kept);
}
