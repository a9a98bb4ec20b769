// A fleet, not identical vehicles: property tests on random heterogeneous fleets (own start, end, window, capacity
// per dimension, allowed vehicles per request), every route checked by the evaluator of test-helpers.ts (written from
// the types' documentation alone); and crafted cases for the makespan objective and for a fleet too small for every request.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSolverPool, solve, type Objective, type Problem, type Stop, type Vehicle } from './index.ts';
import { check, dealt, FAST, point, requestKind, requestsOf, RUNS, withAnyStart, type DrawnRequest } from './test-helpers.ts';

const DIMS = 3;

/**
 * Random heterogeneous fleets: each vehicle has its own start and end, window, scalar capacity and capacities in up
 * to three further dimensions (some left unconstrained); requests carry demands in those dimensions, may be
 * restricted to a list of vehicles (skills) or bound to one, and some are goods already on board.
 */
const fleetProblem = fc
  .record({
    points: fc.array(point, { minLength: 20, maxLength: 20 }),
    requests: fc.array(
      fc.record({
        from: fc.nat(19),
        to: fc.nat(19),
        demand: fc.integer({ min: 0, max: 6 }),
        demands: fc.array(fc.integer({ min: 0, max: 8 }), { minLength: 0, maxLength: DIMS }),
        open: fc.integer({ min: 0, max: 150 }),
        width: fc.integer({ min: 5, max: 200 }),
        service: fc.integer({ min: 0, max: 10 }),
        kind: requestKind(4),
        allowed: fc.option(fc.array(fc.nat(3), { maxLength: 3 }), { nil: undefined }),
        bound: fc.option(fc.nat(3), { nil: undefined }),
      }),
      { minLength: 1, maxLength: 9 },
    ),
    vehicles: fc.array(
      fc.record({
        start: fc.nat(19),
        end: fc.nat(19),
        earliest: fc.integer({ min: 0, max: 100 }),
        length: fc.integer({ min: 50, max: 400 }),
        capacity: fc.integer({ min: 3, max: 20 }),
        capacities: fc.option(fc.array(fc.option(fc.integer({ min: 2, max: 15 }), { nil: undefined }), { minLength: 1, maxLength: DIMS }), { nil: undefined }),
      }),
      { minLength: 1, maxLength: 4 },
    ),
  })
  .map(({ points, requests, vehicles }): Problem => {
    const V = vehicles.length;
    const drawn = requests.map((r): DrawnRequest => ({
      kind: r.kind,
      pickup: { location: r.from, demand: r.demand, demands: r.demands, earliest: r.open, latest: r.open + r.width, service: r.service },
      delivery: { location: r.to, demand: -r.demand, demands: r.demands.map((q) => -q), earliest: r.open, latest: r.open + 2 * r.width, service: r.service },
      restriction: {
        ...(r.allowed === undefined ? {} : { vehicles: r.allowed.map((v) => v % V) }),
        ...(r.bound === undefined ? {} : { vehicle: r.bound % V }),
      },
      bound: r.bound,
    }));
    const { stops, requests: made, onBoard } = requestsOf(drawn, V, DIMS);
    const fleet: Vehicle[] = vehicles.map((v, k) => ({
      start: v.start,
      end: v.end,
      earliest: v.earliest,
      latest: v.earliest + v.length,
      capacity: v.capacity + onBoard[k]!.load,
      initialLoad: onBoard[k]!.load,
      ...(v.capacities ? { capacities: v.capacities.map((c, d) => (c === undefined ? undefined : c + onBoard[k]!.loads[d]!)), initialLoads: onBoard[k]!.loads } : {}),
    }));
    return { travel: { kind: 'euclidean', points }, stops, requests: made, vehicles: fleet };
  });

