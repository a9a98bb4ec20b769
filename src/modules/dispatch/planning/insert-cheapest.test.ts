// Cheapest insertion without moving what is on the routes (decision 1646): against brute force over every route and
// every pair of positions on small random days, the existing orders kept, and the rules (windows, capacity, shift end).
import { describe, expect, it } from 'vitest';
import { createRng } from '../../../optimizer/prng.ts';
import { fleetModelOf, fleetScheduleOf, withFleetTravel, type FleetModel, type FleetPackage, type FleetShift, type FleetStop } from './fleet.ts';
import { solve } from '../../../optimizer/index.ts';
import { acceptRoutes, fleetProblemOf } from './fleet.ts';
import { insertCheapest, placeLeftovers, withGroup } from './insert-cheapest.ts';

const origin = new Date('2026-06-01T08:00:00Z');
const at = (seconds: number) => new Date(origin.getTime() + seconds * 1000);
const base = { status: 'to_be_dispatched' as const, serviceDurationSeconds: 60, timeWindowStartsAt: null, timeWindowEndsAt: null, requiredSkills: [] };
const shiftOf = (id: string, overrides: Partial<FleetShift> = {}): FleetShift => ({ id, driverId: id, startsAt: origin, endsAt: at(8 * 3600), start: { lat: 0, lng: 0 }, end: { lat: 0, lng: 0 }, capacity: {}, skills: [], organizationId: null, ...overrides });

/** A model over the stops with travel = 600 s per unit of straight-line distance (lat/lng as plane coordinates). */
function modelOf(stops: FleetStop[], packages: FleetPackage[], shifts: FleetShift[]): FleetModel {
  const model = fleetModelOf(stops, packages, shifts, new Map(), origin, origin);
  return withFleetTravel(model, model.points.map((a) => model.points.map((b) => 600 * Math.hypot(a.lat - b.lat, a.lng - b.lng))));
}

const travel = (model: FleetModel, k: number, route: readonly number[]) => fleetScheduleOf(model, k, route).travelSeconds;

/** The brute force: every route, every pickup position i and drop-off position j ≥ i that holds; the least added driving. */
function bruteForce(model: FleetModel, routes: readonly number[][], p: number, d: number): number {
  let best = Number.POSITIVE_INFINITY;
  routes.forEach((route, k) => {
    for (let i = 0; i <= route.length; i++) {
      for (let j = i; j <= route.length; j++) {
        const candidate = withGroup(route, [p, d], [i, j]);
        if (fleetScheduleOf(model, k, candidate).feasible) best = Math.min(best, travel(model, k, candidate) - travel(model, k, route));
      }
    }
  });
  return best;
}

/** A random small day: 3 shifts with routes of existing pairs (pickup then drop-off, some windows), and one new pair. */
function randomDay(seed: number) {
  const rng = createRng(seed);
  const stops: FleetStop[] = [];
  const packages: FleetPackage[] = [];
  const pair = (b: string, windowed: boolean) => {
    const opens = Math.floor(rng.next() * 4 * 3600);
    stops.push({ ...base, id: `${b}p`, bookingId: b, type: 'pickup', lat: rng.next() * 4, lng: rng.next() * 4 });
    stops.push({ ...base, id: `${b}d`, bookingId: b, type: 'dropoff', lat: rng.next() * 4, lng: rng.next() * 4, ...(windowed ? { timeWindowStartsAt: at(opens), timeWindowEndsAt: at(opens + 5400) } : {}) });
    packages.push({ pickupStopId: `${b}p`, dropoffStopId: `${b}d`, weightGrams: 1000 });
  };
  const perRoute = [2, 3, 1];
  let b = 0;
  for (const n of perRoute) for (let k = 0; k < n; k++) pair(`b${b++}`, rng.next() < 0.4);
  pair('new', rng.next() < 0.6);
  const shifts = [shiftOf('s0', { capacity: { packages: 2 } }), shiftOf('s1'), shiftOf('s2', { endsAt: at(3 * 3600) })];
  const model = modelOf(stops, packages, shifts);
  // Existing routes: each shift's bookings one after the other.
  let next = 0;
  const routes = perRoute.map((n) => Array.from({ length: 2 * n }, () => next++));
  return { model, routes, p: next, d: next + 1 };
}

