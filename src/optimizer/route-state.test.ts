// The solver's bookkeeping, pinned by hand-computed tables: times, loads, latest begins, suffix maximum loads, the
// first violation of a route and how restoring feasibility banks requests. Points lie on a line, so every travel
// time below is a difference of coordinates.
import { describe, expect, it } from 'vitest';
import { compile } from './instance.ts';
import { RouteState } from './route-state.ts';
import { solve, type Problem, type Request, type Stop } from './index.ts';

/** Stops at x on the line (y = 0); the depot is location 0 at x = 0. */
function lineProblem(xs: number[], stops: Omit<Stop, 'location'>[], requests: Request[], vehicles: Partial<Problem['vehicles'][number]>[], maxStopsPerRoute?: number): Problem {
  return {
    travel: { kind: 'euclidean', points: [[0, 0], ...xs.map((x) => [x, 0] as const)] },
    stops: stops.map((s, k) => ({ ...s, location: k + 1 })),
    requests,
    vehicles: vehicles.map((v) => ({ start: 0, end: 0, earliest: 0, latest: 1000, capacity: 10, ...v })),
    ...(maxStopsPerRoute === undefined ? {} : { maxStopsPerRoute }),
  };
}

const open = (demand: number, service = 1, earliest = 0, latest = 1000) => ({ demand, service, earliest, latest });

/** Puts the stops on route r as a given start would (no feasibility repair), and returns the state. */
function place(problem: Problem, routes: number[][]): RouteState {
  const s = new RouteState(compile(problem, 'distance'));
  routes.forEach((stops, r) => {
    const off = r * s.stride;
    const end = s.nodes[off + 1]!;
    stops.forEach((x, k) => (s.nodes[off + 1 + k] = x));
    s.nodes[off + stops.length + 1] = end;
    s.len[r] = stops.length;
    s.rebuild(r);
  });
  return s;
}

/** Slots 0 (start) … L + 1 (end) of route r. */
const slots = (s: RouteState, a: Float64Array, r = 0) => Array.from(a.subarray(r * s.stride, r * s.stride + s.len[r]! + 2));

