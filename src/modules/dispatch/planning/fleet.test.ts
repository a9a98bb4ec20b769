// Why a booking stays unplaced, shift by shift (decision 1301): table-tested.
import { describe, expect, it } from 'vitest';
import { acceptRoutes, diagnose, fleetModelOf, fleetScheduleOf, withFleetTravel, type DiagnosedShift, type DiagnosedStop, type FleetShift, type FleetStop } from './fleet.ts';

const at = (s: number) => `t+${s}`;
const stop = (id: string, earliest: number | null, latest: number | null, requiredSkills: string[] = []): DiagnosedStop => ({ id, earliest, latest, service: 60, requiredSkills });
const shift = (id: string, overrides: Partial<DiagnosedShift> = {}): DiagnosedShift => ({ id, from: 0, to: 8 * 3600, skills: [], capacity: {}, eligible: true, legs: [600, 600, 600], ...overrides });
const pair = [stop('p', null, null), stop('d', 3600, 7200)];
const one = { packages: 1, weightGrams: 1000 };

describe('diagnose', () => {
  it.each([
    ['no shifts at all', pair, one, [], 'no_driver_available', 'overlaps'],
    ['the only driver is of another organization', pair, one, [shift('A', { eligible: false })], 'no_driver_available', 'A'],
    ['a skill no shift has', [stop('p', null, null), stop('d', null, null, ['crane'])], one, [shift('A', { skills: ['cooling'] })], 'skills', '"crane"'],
    ['more packages than the vehicle carries', pair, { packages: 5, weightGrams: 0 }, [shift('A', { capacity: { packages: 4 } })], 'capacity', '5 packages'],
    ['heavier than the vehicle carries', pair, { packages: 1, weightGrams: 900_000 }, [shift('A', { capacity: { weightGrams: 800_000 } })], 'capacity', '900 kg'],
    ['a window closed before the shift starts', [stop('p', null, null), stop('d', 0, 3600)], one, [shift('A', { from: 4 * 3600 })], 'time_window', 'closes before shift A'],
    ['a window that opens after the shift ends', [stop('p', null, null), stop('d', 9 * 3600, 10 * 3600)], one, [shift('A')], 'time_window', 'after shift A ends'],
    ['a window too close to the start to be reached', [stop('p', null, null), stop('d', 0, 900)], one, [shift('A')], 'time_window', 'cannot be reached'],
    ['the way back does not fit the shift', pair, one, [shift('A', { to: 3600 + 60 + 300 })], 'shift_too_short', 'shift A ends'],
    ['fits alone, but the shifts were full', pair, one, [shift('A')], 'shift_too_short', 'fits shift A alone'],
  ] as const)('%s → %s', (_, stops, load, shifts, reason, detail) => {
    const result = diagnose(stops, load, shifts, at);
    expect(result.reason).toBe(reason);
    expect(result.detail).toContain(detail);
  });

  it('names the shift that came furthest: a window problem on one beats missing skills on another', () => {
    const stops = [stop('p', null, null, ['cooling']), stop('d', 0, 900)];
    const result = diagnose(stops, one, [shift('A'), shift('B', { skills: ['cooling'] })], at);
    expect(result).toMatchObject({ reason: 'time_window' });
    expect(result.detail).toContain('shift B');
  });
});