describe('insertCheapest', () => {
  it('places a new booking at the cheapest position that holds, as brute force finds it, and moves nothing else', () => {
    let compared = 0;
    for (let seed = 1; seed <= 60; seed++) {
      const { model, routes, p, d } = randomDay(seed);
      // Only days whose existing routes hold (the brute force checks feasibility absolutely).
      if (!routes.every((r, k) => fleetScheduleOf(model, k, r).feasible)) continue;
      compared++;
      const expected = bruteForce(model, routes, p, d);
      const { routes: after, unplaced } = insertCheapest(model, routes, [[p, d]]);
      if (expected === Number.POSITIVE_INFINITY) {
        expect(unplaced, `seed ${seed}`).toEqual([p, d]);
        expect(after).toEqual(routes);
        continue;
      }
      expect(unplaced, `seed ${seed}`).toEqual([]);
      const k = after.findIndex((r) => r.includes(p));
      expect(after[k]!.indexOf(p)).toBeLessThan(after[k]!.indexOf(d));
      expect(fleetScheduleOf(model, k, after[k]!).feasible).toBe(true);
      expect(travel(model, k, after[k]!) - travel(model, k, routes[k]!), `seed ${seed}`).toBeCloseTo(expected, 6);
      // The existing stops in their order, on their routes; the other routes as they were.
      after.forEach((route, j) => expect(route.filter((i) => i !== p && i !== d)).toEqual(routes[j]));
    }
    expect(compared).toBeGreaterThan(30);
  });

  it('leaves unplaced what fits no route: a window no shift reaches, a load over every capacity', () => {
    const stops: FleetStop[] = [
      { ...base, id: 'p', bookingId: 'b', type: 'pickup', lat: 0, lng: 1 },
      { ...base, id: 'd', bookingId: 'b', type: 'dropoff', lat: 0, lng: 2, timeWindowStartsAt: at(9 * 3600), timeWindowEndsAt: at(10 * 3600) },
      { ...base, id: 'q', bookingId: 'c', type: 'pickup', lat: 0, lng: 1 },
      { ...base, id: 'e', bookingId: 'c', type: 'dropoff', lat: 0, lng: 2 },
    ];
    const heavy = Array.from({ length: 3 }, () => ({ pickupStopId: 'q', dropoffStopId: 'e', weightGrams: 1 }));
    const model = modelOf(stops, [{ pickupStopId: 'p', dropoffStopId: 'd', weightGrams: 1 }, ...heavy], [shiftOf('s', { capacity: { packages: 2 } })]);
    expect(insertCheapest(model, [[]], [[0, 1], [2, 3]])).toEqual({ routes: [[]], unplaced: [0, 1, 2, 3] });
  });

  it('puts a booking of one pickup and two drop-offs in whole, on a free shift', () => {
    const stops: FleetStop[] = [
      { ...base, id: 'd2', bookingId: 'b', type: 'dropoff', lat: 0, lng: 2 },
      { ...base, id: 'p', bookingId: 'b', type: 'pickup', lat: 0, lng: 1 },
      { ...base, id: 'd1', bookingId: 'b', type: 'dropoff', lat: 1, lng: 1 },
    ];
    const packages = [{ pickupStopId: 'p', dropoffStopId: 'd1', weightGrams: 1 }, { pickupStopId: 'p', dropoffStopId: 'd2', weightGrams: 1 }];
    const model = modelOf(stops, packages, [shiftOf('s')]);
    const { routes, unplaced } = insertCheapest(model, [[]], [[0, 1, 2]]);
    expect(unplaced).toEqual([]);
    expect(routes[0]![0]).toBe(1);
    expect([...routes[0]!].sort()).toEqual([0, 1, 2]);
    expect(fleetScheduleOf(model, 0, routes[0]!).feasible).toBe(true);
  });

  it('takes the cheapest of several bookings first and keeps within the stop limit', () => {
    const stops: FleetStop[] = [
      { ...base, id: 'fp', bookingId: 'far', type: 'pickup', lat: 0, lng: 3 },
      { ...base, id: 'fd', bookingId: 'far', type: 'dropoff', lat: 0, lng: 3.5 },
      { ...base, id: 'np', bookingId: 'near', type: 'pickup', lat: 0, lng: 0.1 },
      { ...base, id: 'nd', bookingId: 'near', type: 'dropoff', lat: 0, lng: 0.2 },
    ];
    const model = modelOf(stops, [], [shiftOf('s')]);
    // Room for one booking (2 stops) on top of 1 kept stop under a limit of 3: the near one.
    expect(insertCheapest(model, [[]], [[0, 1], [2, 3]], 3, [1])).toEqual({ routes: [[2, 3]], unplaced: [0, 1] });
  });
});