describe('route bookkeeping (rebuild)', () => {
  // Pickup at x = 10, delivery at x = 20 (earliest 30: the vehicle waits), back at the depot.
  const problem = lineProblem([10, 20], [open(3), open(-3, 1, 30, 40)], [{ pickup: 0, delivery: 1 }], [{ latest: 100 }]);
  const s = place(problem, [[0, 1]]);

  it('begins each stop at its arrival or its earliest time, whichever is later', () => {
    // start 0; pickup 0 + 10; delivery max(10 + 1 + 10, 30); end 30 + 1 + 20.
    expect(slots(s, s.begin)).toEqual([0, 10, 30, 51]);
  });

  it('carries the load after each stop', () => {
    expect(slots(s, s.load)).toEqual([0, 3, 0, 0]);
  });

  it('keeps, per position, the latest begin that leaves the rest of the route feasible', () => {
    // end 100; delivery min(100 - 20 - 1, 40); pickup min(40 - 10 - 1, 1000); start min(29 - 10 - 0, 1000).
    // Windows close WINDOW_TOLERANCE later in the compiled instance (instance.ts).
    slots(s, s.lateBegin).forEach((late, k) => expect(late).toBeCloseTo([19, 29, 40, 100][k]!, 6));
  });

  it('keeps the largest load from each position to the end', () => {
    expect(slots(s, s.suffixMaxLoad)).toEqual([3, 3, 0, 0]);
  });

  it('measures the distance driven and records where each stop is', () => {
    expect(s.routeDist[0]).toBe(40);
    expect([s.routeOf[0], s.posOf[0], s.routeOf[1], s.posOf[1]]).toEqual([0, 1, 0, 2]);
    expect(s.distance()).toBe(40);
  });

  it('starts from the goods already on board and keeps a lone pickup on board to the end', () => {
    // On board 2; a lone pickup of 4 at x = 5, then a pair of 3 (x = 10 → 20): loads 2, 6, 9, 6, 6.
    const p = lineProblem([5, 10, 20], [open(4), open(3), open(-3)], [{ pickup: 0 }, { pickup: 1, delivery: 2 }], [{ initialLoad: 2 }]);
    const t = place(p, [[0, 1, 2]]);
    expect(slots(t, t.load)).toEqual([2, 6, 9, 6, 6]);
    expect(slots(t, t.suffixMaxLoad)).toEqual([9, 9, 9, 6, 6]);
  });

  it('takes the suffix maximum from later positions when the load falls and rises again', () => {
    // Pair 4 (x = 5 → 10), then a lone pickup of 6 at x = 20 that stays to the end: loads 0, 4, 0, 6, 6.
    const p = lineProblem([5, 10, 20], [open(4), open(-4), open(6)], [{ pickup: 0, delivery: 1 }, { pickup: 2 }], [{}]);
    const t = place(p, [[0, 1, 2]]);
    expect(slots(t, t.load)).toEqual([0, 4, 0, 6, 6]);
    expect(slots(t, t.suffixMaxLoad)).toEqual([6, 6, 6, 6, 6]);
  });

  it('starts a route at the vehicle’s earliest time', () => {
    const late = lineProblem([10, 20], [open(3), open(-3)], [{ pickup: 0, delivery: 1 }], [{ earliest: 5, latest: 100 }]);
    expect(slots(place(late, [[0, 1]]), place(late, [[0, 1]]).begin)).toEqual([5, 15, 26, 47]);
  });

  it('counts neither the distance nor the vehicle of an unused route that ends elsewhere', () => {
    // Start at the depot (x = 0), end at x = 10: driving nowhere is still 10, but nobody drives it.
    const elsewhere = { ...problem, vehicles: [{ ...problem.vehicles[0]!, end: 1 }] };
    const t = place(elsewhere, []);
    expect(t.routeDist[0]).toBe(10);
    expect(t.distance()).toBe(0);
    expect(t.usedVehicles()).toBe(0);
    expect(t.cost()).toBe(0);
  });

  it('leaves an unused route at its start and end only', () => {
    const t = place(problem, []);
    expect([...t.routeOf, ...t.posOf]).toEqual([-1, -1, -1, -1]);
    expect(t.routeOfRequest(0)).toBe(-1);
    expect(t.len[0]).toBe(0);
    expect(slots(t, t.begin)).toEqual([0, 0]);
    slots(t, t.lateBegin).forEach((late) => expect(late).toBeCloseTo(100, 6));
    expect(t.usedVehicles()).toBe(0);
    expect(t.distance()).toBe(0);
  });
});

