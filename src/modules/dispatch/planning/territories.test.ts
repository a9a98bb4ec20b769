// The balanced objective's areas (decision 1790): compact, even in work, shaped by the shifts' hours, and never
// against what the model allows.
import { describe, expect, it } from 'vitest';
import { balanceOf } from './balance.ts';
import { fleetModelOf, withFleetTravel, type FleetModel, type FleetShift, type FleetStop } from './fleet.ts';
import { secondPartOf, territoriesOf } from './territories.ts';
import type { Point } from './travel.ts';

const origin = new Date('2026-06-01T06:00:00Z');
const hoursLater = (h: number) => new Date(origin.getTime() + h * 3600_000);
const DEPOT = { lat: 52.5, lng: 13.4 };
const base = { status: 'to_be_dispatched' as const, serviceDurationSeconds: 120, timeWindowStartsAt: null, timeWindowEndsAt: null, requiredSkills: [] };

/** A booking: a pickup at the depot and one drop-off per point. */
function booking(id: string, ...drops: Point[]): FleetStop[] {
  return [{ ...base, id: `${id}p`, bookingId: id, type: 'pickup', ...DEPOT }, ...drops.map((p, i): FleetStop => ({ ...base, id: `${id}d${i}`, bookingId: id, type: 'dropoff', ...p }))];
}

const shift = (id: string, hours = 8, overrides: Partial<FleetShift> = {}): FleetShift => ({
  id, driverId: `driver-${id}`, startsAt: hoursLater(0), endsAt: hoursLater(hours), start: DEPOT, end: DEPOT, capacity: {}, skills: [], organizationId: null, ...overrides,
});

/** The model of `stops` on straight lines at 30 km/h. */
function modelOf(stops: FleetStop[], shifts: FleetShift[], managing = new Map<string, string[]>()): FleetModel {
  const packages = stops.filter((s) => s.type === 'dropoff').map((d) => ({ pickupStopId: `${d.bookingId}p`, dropoffStopId: d.id, weightGrams: 1000 }));
  const model = fleetModelOf(stops, packages, shifts, managing, origin, origin);
  const seconds = model.points.map((a) => model.points.map((b) => (Math.hypot((a.lng - b.lng) * 0.61, a.lat - b.lat) * 111_000) / (30 / 3.6)));
  return withFleetTravel(model, seconds);
}

/** A seeded stream in [0, 1) (the day must be the same on every run). */
function random(seed: number): () => number {
  let x = seed;
  return () => {
    x = (x * 1_103_515_245 + 12_345) % 2 ** 31;
    return x / 2 ** 31;
  };
}

/** Per shift, the drop-offs of the requests the areas give it. */
function areasOf(model: FleetModel, allowed: number[][]): Point[][] {
  return model.shifts.map((_, k) => model.requests.flatMap((r, q) => (allowed[q]!.length === 1 && allowed[q]![0] === k && r.delivery !== undefined ? [model.points[r.delivery]!] : [])));
}

const sizesOf = (areas: Point[][]) => areas.map((a) => a.length);