describe('placeLeftovers', () => {
  it('places whole the booking of one pickup and two drop-offs that the solver, seeing three unrelated stops, put out of order', () => {
    const stops: FleetStop[] = [
      { ...base, id: 'p', bookingId: 'b', type: 'pickup', lat: 0, lng: 0.1 },
      { ...base, id: 'd1', bookingId: 'b', type: 'dropoff', lat: 0, lng: 0.2 },
      { ...base, id: 'd2', bookingId: 'b', type: 'dropoff', lat: 0.1, lng: 0.2 },
    ];
    const packages = [{ pickupStopId: 'p', dropoffStopId: 'd1', weightGrams: 1 }, { pickupStopId: 'p', dropoffStopId: 'd2', weightGrams: 1 }];
    const model = modelOf(stops, packages, [shiftOf('s', { start: { lat: 0, lng: 0.3 }, end: { lat: 0, lng: 0.3 } })]);
    const solution = solve(fleetProblemOf(model).problem, { timeLimitMs: 100, seed: 1, objective: 'makespan', maxIterations: 50 });
    const accepted = acceptRoutes(model, solution);
    // The bug (issue 39): the drop-off nearest the start first, the route refused, the booking unplaced.
    expect(accepted.unplaced).toEqual([0, 1, 2]);
    const { routes, unplaced } = placeLeftovers(model, accepted.routes, accepted.unplaced);
    expect(unplaced).toEqual([]);
    expect(routes[0]![0]).toBe(0);
    expect(fleetScheduleOf(model, 0, routes[0]!).feasible).toBe(true);
  });

  it('takes a booking split across routes off them and puts it in whole', () => {
    const stops: FleetStop[] = [
      { ...base, id: 'p', bookingId: 'b', type: 'pickup', lat: 0, lng: 1 },
      { ...base, id: 'd1', bookingId: 'b', type: 'dropoff', lat: 0, lng: 2 },
      { ...base, id: 'd2', bookingId: 'b', type: 'dropoff', lat: 0, lng: 3 },
    ];
    const packages = [{ pickupStopId: 'p', dropoffStopId: 'd1', weightGrams: 1 }, { pickupStopId: 'p', dropoffStopId: 'd2', weightGrams: 1 }];
    const model = modelOf(stops, packages, [shiftOf('s'), shiftOf('t')]);
    // p and d1 on the first route, d2 refused from the second (its pickup elsewhere).
    const accepted = acceptRoutes(model, { routes: [[0, 1], [2]] });
    expect(accepted).toEqual({ routes: [[0, 1], []], unplaced: [2] });
    const { routes, unplaced } = placeLeftovers(model, accepted.routes, accepted.unplaced);
    expect(unplaced).toEqual([]);
    expect(routes).toEqual([[0, 1, 2], []]);
  });
});