describe('first violation of a route', () => {
  const pair = [open(3), open(-3)];
  const cases: [string, Problem, number[][], number, number][] = [
    ['a feasible route has none', lineProblem([10, 20], pair, [{ pickup: 0, delivery: 1 }], [{}]), [[0, 1]], 0, -1],
    ['a stop served after its window', lineProblem([10, 20], [open(3), open(-3, 1, 0, 20)], [{ pickup: 0, delivery: 1 }], [{}]), [[0, 1]], 0, 2],
    ['a stop served exactly at its latest time is in time', lineProblem([10, 20], [open(3), open(-3, 1, 0, 21)], [{ pickup: 0, delivery: 1 }], [{}]), [[0, 1]], 0, -1],
    ['back at the end after the vehicle’s latest time', lineProblem([10, 20], pair, [{ pickup: 0, delivery: 1 }], [{ latest: 41 }]), [[0, 1]], 0, 3],
    ['back exactly at the latest time', lineProblem([10, 20], pair, [{ pickup: 0, delivery: 1 }], [{ latest: 42 }]), [[0, 1]], 0, -1],
    ['a load over the capacity', lineProblem([10, 20], [open(11), open(-11)], [{ pickup: 0, delivery: 1 }], [{}]), [[0, 1]], 0, 1],
    ['a load exactly at the capacity', lineProblem([10, 20], [open(10), open(-10)], [{ pickup: 0, delivery: 1 }], [{}]), [[0, 1]], 0, -1],
    ['goods on board over the capacity after a lone pickup', lineProblem([10], [open(4)], [{ pickup: 0 }], [{ initialLoad: 7 }]), [[0]], 0, 1],
    ['a delivery before its pickup', lineProblem([10, 20], pair, [{ pickup: 0, delivery: 1 }], [{}]), [[1, 0]], 0, 1],
    // Numbering: the delivery is stop 0, its pickup stop 1 (a check written as `d > 0` would miss it).
    ['a delivery numbered 0 before its pickup', lineProblem([10, 20], [open(-3), open(3)], [{ pickup: 1, delivery: 0 }], [{}]), [[0, 1]], 0, 1],
    ['a pickup numbered 0 after its delivery', lineProblem([10, 20], pair, [{ pickup: 0, delivery: 1 }], [{}]), [[1, 0]], 0, 1],
    ['a pickup whose delivery is on another route', lineProblem([10, 20], pair, [{ pickup: 0, delivery: 1 }], [{}, {}]), [[0], [1]], 0, 1],
    ['a delivery whose pickup is on another route', lineProblem([10, 20], pair, [{ pickup: 0, delivery: 1 }], [{}, {}]), [[0], [1]], 1, 1],
    ['a delivery whose pickup is on no route', lineProblem([10, 20], pair, [{ pickup: 0, delivery: 1 }], [{}]), [[1]], 0, 1],
    ['goods on board of another vehicle', lineProblem([10], [open(-3)], [{ delivery: 0, vehicle: 1 }], [{}, { initialLoad: 3 }]), [[0]], 0, 1],
    ['goods on board of this vehicle', lineProblem([10], [open(-3)], [{ delivery: 0, vehicle: 1 }], [{}, { initialLoad: 3 }]), [[], [0]], 1, -1],
    ['a request bound to vehicle 0 on vehicle 1', lineProblem([10, 20], pair, [{ pickup: 0, delivery: 1, vehicle: 0 }], [{}, {}]), [[], [0, 1]], 1, 1],
    ['a request bound to vehicle 0 on vehicle 0', lineProblem([10, 20], pair, [{ pickup: 0, delivery: 1, vehicle: 0 }], [{}, {}]), [[0, 1]], 0, -1],
    ['more stops than the limit: at the last stop', lineProblem([10, 20, 30], [open(1), open(1), open(1)], [{ pickup: 0 }, { pickup: 1 }, { pickup: 2 }], [{}], 2), [[0, 1, 2]], 0, 3],
    ['exactly the stop limit', lineProblem([10, 20], pair, [{ pickup: 0, delivery: 1 }], [{}], 2), [[0, 1]], 0, -1],
  ];
  it.each(cases)('%s', (_name, problem, routes, r, expected) => {
    expect(place(problem, routes).firstViolation(r)).toBe(expected);
  });
});

