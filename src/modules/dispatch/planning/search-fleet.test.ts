// After the balanced search, a tour that waits for a late window hands that booking to a tour passing there at the
// hour, unless that would spread one tour's area over another's (decision 1791).
import { describe, expect, it } from 'vitest';
import { fleetModelOf, fleetScheduleOf, withFleetTravel, type FleetModel, type FleetShift, type FleetStop } from './fleet.ts';
import { shedWaits } from './search-fleet.ts';
import type { Point } from './travel.ts';

const origin = new Date('2026-06-01T06:00:00Z');
const hoursLater = (h: number) => new Date(origin.getTime() + h * 3600_000);
const DEPOT = { lat: 52.5, lng: 13.4 };
const base = { status: 'to_be_dispatched' as const, serviceDurationSeconds: 120, requiredSkills: [] };

/** A booking: a pickup at the depot and a drop-off at `at` within [opens, closes] hours. */
const booking = (id: string, at: Point, opens: number | null, closes: number | null): FleetStop[] => [
  { ...base, id: `${id}p`, bookingId: id, type: 'pickup', ...DEPOT, timeWindowStartsAt: null, timeWindowEndsAt: null },
  { ...base, id: `${id}d`, bookingId: id, type: 'dropoff', ...at, timeWindowStartsAt: opens === null ? null : hoursLater(opens), timeWindowEndsAt: closes === null ? null : hoursLater(closes) },
];

const shift = (id: string): FleetShift => ({ id, driverId: `driver-${id}`, startsAt: hoursLater(0), endsAt: hoursLater(9), start: DEPOT, end: DEPOT, capacity: {}, skills: [], organizationId: null });

/** The model of `stops` on straight lines at 30 km/h, for shifts A, B and C. */
function modelOf(stops: FleetStop[]): FleetModel {
  const packages = stops.filter((s) => s.type === 'dropoff').map((d) => ({ pickupStopId: `${d.bookingId}p`, dropoffStopId: d.id, weightGrams: 1000 }));
  const model = fleetModelOf(stops, packages, [shift('A'), shift('B'), shift('C')], new Map(), origin, origin);
  return withFleetTravel(model, model.points.map((a) => model.points.map((b) => (Math.hypot((a.lng - b.lng) * 0.61, a.lat - b.lat) * 111_000) / (30 / 3.6))));
}

const waitingOf = (model: FleetModel, routes: number[][]) => routes.reduce((sum, route, k) => sum + fleetScheduleOf(model, k, route).waitingSeconds, 0);

/**
 * A: a drop-off in the west that closes at 1 h (so A cannot leave later) and `late` at L, opening at 4.5 h; B: two
 * drop-offs either side of L from 4.5 h; C: one far east at 7 h, the day's longest tour.
 */
function dayWith(b1: Point, b2: Point, late: Point, more: FleetStop[] = []) {
  const stops = [...booking('a1', { lat: 52.5, lng: 13.3 }, 0, 1), ...booking('late', late, 4.5, 6), ...booking('b1', b1, 4.5, 6), ...booking('b2', b2, 4.5, 6), ...booking('c1', { lat: 52.5, lng: 13.6 }, 7, 7.5), ...more];
  const model = modelOf(stops);
  const at = (id: string) => model.stops.findIndex((s) => s.id === id);
  return { model, at };
}

/** The plan as the search left it: A waits at L for its window, B and C as described. */
const planned = (at: (id: string) => number) => [
  [at('a1p'), at('latep'), at('a1d'), at('lated')],
  [at('b1p'), at('b2p'), at('b1d'), at('b2d')],
  [at('c1p'), at('c1d')],
];

describe('a tour that waits for a late window (shedWaits)', () => {
  it('hands the booking to the tour that passes there at the hour: A no longer waits, the day waits less', () => {
    const { model, at } = dayWith({ lat: 52.52, lng: 13.35 }, { lat: 52.48, lng: 13.35 }, { lat: 52.5, lng: 13.35 });
    const routes = planned(at);
    expect(fleetScheduleOf(model, 0, routes[0]!).waitingSeconds).toBeGreaterThan(3 * 3600);
    const shed = shedWaits(model, routes, Number.POSITIVE_INFINITY, [0, 0, 0]);
    expect(shed[0]).toEqual([at('a1p'), at('a1d')]);
    expect(shed[1]).toContain(at('lated'));
    expect(shed[1]).toContain(at('latep'));
    expect(shed[2]).toEqual(routes[2]);
    expect(shed.every((route, k) => fleetScheduleOf(model, k, route).feasible)).toBe(true);
    expect(waitingOf(model, shed)).toBeLessThan(waitingOf(model, routes) - 3 * 3600);
  });

  it('keeps it where it is when the other tour’s area would then cover one of A’s drop-offs', () => {
    // B's drop-offs and L make a triangle around A2, one of A's drop-offs.
    const { model, at } = dayWith({ lat: 52.52, lng: 13.34 }, { lat: 52.48, lng: 13.34 }, { lat: 52.5, lng: 13.36 }, booking('a2', { lat: 52.5, lng: 13.35 }, 0, 1));
    const routes = [
      [at('a1p'), at('a2p'), at('latep'), at('a1d'), at('a2d'), at('lated')],
      [at('b1p'), at('b2p'), at('b1d'), at('b2d')],
      [at('c1p'), at('c1d')],
    ];
    expect(fleetScheduleOf(model, 0, routes[0]!).waitingSeconds).toBeGreaterThan(3 * 3600);
    expect(shedWaits(model, routes, Number.POSITIVE_INFINITY, [0, 0, 0])).toEqual(routes);
  });

  it('moves nothing onto a tour the booking would take past the stop limit', () => {
    const { model, at } = dayWith({ lat: 52.52, lng: 13.35 }, { lat: 52.48, lng: 13.35 }, { lat: 52.5, lng: 13.35 });
    const routes = planned(at);
    // B holds 4 stops, C 2: the booking's 2 more take either past 3 (with 4 it goes to C, on its way east).
    expect(shedWaits(model, routes, 3, [0, 0, 0])).toEqual(routes);
  });
});