describe('the fleet model', () => {
  const origin = new Date('2026-06-01T08:00:00Z');
  const base = { status: 'to_be_dispatched' as const, serviceDurationSeconds: 0, timeWindowStartsAt: null, timeWindowEndsAt: null, requiredSkills: [] };
  const stops: FleetStop[] = [
    { ...base, id: 'p', bookingId: 'b', type: 'pickup', lat: 0, lng: 0 },
    { ...base, id: 'd', bookingId: 'b', type: 'dropoff', lat: 0, lng: 1 },
  ];
  const shifts: FleetShift[] = [{ id: 's', driverId: 'x', startsAt: origin, endsAt: new Date(origin.getTime() + 3600_000), start: { lat: 0, lng: 0 }, end: { lat: 0, lng: 0 }, capacity: { packages: 1 }, skills: [], organizationId: null }];
  // Points: p, d, shift start, shift end; 100 s between the depot (= p) and d.
  const seconds = [
    [0, 100, 0, 0],
    [100, 0, 100, 100],
    [0, 100, 0, 0],
    [0, 100, 0, 0],
  ];
  const packages = [
    { pickupStopId: 'p', dropoffStopId: 'd', weightGrams: 500 },
    { pickupStopId: 'p', dropoffStopId: 'd', weightGrams: 500 },
  ];

  it('drives a shift: out from its start, back to its end, with the load on board checked', () => {
    const model = withFleetTravel(fleetModelOf(stops, packages.slice(0, 1), shifts, new Map(), origin, origin), seconds);
    expect(model.loads).toEqual([
      [1, 500],
      [-1, -500],
    ]);
    expect(fleetScheduleOf(model, 0, [0, 1])).toMatchObject({ arrivals: [0, 100], travelSeconds: 200, finish: 200, feasible: true });
    expect(acceptRoutes(model, { routes: [[0, 1]] })).toEqual({ routes: [[0, 1]], unplaced: [] });
    // Drop-off before pickup: refused whole.
    expect(acceptRoutes(model, { routes: [[1, 0]] })).toEqual({ routes: [[]], unplaced: [0, 1] });
  });

  it('refuses a route over the vehicle capacity or past the shift end', () => {
    const heavy = withFleetTravel(fleetModelOf(stops, packages, shifts, new Map(), origin, origin), seconds);
    expect(fleetScheduleOf(heavy, 0, [0, 1]).feasible).toBe(false);
    const late = withFleetTravel(fleetModelOf(stops, packages.slice(0, 1), shifts, new Map(), origin, new Date(origin.getTime() + 3550_000)), seconds);
    expect(fleetScheduleOf(late, 0, [0, 1]).feasible).toBe(false);
  });

  it('lets only the shifts of its managing organizations and with its skills serve a booking', () => {
    const skilled = stops.map((s) => (s.type === 'dropoff' ? { ...s, requiredSkills: ['cooling'] } : s));
    const two = [shifts[0]!, { ...shifts[0]!, id: 't', skills: ['cooling'], organizationId: 'org' }];
    expect(fleetModelOf(skilled, packages, two, new Map(), origin, origin).allowed).toEqual([[1]]);
    expect(fleetModelOf(stops, packages, two, new Map([['b', ['org']]]), origin, origin).allowed).toEqual([[1]]);
    expect(fleetModelOf(stops, packages, two, new Map([['b', ['other']]]), origin, origin).allowed).toEqual([[]]);
  });

  describe('with a tour under way (decision 1303)', () => {
    // The running tour's open drop-off 'r' (its pickup done: one 500 g package on board), and the new pair p → d.
    const open: FleetStop = { ...base, id: 'r', bookingId: 'a', type: 'dropoff', lat: 0, lng: 2, status: 'scheduled' };
    const onBoard = { pickupStopId: 'done', dropoffStopId: 'r', weightGrams: 500 };
    const runningShift = (capacity: number): FleetShift => ({
      ...shifts[0]!,
      capacity: { packages: capacity },
      running: { tourId: 'T', from: { lat: 0, lng: 0 }, readyAt: new Date(origin.getTime() + 60_000), openStopIds: ['r'], keptStopIds: ['done'], onBoard: [onBoard] },
    });
    // Points: p, d, r, the running start, the shift end.
    const matrix = [
      [0, 100, 200, 0, 0],
      [100, 0, 100, 100, 100],
      [200, 100, 0, 200, 200],
      [0, 100, 200, 0, 0],
      [0, 100, 200, 0, 0],
    ];
    const modelOf = (capacity: number) => withFleetTravel(fleetModelOf([...stops, open], [packages[0]!, onBoard], [runningShift(capacity)], new Map(), origin, origin), matrix);

    it('binds its open stops to its vehicle, carries the goods on board from the start and leaves when the driver is free', () => {
      const model = modelOf(2);
      expect(model.initialLoads).toEqual([[1, 500]]);
      expect(model.loads[2]).toEqual([-1, -500]);
      expect(model.requests).toContainEqual({ delivery: 2, vehicle: 0 });
      expect(model.allowed[model.requests.findIndex((r) => r.delivery === 2)]).toEqual([0]);
      // Leaves at readyAt (60 s), serves p, d, then r: two packages on board between p and d.
      expect(fleetScheduleOf(model, 0, [0, 1, 2])).toMatchObject({ arrivals: [60, 160, 260], feasible: true });
      expect(fleetScheduleOf(modelOf(1), 0, [0, 1, 2]).feasible).toBe(false);
      expect(fleetScheduleOf(modelOf(1), 0, [2, 0, 1]).feasible).toBe(true);
    });

    it('keeps the running tour as it is when the route leaves out its stops or does not hold', () => {
      expect(acceptRoutes(modelOf(1), { routes: [[2, 0, 1]] })).toEqual({ routes: [[2, 0, 1]], unplaced: [] });
      // Over capacity: its own stop stays, the new pair is unplaced.
      expect(acceptRoutes(modelOf(1), { routes: [[0, 1, 2]] })).toEqual({ routes: [[2]], unplaced: [0, 1] });
      // Its own stop missing: as it was.
      expect(acceptRoutes(modelOf(2), { routes: [[0, 1]] })).toEqual({ routes: [[2]], unplaced: [0, 1] });
      // Over the stop limit with the stop it keeps (3 + 1 > 3).
      expect(acceptRoutes(modelOf(2), { routes: [[0, 1, 2]] }, 3)).toEqual({ routes: [[2]], unplaced: [0, 1] });
    });
  });
});