describe('restoring feasibility', () => {
  it('banks the request at the first violation until the route is feasible, and keeps the rest', () => {
    // Request 1 (stops 2, 3) is served too late; request 0 stays.
    const problem = lineProblem([10, 20, 30, 40], [open(1), open(-1), open(1), open(-1, 1, 0, 5)], [{ pickup: 0, delivery: 1 }, { pickup: 2, delivery: 3 }], [{}]);
    const s = place(problem, [[0, 2, 1, 3]]);
    s.removeFromBank(0);
    s.removeFromBank(1);
    s.restoreFeasibility(0);
    expect(s.stopsOf(0)).toEqual([0, 1]);
    expect(Array.from(s.bank.subarray(0, s.bankSize))).toEqual([1]);
    expect([s.routeOf[2], s.posOf[2], s.routeOf[3], s.posOf[3]]).toEqual([-1, -1, -1, -1]);
    expect(s.firstViolation(0)).toBe(-1);
  });

  it('banks the last stop’s request when the route comes back too late', () => {
    const problem = lineProblem([10, 20], [open(1), open(-1)], [{ pickup: 0 }, { delivery: 1 }], [{ latest: 39, initialLoad: 1 }]);
    const s = place(problem, [[0, 1]]);
    s.removeFromBank(0);
    s.removeFromBank(1);
    s.restoreAllFeasibility();
    expect(s.stopsOf(0)).toEqual([0]);
    expect(s.routeOfRequest(1)).toBe(-1);
    expect(s.routeOfRequest(0)).toBe(0);
  });

  it('takes both halves of a pair split over two routes off', () => {
    const problem = lineProblem([10, 20], [open(1), open(-1)], [{ pickup: 0, delivery: 1 }], [{}, {}]);
    const s = place(problem, [[0], [1]]);
    s.removeFromBank(0);
    s.removeRequest(0);
    expect([s.len[0], s.len[1]]).toEqual([0, 0]);
    expect([s.routeOf[0], s.routeOf[1]]).toEqual([-1, -1]);
    expect(s.bankSize).toBe(1);
  });

  it('takes a lone stop off and does nothing for a request already in the bank', () => {
    const problem = lineProblem([10, 20], [open(1), open(-1)], [{ pickup: 0 }, { delivery: 1 }], [{ initialLoad: 1 }]);
    const s = place(problem, [[0, 1]]);
    s.removeFromBank(0);
    s.removeFromBank(1);
    s.removeRequest(1);
    expect(s.stopsOf(0)).toEqual([0]);
    expect(s.bankSize).toBe(1);
    s.removeRequest(1);
    expect(s.bankSize).toBe(1);
    expect(s.stopsOf(0)).toEqual([0]);
    s.removeRequest(0);
    expect(s.stopsOf(0)).toEqual([]);
    expect(Array.from(s.bank.subarray(0, s.bankSize))).toEqual([1, 0]);
  });
});

describe('routes of the second vehicle', () => {
  // Vehicle 1 starts at x = 30 (location 3) at time 2 and ends at the depot.
  const problem = lineProblem([10, 20, 30], [open(1), open(-1), open(2)], [{ pickup: 0, delivery: 1 }, { pickup: 2 }], [{}, { start: 3, earliest: 2, latest: 70 }]);

  it('starts at its own start node, place and time', () => {
    const s = place(problem, [[], [0, 1]]);
    // start 2 at x = 30; pickup at x = 10: 2 + 20; delivery at x = 20: 22 + 1 + 10; back at x = 0: 33 + 1 + 20.
    expect(slots(s, s.begin, 1)).toEqual([2, 22, 33, 54]);
    expect(s.routeDist[1]).toBe(50);
    expect(s.firstViolation(1)).toBe(-1);
  });

  it('restores feasibility on its route, not on the first one', () => {
    // The pair is split over the two routes (pickup on 0, delivery on 1): both halves go to the bank, the lone pickup
    // stays on route 1.
    const split = place(problem, [[0], [1, 2]]);
    split.removeFromBank(0);
    split.removeFromBank(1);
    split.restoreFeasibility(1);
    expect(split.stopsOf(1)).toEqual([2]);
    expect(split.stopsOf(0)).toEqual([]);
    expect(split.routeOfRequest(0)).toBe(-1);
    expect(split.firstViolation(1)).toBe(-1);
  });

  it('fingerprints the second vehicle’s route by its stops', () => {
    expect(place(problem, [[], [2]]).hash()).not.toBe(place(problem, [[], [0]]).hash());
    expect(place(problem, [[], [2]]).hash()).not.toBe(place(problem, [[2], []]).hash());
  });
});