describe('territories for the balanced objective', () => {
  it('cuts a lopsided day into even, separate areas: 30 bookings west and 10 east make two of 20', () => {
    const next = random(7);
    const stops = Array.from({ length: 40 }, (_, b) => booking(`b${b}`, { lat: 52.5 + (next() - 0.5) * 0.04, lng: b < 30 ? 13.3 + (next() - 0.5) * 0.06 : 13.5 + (next() - 0.5) * 0.02 })).flat();
    const model = modelOf(stops, [shift('A'), shift('B')]);
    const allowed = territoriesOf(model).areas;
    expect(allowed.every((a) => a.length === 1)).toBe(true);
    const areas = areasOf(model, allowed);
    for (const size of sizesOf(areas)) expect(size).toBeGreaterThanOrEqual(18);
    // The eastern cluster lies whole in one area: the other takes only western bookings.
    const eastern = areas.findIndex((a) => a.some((p) => p.lng > 13.45));
    expect(areas[1 - eastern]!.every((p) => p.lng < 13.45)).toBe(true);
    expect(balanceOf(areas.map((territory) => ({ stops_count: territory.length, waiting_s: 0, working_s: 1, territory }))).overlap).toBe(0);
  });

  it('gives 8 shifts areas of 400 scattered bookings within 10 % of one another, hardly overlapping', () => {
    const next = random(11);
    const stops = Array.from({ length: 400 }, (_, b) => booking(`b${b}`, { lat: 52.4 + next() * 0.2, lng: 13.2 + next() * 0.4 })).flat();
    const model = modelOf(stops, Array.from({ length: 8 }, (_, k) => shift(`s${k}`)));
    const areas = areasOf(model, territoriesOf(model).areas);
    const sizes = sizesOf(areas);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(400);
    expect(Math.max(...sizes) / Math.min(...sizes)).toBeLessThanOrEqual(1.1);
    expect(balanceOf(areas.map((territory) => ({ stops_count: territory.length, waiting_s: 0, working_s: 1, territory }))).overlap).toBeLessThan(0.05);
  });

  it('sizes an area by its shift: a 4-hour shift gets about half what an 8-hour one gets', () => {
    const next = random(3);
    const stops = Array.from({ length: 60 }, (_, b) => booking(`b${b}`, { lat: 52.45 + next() * 0.1, lng: 13.35 + next() * 0.1 })).flat();
    const model = modelOf(stops, [shift('long', 8), shift('short', 4)]);
    const [long, short] = sizesOf(areasOf(model, territoriesOf(model).areas));
    expect(long! + short!).toBe(60);
    expect(short! / long!).toBeGreaterThan(0.4);
    expect(short! / long!).toBeLessThan(0.6);
  });

  it('keeps a booking whole, what only one shift may serve where it was, and never gives a booking to a shift it may not use', () => {
    const next = random(5);
    const point = () => ({ lat: 52.45 + next() * 0.1, lng: 13.35 + next() * 0.1 });
    const stops = [...booking('two', point(), point()), ...booking('orgB', point()), ...Array.from({ length: 20 }, (_, b) => booking(`b${b}`, point())).flat()];
    const shifts = [shift('A', 8, { organizationId: 'a' }), shift('B', 8, { organizationId: 'b' }), shift('C', 8, { organizationId: 'b' })];
    const model = modelOf(stops, shifts, new Map([['orgB', ['b']], ['two', ['b']]]));
    const allowed = territoriesOf(model).areas;
    const shiftsOf = (bookingId: string) => new Set(model.requests.flatMap((r, q) => (model.stops[(r.pickup ?? r.delivery)!]!.bookingId === bookingId ? allowed[q]! : [])));
    expect(shiftsOf('two').size).toBe(1);
    expect([...shiftsOf('two')][0]).not.toBe(0);
    expect([...shiftsOf('orgB')][0]).not.toBe(0);
    model.requests.forEach((_, q) => {
      for (const k of allowed[q]!) expect(model.allowed[q]).toContain(k);
    });
  });

  it('counts a running tour’s open stops against its shift’s share, and leaves them on it', () => {
    const next = random(9);
    const point = () => ({ lat: 52.45 + next() * 0.1, lng: 13.35 + next() * 0.1 });
    const running = Array.from({ length: 10 }, (_, b) => booking(`r${b}`, point())).flat();
    const waiting = Array.from({ length: 30 }, (_, b) => booking(`w${b}`, point())).flat();
    const onTour = { tourId: 't', from: DEPOT, readyAt: origin, openStopIds: running.map((s) => s.id), keptStopIds: [], onBoard: [] };
    const model = modelOf([...running, ...waiting], [shift('A', 8, { running: onTour }), shift('B')]);
    const allowed = territoriesOf(model).areas;
    const runningRequests = model.requests.flatMap((r, q) => (model.stops[(r.pickup ?? r.delivery)!]!.bookingId!.startsWith('r') ? [q] : []));
    for (const q of runningRequests) expect(allowed[q]).toEqual([0]);
    // 40 bookings in all, 20 each: A has 10 already, so it takes about 10 of the 30 waiting.
    const [a, b] = sizesOf(areasOf(model, allowed));
    expect(a).toBeGreaterThanOrEqual(18);
    expect(a).toBeLessThanOrEqual(22);
    expect(a! + b!).toBe(40);
  });

  it('changes nothing with one shift', () => {
    const model = modelOf([...booking('x', { lat: 52.51, lng: 13.41 }), ...booking('y', { lat: 52.49, lng: 13.39 })], [shift('A')]);
    expect(territoriesOf(model)).toEqual({ areas: model.allowed, nearby: model.allowed });
  });

  it('frees for the second part what did not fit and the bookings of a tour that finishes late, and caps the stops', () => {
    const next = random(13);
    const point = () => ({ lat: 52.45 + next() * 0.1, lng: 13.35 + next() * 0.1 });
    const stops = Array.from({ length: 12 }, (_, b) => booking(`b${b}`, point())).flat();
    const model = modelOf(stops, [shift('A'), shift('B'), shift('C')]);
    const territories = territoriesOf(model);
    // What the first part found: booking 0 unassigned, 1–8 on A (by far the longest), 9–10 on B, 11 on C.
    const onRoute = (from: number, to: number) => model.requests.slice(from, to).flatMap((r) => [r.pickup!, r.delivery!]);
    const routes = [onRoute(1, 9), onRoute(9, 11), onRoute(11, 12)];
    const { eligible, maxStops } = secondPartOf(model, territories, { routes, unassigned: [0] });
    expect(eligible[0]).toEqual(territories.nearby[0]);
    expect(territories.nearby[0]!.length).toBe(3);
    for (let q = 1; q < 9; q++) expect(eligible[q]).toEqual(territories.nearby[q]);
    for (let q = 9; q < 12; q++) expect(eligible[q]).toEqual(territories.areas[q]);
    // 24 stops over 3 tours: ⌈1.15 × 8⌉ = 10, but A already has 16.
    expect(maxStops).toBe(16);
    expect(secondPartOf(model, territories, { routes: [onRoute(0, 4), onRoute(4, 8), onRoute(8, 12)], unassigned: [] }).maxStops).toBe(10);
  });
});
