// The pure mapping between tour stops and the solver's problem: tables of cases, and the precedence invariant with
// fast-check (whatever the solver returns, the placed order keeps every pickup before its drop-off).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { solve } from '../../../optimizer/index.ts';
import { dropoffsBeforePickups } from '../stops/index.ts';
import { modelOf, placeAll, predecessors, problemOf, scheduleOf, startOf, withTravel, type PlanStop, type Start } from './problem.ts';
import type { Point } from './travel.ts';

const T0 = new Date('2026-11-22T10:00:00Z');
const at = (s: number) => new Date(T0.getTime() + s * 1000);

/** A stop on a line: `x` is where it lies (100 s of travel per unit). */
function stop(id: string, x: number, over: Partial<PlanStop> = {}): PlanStop {
  return { id, bookingId: null, type: 'task', status: 'scheduled', lat: 0, lng: x, timeWindowStartsAt: null, timeWindowEndsAt: null, serviceDurationSeconds: 0, ...over };
}
const lineSeconds = (points: readonly Point[]) => points.map((a) => points.map((b) => Math.abs(a.lng - b.lng) * 100));
const routed = (stops: PlanStop[], links: { pickupStopId: string; dropoffStopId: string }[] = [], start: Start = { point: null, readyAfterSeconds: 0 }) => {
  const model = modelOf(stops, links, start, T0);
  return withTravel(model, lineSeconds(model.points));
};
const ids = (model: { stops: PlanStop[] }, route: number[]) => route.map((i) => model.stops[i]!.id);

describe('predecessors', () => {
  const cases: { name: string; stops: PlanStop[]; links: { pickupStopId: string; dropoffStopId: string }[]; expected: Record<string, string[]> }[] = [
    { name: 'a package links its pickup to its drop-off', stops: [stop('p', 0), stop('d', 1)], links: [{ pickupStopId: 'p', dropoffStopId: 'd' }], expected: { p: [], d: ['p'] } },
    {
      name: "a booking's pickups come before each of its drop-offs",
      stops: [stop('p', 0, { type: 'pickup', bookingId: 'b' }), stop('d1', 1, { type: 'dropoff', bookingId: 'b' }), stop('d2', 2, { type: 'dropoff', bookingId: 'b' })],
      links: [],
      expected: { p: [], d1: ['p'], d2: ['p'] },
    },
    {
      name: 'other bookings are unrelated',
      stops: [stop('p', 0, { type: 'pickup', bookingId: 'a' }), stop('d', 1, { type: 'dropoff', bookingId: 'b' })],
      links: [],
      expected: { p: [], d: [] },
    },
    { name: 'a link to a stop not being placed is no constraint', stops: [stop('d', 1)], links: [{ pickupStopId: 'done', dropoffStopId: 'd' }], expected: { d: [] } },
  ];
  it.each(cases)('$name', ({ stops, links, expected }) => {
    const preds = predecessors(stops, links);
    expect(Object.fromEntries([...preds].map(([id, set]) => [id, [...set].sort()]))).toEqual(expected);
  });
});

describe('startOf', () => {
  const position = { lat: 1, lng: 1 };
  const cases: { name: string; stops: PlanStop[]; position: Point | null; expected: Start }[] = [
    { name: 'nothing done and no position: anywhere', stops: [stop('a', 5)], position: null, expected: { point: null, readyAfterSeconds: 0 } },
    { name: "the driver's position", stops: [stop('a', 5, { status: 'completed' })], position, expected: { point: position, readyAfterSeconds: 0 } },
    { name: 'the last stop served, without a position', stops: [stop('a', 5, { status: 'completed' }), stop('b', 7, { status: 'failed' }), stop('c', 9)], position: null, expected: { point: { lat: 0, lng: 7 }, readyAfterSeconds: 0 } },
    {
      name: 'the stop under way, once served, even with a position',
      stops: [stop('a', 5, { status: 'completed' }), stop('b', 3, { status: 'arrived', serviceDurationSeconds: 120 }), stop('c', 9)],
      position,
      expected: { point: { lat: 0, lng: 3 }, readyAfterSeconds: 120 },
    },
  ];
  it.each(cases)('$name', ({ stops, position, expected }) => expect(startOf(stops, position)).toEqual(expected));
});