describe('the request bank', () => {
  const problem = lineProblem([10, 20], [open(1), open(-1)], [{ pickup: 0 }, { pickup: 1 }], [{}]);

  it('holds a request once however often it is banked or taken out', () => {
    const s = place(problem, []);
    s.addToBank(0);
    expect(Array.from(s.bank.subarray(0, s.bankSize))).toEqual([0, 1]);
    s.removeFromBank(1);
    s.removeFromBank(1);
    expect(Array.from(s.bank.subarray(0, s.bankSize))).toEqual([0]);
    expect(Array.from(s.bankIndex)).toEqual([0, -1]);
  });

  it('leaves an empty route alone even when its vehicle cannot reach its end in time', () => {
    // Ends at x = 20 (location 2) by time 5: infeasible with no stop at all; nothing to take off, no endless loop.
    const stuck = { ...problem, vehicles: [{ ...problem.vehicles[0]!, end: 2, latest: 5 }] };
    const s = place(stuck, []);
    expect(s.firstViolation(0)).toBe(1);
    s.restoreFeasibility(0);
    expect(s.len[0]).toBe(0);
    expect(s.bankSize).toBe(2);
  });
});

describe('inserting and copying', () => {
  const problem = lineProblem([10, 20, 30], [open(1), open(-1), open(2)], [{ pickup: 0, delivery: 1 }, { pickup: 2 }], [{}, {}]);

  it('puts a pair after the given positions and a lone stop after its position, and takes them out of the bank', () => {
    const s = place(problem, []);
    expect(s.bankSize).toBe(2);
    s.insertSingle(1, 2, 0);
    expect(s.stopsOf(1)).toEqual([2]);
    s.insertPair(1, 0, 1, 0, 1);
    // Pickup after the start (position 0), delivery after what was position 1 (the lone pickup).
    expect(s.stopsOf(1)).toEqual([0, 2, 1]);
    expect(s.bankSize).toBe(0);
    expect(s.routeOfRequest(0)).toBe(1);
    expect(s.routeOfRequest(1)).toBe(1);
    expect([s.posOf[0], s.posOf[2], s.posOf[1]]).toEqual([1, 2, 3]);
    expect(s.usedVehicles()).toBe(1);
  });

  it('puts a pair back to back at the end of a route', () => {
    const s = place(problem, []);
    s.insertSingle(0, 2, 0);
    s.insertPair(0, 0, 1, 1, 1);
    expect(s.stopsOf(0)).toEqual([2, 0, 1]);
    expect(s.firstViolation(0)).toBe(-1);
  });

  it('costs the used vehicles (hierarchically) plus the distance', () => {
    const inst = compile(problem, 'vehicles-then-distance');
    const s = new RouteState(inst);
    s.insertSingle(0, 2, 0);
    expect(s.distance()).toBe(60);
    expect(s.cost()).toBe(inst.vehicleCost + 60);
    s.insertPair(1, 0, 1, 0, 0);
    expect(s.cost()).toBe(2 * inst.vehicleCost + 60 + 40);
  });

  it('copies every route, the bank and the bookkeeping', () => {
    const a = place(problem, []);
    a.insertPair(0, 0, 1, 0, 0);
    const b = place(problem, []);
    b.copyFrom(a);
    expect(b.stopsOf(0)).toEqual([0, 1]);
    expect(slots(b, b.begin)).toEqual(slots(a, a.begin));
    expect(slots(b, b.load)).toEqual(slots(a, a.load));
    expect(slots(b, b.lateBegin)).toEqual(slots(a, a.lateBegin));
    expect(slots(b, b.suffixMaxLoad)).toEqual(slots(a, a.suffixMaxLoad));
    expect(b.routeDist[0]).toBe(40);
    expect([b.routeOf[0], b.posOf[1]]).toEqual([0, 2]);
    expect(Array.from(b.bank.subarray(0, b.bankSize))).toEqual([1]);
    expect(Array.from(b.bankIndex)).toEqual([-1, 0]);
    b.insertSingle(0, 2, 2);
    expect(b.bankSize).toBe(0);
  });

  it('fingerprints routes by their order and ignores unused vehicles', () => {
    const h = (routes: number[][]) => place(problem, routes).hash();
    expect(h([])).toBe(0);
    expect(h([[2]])).not.toBe(0);
    expect(h([[2]])).not.toBe(h([[0]]));
    expect(h([[0, 1, 2]])).toBe(h([[0, 1, 2]]));
    expect(h([[0, 1, 2]])).not.toBe(h([[0, 2, 1]]));
    expect(h([[0, 1, 2]])).not.toBe(h([[0, 1]]));
  });
});