// Vehicle 0 is big in packages but limits weight; vehicle 1 has no weight limit but only one package of room;
// vehicle 2 is the only one with the skill request 2 needs.
const skillsAndDimensions: Problem = {
    travel: { kind: 'euclidean', points: [[0, 0], [5, 0], [10, 0], [0, 5], [0, 10]] },
    stops: [
      { location: 1, demand: 0, demands: [1, 80], earliest: 0, latest: 1000, service: 1 },
      { location: 2, demand: 0, demands: [-1, -80], earliest: 0, latest: 1000, service: 1 },
      { location: 3, demand: 0, demands: [2, 10], earliest: 0, latest: 1000, service: 1 },
      { location: 4, demand: 0, demands: [-2, -10], earliest: 0, latest: 1000, service: 1 },
      { location: 1, demand: 0, demands: [1], earliest: 0, latest: 1000, service: 1 },
      { location: 2, demand: 0, demands: [-1], earliest: 0, latest: 1000, service: 1 },
    ],
    requests: [{ pickup: 0, delivery: 1 }, { pickup: 2, delivery: 3 }, { pickup: 4, delivery: 5, vehicles: [2] }],
    vehicles: [
      { start: 0, end: 0, earliest: 0, latest: 1000, capacity: 10, capacities: [10, 50] },
      { start: 0, end: 0, earliest: 0, latest: 1000, capacity: 10, capacities: [1] },
      { start: 0, end: 0, earliest: 0, latest: 1000, capacity: 10, capacities: [undefined, 5] },
    ],
  };

const OBJECTIVES: readonly Objective[] = ['vehicles-then-distance', 'distance', 'makespan'];