describe('modelOf', () => {
  const cases: { name: string; stops: PlanStop[]; links: { pickupStopId: string; dropoffStopId: string }[]; expected: object[] }[] = [
    { name: 'a pickup with its only drop-off is one pair', stops: [stop('p', 0), stop('d', 1), stop('x', 2)], links: [{ pickupStopId: 'p', dropoffStopId: 'd' }], expected: [{ pickup: 0, delivery: 1 }, { pickup: 2 }] },
    {
      name: 'a pickup with two drop-offs is not a pair: three single visits, ordered after the search',
      stops: [stop('p', 0), stop('d1', 1), stop('d2', 2)],
      links: [{ pickupStopId: 'p', dropoffStopId: 'd1' }, { pickupStopId: 'p', dropoffStopId: 'd2' }],
      expected: [{ pickup: 0 }, { pickup: 1 }, { pickup: 2 }],
    },
  ];
  it.each(cases)('$name', ({ stops, links, expected }) => expect(modelOf(stops, links, { point: null, readyAfterSeconds: 0 }, T0).requests).toEqual(expected));

  it('maps windows to seconds after the start, an open window to a far end, and the start to the vehicle', () => {
    const model = routed([stop('a', 1, { timeWindowStartsAt: at(600), timeWindowEndsAt: at(900), serviceDurationSeconds: 60 }), stop('b', 2, { timeWindowEndsAt: at(-60) })], [], { point: { lat: 0, lng: 0 }, readyAfterSeconds: 30 });
    const problem = problemOf(model, 2);
    expect(problem.stops.map((s) => [s.location, s.earliest, s.latest, s.service])).toEqual([[2, 600, 900, 60], [3, 0, -60, 0]]);
    expect(problem.vehicles).toHaveLength(2);
    expect(problem.vehicles[0]).toMatchObject({ start: 0, end: 1, earliest: 30 });
  });

  it('routes from the start point and ends anywhere; without a start point the first stop costs nothing to reach', () => {
    const fromZero = routed([stop('a', 1), stop('b', 3)], [], { point: { lat: 0, lng: 0 }, readyAfterSeconds: 0 });
    expect(fromZero.matrix).toEqual([
      [0, 0, 100, 300],
      [0, 0, 0, 0],
      [0, 0, 0, 200],
      [0, 0, 200, 0],
    ]);
    expect(fromZero.matrix[3]![0], 'nothing drives back to the start').toBe(0);
    const anywhere = routed([stop('a', 1), stop('b', 3)]);
    expect(anywhere.matrix[0]).toEqual([0, 0, 0, 0]);
    expect(anywhere.matrix[2]).toEqual([0, 0, 0, 200]);
  });
});

describe('scheduleOf', () => {
  it('drives each leg, waits for a window to open, serves, and measures lateness past a window end', () => {
    const model = routed(
      [stop('a', 1, { serviceDurationSeconds: 50 }), stop('b', 2, { timeWindowStartsAt: at(400) }), stop('c', 4, { timeWindowEndsAt: at(500) })],
      [],
      { point: { lat: 0, lng: 0 }, readyAfterSeconds: 0 },
    );
    // a at 100 (+50 service), b at 250 → waits to 400, c at 600: 100 s late. Travel 100 + 100 + 200.
    const { travelSeconds, late } = scheduleOf(model, [0, 1, 2]);
    expect(travelSeconds).toBe(400);
    expect([...late]).toEqual([[2, 100]]);
  });
});