describe('the solver keeps bound requests on their vehicle', () => {
  it('moves goods on board that a start put on another vehicle back to the vehicle carrying them', () => {
    // Vehicle 1 carries 3 for stop 0; the given start puts that delivery on vehicle 0.
    const problem = lineProblem([10, 20, 30], [open(-3), open(2), open(-2)], [{ delivery: 0, vehicle: 1 }, { pickup: 1, delivery: 2 }], [{}, { initialLoad: 3 }]);
    const solution = solve(problem, { timeLimitMs: 10_000, maxIterations: 20, seed: 3, objective: 'distance', initial: [[0, 1, 2], []] });
    expect(solution.unassigned).toEqual([]);
    expect(solution.routes[1]).toContain(0);
    expect(solution.routes[0]).not.toContain(0);
  });
});

describe('waiting a route cannot shed (the makespan objective’s, decision 1791)', () => {
  it('counts no waiting that leaving later absorbs, and the waiting beyond the forward slack', () => {
    // Pickup at x = 10, delivery at x = 20 opening at 30: the route waits 9 there.
    const free = lineProblem([10, 20], [open(3), open(-3, 1, 30, 40)], [{ pickup: 0, delivery: 1 }], [{ latest: 100 }]);
    // Nothing closes before 19 s of slack: leaving 9 s later waits not at all.
    expect(place(free, [[0, 1]]).routeWait[0]).toBe(0);
    // The pickup's window closes at 12: the route may leave 2 s later, and waits the other 7.
    const tight = lineProblem([10, 20], [open(3, 1, 0, 12), open(-3, 1, 30, 40)], [{ pickup: 0, delivery: 1 }], [{ latest: 100 }]);
    const s = place(tight, [[0, 1]]);
    expect(s.routeWait[0]).toBeCloseTo(7, 6);
    expect(s.waiting()).toBeCloseTo(7, 6);
    expect(place(tight, [[]]).waiting()).toBe(0);
  });

  it('does not put a stop on a route that would wait for it when the day can be as long without waiting', () => {
    // a (x = 10) closes at 15; c (x = 11) opens at 150; b is the other way (x = −100); d (y = 300), bound to the third
    // vehicle, makes the longest route. After a, c is 2 s of driving but 133 s of waiting; after b, 22 s and none.
    const problem: Problem = {
      travel: { kind: 'euclidean', points: [[0, 0], [10, 0], [-100, 0], [11, 0], [0, 300]] },
      stops: [open(0, 1, 0, 15), open(0), open(0, 1, 150, 1000), open(0)].map((s, k) => ({ ...s, location: k + 1 })),
      requests: [{ delivery: 0 }, { delivery: 1 }, { delivery: 2 }, { delivery: 3, vehicle: 2 }],
      vehicles: [0, 1, 2].map(() => ({ start: 0, end: 0, earliest: 0, latest: 1000, capacity: 10 })),
    };
    const options = { timeLimitMs: 10_000, maxIterations: 300, seed: 1 };
    const routeOf = (routes: number[][], x: number) => routes.find((r) => r.includes(x))!;
    // After a, the day is as long and the driving shortest (822 s against 842 s otherwise), but the route waits.
    const waits = new RouteState(compile(problem, 'makespan'));
    waits.insertSingle(0, 0, 0);
    waits.insertSingle(0, 2, 1);
    waits.insertSingle(1, 1, 0);
    waits.insertSingle(2, 3, 0);
    expect([waits.makespan(), waits.distance()]).toEqual([601, 822]);
    expect(waits.waiting()).toBeCloseTo(133, 6);
    // The makespan objective keeps the longest route as it is and does not wait (c after b, or c alone).
    const balanced = solve(problem, { ...options, objective: 'makespan' });
    expect(balanced.unassigned).toEqual([]);
    expect(balanced.makespan).toBeCloseTo(601, 6);
    expect(routeOf(balanced.routes, 2)).not.toContain(0);
    expect(balanced.waiting).toBe(0);
  });
});