describe('solver on heterogeneous fleets', () => {
  it('returns only routes feasible under their own vehicle (capacities, allowed vehicles, windows, precedence)', () => {
    fc.assert(
      fc.property(fleetProblem, fc.integer({ min: 1, max: 1000 }), fc.constantFrom(...OBJECTIVES), (problem, seed, objective) => {
        const solution = solve(problem, { ...FAST, seed, objective });
        expect(check(problem, solution)).toBeNull();
      }),
      { numRuns: 200 * RUNS },
    );
  });

  it('stays feasible from any given start, whatever vehicle each stop was dealt to', () => {
    fc.assert(
      fc.property(withAnyStart(fleetProblem), fc.integer({ min: 1, max: 1000 }), fc.constantFrom(...OBJECTIVES), ([problem, deal], seed, objective) => {
        expect(check(problem, solve(problem, { ...FAST, seed, initial: dealt(problem, deal), objective }))).toBeNull();
      }),
      { numRuns: 100 * RUNS },
    );
  });

  it('places a request only where a vehicle has room in every dimension it limits, and on an allowed vehicle', () => {
    const problem = skillsAndDimensions;
    for (const objective of OBJECTIVES) {
      const solution = solve(problem, { ...FAST, seed: 3, objective });
      expect(check(problem, solution)).toBeNull();
      expect(solution.unassigned).toEqual([]);
      // 80 kg fits only vehicle 1; two packages only vehicle 0; the skill only vehicle 2.
      expect(solution.routes[1]).toEqual([0, 1]);
      expect(solution.routes[0]).toEqual([2, 3]);
      expect(solution.routes[2]).toEqual([4, 5]);
    }
  });

  it('shortens the longest route under makespan where the distance objective makes one long route', () => {
    // Four errands along a line, 20 of service each: one vehicle does them all in the least distance (240 of
    // time); two vehicles share them and are both back far earlier.
    const stops: Stop[] = [10, 20, 30, 40].flatMap((x, k) => [
      { location: 1 + k, demand: 1, earliest: 0, latest: 1000, service: 20 },
      { location: 1 + k, demand: -1, earliest: 0, latest: 1000, service: 20 },
    ]);
    const problem: Problem = {
      travel: { kind: 'euclidean', points: [[0, 0], [10, 0], [20, 0], [30, 0], [40, 0]] },
      stops,
      requests: [0, 1, 2, 3].map((k) => ({ pickup: 2 * k, delivery: 2 * k + 1 })),
      vehicles: [0, 1].map(() => ({ start: 0, end: 0, earliest: 0, latest: 1000, capacity: 10 })),
    };
    const byDistance = solve(problem, { ...FAST, seed: 1, objective: 'distance' });
    const byMakespan = solve(problem, { ...FAST, seed: 1, objective: 'makespan' });
    expect(check(problem, byDistance)).toBeNull();
    expect(check(problem, byMakespan)).toBeNull();
    expect(byDistance.makespan).toBeCloseTo(240, 6);
    expect(byMakespan.makespan).toBeLessThan(byDistance.makespan);
    // The best split: {10, 40} and {20, 30}, each at most 80 of driving plus 80 of service.
    expect(byMakespan.makespan).toBeCloseTo(160, 6);
  });

  it('places as many requests as a fixed fleet can take before anything else, under every objective', () => {
    // Request 0 is the cheapest (nearest) but its long service fills the vehicle's day; requests 1 and 2 are
    // farther and fit together. Two placed beat one, whatever the distance.
    const problem: Problem = {
      travel: { kind: 'euclidean', points: [[0, 0], [5, 0], [20, 0], [0, 20]] },
      stops: [
        { location: 1, demand: 1, earliest: 0, latest: 100, service: 45 },
        { location: 1, demand: -1, earliest: 0, latest: 100, service: 45 },
        { location: 2, demand: 1, earliest: 0, latest: 100, service: 0 },
        { location: 2, demand: -1, earliest: 0, latest: 100, service: 0 },
        { location: 3, demand: 1, earliest: 0, latest: 100, service: 0 },
        { location: 3, demand: -1, earliest: 0, latest: 100, service: 0 },
      ],
      requests: [{ pickup: 0, delivery: 1 }, { pickup: 2, delivery: 3 }, { pickup: 4, delivery: 5 }],
      vehicles: [{ start: 0, end: 0, earliest: 0, latest: 100, capacity: 5 }],
    };
    for (const objective of OBJECTIVES) {
      for (let seed = 1; seed <= 5; seed++) {
        const solution = solve(problem, { ...FAST, seed, objective });
        expect(check(problem, solution)).toBeNull();
        expect(solution.unassigned).toEqual([0]);
      }
    }
  });

  it('carries the fleet to a solver thread: the same solution there as on this thread', async () => {
    const pool = createSolverPool(1);
    try {
      for (const objective of OBJECTIVES) {
        const options = { ...FAST, seed: 5, objective };
        const threaded = await pool.solve(skillsAndDimensions, options);
        expect(threaded.routes).toEqual(solve(skillsAndDimensions, options).routes);
        expect(check(skillsAndDimensions, threaded)).toBeNull();
      }
    } finally {
      await pool.close();
    }
  });

  it('returns unassigned a request no allowed vehicle may take (an empty list, or a bound vehicle not on its list)', () => {
    const problem: Problem = {
      ...skillsAndDimensions,
      requests: [{ pickup: 0, delivery: 1, vehicles: [] }, { pickup: 2, delivery: 3, vehicle: 1, vehicles: [0, 2] }, { pickup: 4, delivery: 5, vehicles: [2] }],
    };
    for (const objective of OBJECTIVES) {
      const solution = solve(problem, { ...FAST, seed: 2, objective });
      expect(check(problem, solution)).toBeNull();
      expect(solution.unassigned).toEqual([0, 1]);
    }
  });

  it('eliminates routes at scale (above 150 requests: the pool sits out the perturbation) and stays feasible', () => {
    // 160 requests on a 100 × 100 grid, windows a quarter of the day wide, 40 vehicles on offer.
    let x = 12345;
    const rand = () => ((x = (Math.imul(x, 1103515245) + 12345) >>> 0) / 2 ** 32);
    const points: [number, number][] = [[50, 50]];
    const stops: Stop[] = [];
    for (let k = 0; k < 160; k++) {
      const open = Math.floor(rand() * 600);
      points.push([Math.floor(rand() * 100), Math.floor(rand() * 100)], [Math.floor(rand() * 100), Math.floor(rand() * 100)]);
      stops.push({ location: 2 * k + 1, demand: 10, earliest: open, latest: open + 250, service: 10 });
      stops.push({ location: 2 * k + 2, demand: -10, earliest: open, latest: open + 500, service: 10 });
    }
    const problem: Problem = {
      travel: { kind: 'euclidean', points },
      stops,
      requests: Array.from({ length: 160 }, (_, k) => ({ pickup: 2 * k, delivery: 2 * k + 1 })),
      vehicles: Array.from({ length: 40 }, () => ({ start: 0, end: 0, earliest: 0, latest: 1200, capacity: 50 })),
    };
    const start = solve(problem, { timeLimitMs: 60_000, maxIterations: 0, seed: 1 });
    const solution = solve(problem, { timeLimitMs: 60_000, maxIterations: 120, seed: 1 });
    expect(check(problem, solution)).toBeNull();
    expect(solution.unassigned).toEqual([]);
    expect(solution.vehicles).toBeLessThan(start.vehicles);
  });
});