describe('placeAll', () => {
  it('places an unassigned stop where it costs least and names it when it is late there', () => {
    const model = routed([stop('a', 1), stop('b', 3), stop('late', 2, { timeWindowEndsAt: at(10) })], [], { point: { lat: 0, lng: 0 }, readyAfterSeconds: 0 });
    const { routes, unplaced } = placeAll(model, { routes: [[0, 1]], unassigned: [2] });
    expect(ids(model, routes[0]!)).toEqual(['a', 'late', 'b']);
    expect(unplaced).toEqual([{ stop_id: 'late', reason: 'time_window' }]);
  });

  it('moves drop-offs the solver put before their pickup (chains it does not model) after it, into its route', () => {
    const links = [{ pickupStopId: 'p', dropoffStopId: 'd1' }, { pickupStopId: 'p', dropoffStopId: 'd2' }];
    const model = routed([stop('p', 5), stop('d1', 1), stop('d2', 6)], links, { point: { lat: 0, lng: 0 }, readyAfterSeconds: 0 });
    const { routes, unplaced } = placeAll(model, { routes: [[1, 0], [2]], unassigned: [] });
    expect(routes[1]).toEqual([]);
    expect(ids(model, routes[0]!)[0]).toBe('p');
    expect(ids(model, routes[0]!).sort()).toEqual(['d1', 'd2', 'p']);
    expect(dropoffsBeforePickups(routes[0]!.map((i) => model.stops[i]!), links)).toEqual([]);
    expect(unplaced).toEqual([]);
  });

  it('names a stop that precedence pushed past its window with reason precedence', () => {
    const links = [{ pickupStopId: 'p', dropoffStopId: 'd1' }, { pickupStopId: 'p', dropoffStopId: 'd2' }];
    const model = routed([stop('p', 9), stop('d1', 1, { timeWindowEndsAt: at(200) }), stop('d2', 8)], links, { point: { lat: 0, lng: 0 }, readyAfterSeconds: 0 });
    const { unplaced } = placeAll(model, { routes: [[1, 0, 2]], unassigned: [] });
    expect(unplaced).toEqual([{ stop_id: 'd1', reason: 'precedence' }]);
  });

  it('keeps every pickup before its drop-offs and every tour within a stop limit, whatever the links and windows (solver and placement together)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ x: fc.integer({ min: 0, max: 50 }), end: fc.option(fc.integer({ min: 0, max: 5000 })) }), { minLength: 1, maxLength: 9 }),
        fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 6 }),
        fc.integer({ min: 1, max: 3 }),
        fc.option(fc.integer({ min: 1, max: 5 })),
        (specs, pairs, vehicles, limit) => {
          const stops = specs.map((s, i) => stop(`s${i}`, s.x, { timeWindowEndsAt: s.end === null ? null : at(s.end) }));
          // Links only from a lower to a higher index: precedence without cycles, as packages make it.
          const links = pairs
            .map(([a, b]) => [a % stops.length, b % stops.length] as const)
            .filter(([a, b]) => a < b)
            .map(([a, b]) => ({ pickupStopId: `s${a}`, dropoffStopId: `s${b}` }));
          const model = routed(stops, links);
          const maxStops = limit ?? undefined;
          const solution = solve(problemOf(model, vehicles, maxStops), { timeLimitMs: 1000, maxIterations: 30, seed: 3, objective: 'vehicles-then-distance' });
          const { routes, unplaced } = placeAll(model, solution, maxStops);
          // Every stop is on a tour or named as one no tour had room for.
          const left = unplaced.filter((u) => u.reason === 'capacity').map((u) => Number(u.stop_id.slice(1)));
          expect([...routes.flat(), ...left].sort((a, b) => a - b)).toEqual(stops.map((_, i) => i));
          if (limit === null) expect(left).toEqual([]);
          for (const route of routes) expect(route.length).toBeLessThanOrEqual(limit ?? Infinity);
          for (const route of routes) expect(dropoffsBeforePickups(route.map((i) => model.stops[i]!), links)).toEqual([]);
          // Linked stops ride on one tour.
          for (const link of links) {
            const tourOf = (id: string) => routes.findIndex((r) => r.some((i) => model.stops[i]!.id === id));
            expect(tourOf(link.pickupStopId)).toBe(tourOf(link.dropoffStopId));
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});
