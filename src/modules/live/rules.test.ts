import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { coalescedEmissions } from './coalescing.ts';
import { computeEtas, etasMoved, routePoints, type EtaStop } from './eta.ts';
import { haversineMeters } from './geo.ts';
import { classifyPosition, impliedSpeedKmh, type Fix } from './ingestion.ts';

const at = (iso: string) => new Date(`2026-06-01T${iso}Z`);
const fix = (lat: number, lng: number, time: string): Fix => ({ lat, lng, recordedAt: at(time) });
const rules = { maxSpeedKmh: 200 };
// 0.01° of latitude is ~1.11 km.
const current = fix(52.5, 13.4, '10:00:00');

describe('classifyPosition', () => {
  it.each([
    ['the first position of a tour becomes current', fix(52.5, 13.4, '10:00:00'), null, false, null, true],
    ['a plausible move becomes current', fix(52.51, 13.4, '10:01:00'), current, false, null, true],
    ['(0, 0) is filtered as zero', fix(0, 0, '10:01:00'), current, false, 'zero', false],
    ['(0, 0) is filtered even as the first position', fix(0, 0, '10:01:00'), null, false, 'zero', false],
    // Only both coordinates at 0 is a broken chip: the equator and the prime meridian are real places.
    ['latitude 0 alone is a real place', fix(0, 9.5, '10:00:00'), null, false, null, true],
    ['longitude 0 alone is a real place', fix(51.48, 0, '10:00:00'), null, false, null, true],
    ['a duplicate on the equator is a duplicate, not zero', fix(0, 9.5, '10:00:00'), null, true, 'duplicate', false],
    ['a plausible move onto the equator becomes current', fix(0, 9.5, '10:01:00'), fix(0.01, 9.5, '10:00:00'), false, null, true],
    ['an exact duplicate is filtered', fix(52.5, 13.4, '10:00:00'), current, true, 'duplicate', false],
    ['1.1 km in 10 s (400 km/h) is a jump', fix(52.51, 13.4, '10:00:10'), current, false, 'jump', false],
    ['1.1 km in 30 s (133 km/h) is not', fix(52.51, 13.4, '10:00:30'), current, false, null, true],
    ['a different place at the same instant is a jump', fix(52.51, 13.4, '10:00:00'), current, false, 'jump', false],
    ['standing still at the same instant is current', fix(52.5, 13.4, '10:00:00'), current, false, null, true],
    ['an older position is history, not current', fix(52.49, 13.4, '09:59:00'), current, false, null, false],
    ['an older position far away is still history, never a jump', fix(48.1, 11.5, '09:00:00'), current, false, null, false],
  ] as const)('%s', (_name, candidate, previous, duplicate, filtered, becomesCurrent) => {
    expect(classifyPosition(candidate, previous, duplicate, rules)).toEqual({ filtered, becomesCurrent });
  });

  it('filters a fix just over the maximum speed and keeps one at it', () => {
    // 0.01° of latitude on one meridian: haversine gives 1111.95 m; in 20 s that is 200.15 km/h.
    const from = fix(10, 0, '10:00:00');
    const to = fix(10.01, 0, '10:00:20');
    const speed = impliedSpeedKmh(from, to);
    expect(speed).toBeGreaterThan(200);
    expect(speed).toBeLessThan(200.3);
    expect(classifyPosition(to, from, false, { maxSpeedKmh: 200 }).filtered).toBe('jump');
    expect(classifyPosition(to, from, false, { maxSpeedKmh: speed }).filtered).toBeNull();
  });

  it.each([
    ['standing still', fix(10, 0, '10:00:00'), fix(10, 0, '10:05:00'), 0],
    ['standing still at the same instant', fix(10, 0, '10:00:00'), fix(10, 0, '10:00:00'), 0],
    ['moving at the same instant', fix(10, 0, '10:00:00'), fix(10.01, 0, '10:00:00'), Infinity],
    ['moving back in time', fix(10, 0, '10:00:00'), fix(10.01, 0, '09:59:00'), Infinity],
  ] as const)('implies a speed for %s', (_name, from, to, expected) => {
    expect(impliedSpeedKmh(from, to)).toBe(expected);
  });

  it('implies a speed in km/h from metres and seconds', () => {
    // 1111.95 m in 3600 s is 1.11 km/h.
    expect(impliedSpeedKmh(fix(10, 0, '10:00:00'), fix(10.01, 0, '11:00:00'))).toBeCloseTo(1.112, 3);
  });

  it('honours a configured maximum speed', () => {
    const candidate = fix(52.51, 13.4, '10:00:30');
    expect(classifyPosition(candidate, current, false, { maxSpeedKmh: 100 }).filtered).toBe('jump');
    expect(classifyPosition(candidate, current, false, { maxSpeedKmh: 150 }).filtered).toBeNull();
  });

  const lat = fc.double({ min: -89, max: 89, noNaN: true });
  const lng = fc.double({ min: -179, max: 179, noNaN: true });
  const fixArb = fc.record({ lat, lng, recordedAt: fc.date({ min: at('00:00:00'), max: at('23:59:59'), noInvalidDate: true }) });

  it('never makes a filtered or an older position current (property)', () => {
    fc.assert(
      fc.property(fixArb, fc.option(fixArb, { nil: null }), fc.boolean(), (candidate, previous, duplicate) => {
        const result = classifyPosition(candidate, previous, duplicate, rules);
        if (result.filtered !== null) expect(result.becomesCurrent).toBe(false);
        if (previous && candidate.recordedAt < previous.recordedAt) expect(result.becomesCurrent).toBe(false);
        if (result.becomesCurrent && previous) expect(impliedSpeedKmh(previous, candidate)).toBeLessThanOrEqual(rules.maxSpeedKmh);
      }),
    );
  });
});

describe('haversineMeters', () => {
  it('measures one degree of latitude as about 111.2 km', () => {
    expect(haversineMeters({ lat: 52, lng: 13 }, { lat: 53, lng: 13 })).toBeCloseTo(111_195, -1);
  });
  it('is symmetric and zero on the same point (property)', () => {
    const p = fc.record({ lat: fc.double({ min: -90, max: 90, noNaN: true }), lng: fc.double({ min: -180, max: 180, noNaN: true }) });
    fc.assert(
      fc.property(p, p, (a, b) => {
        expect(haversineMeters(a, b)).toBeCloseTo(haversineMeters(b, a), 6);
        expect(haversineMeters(a, a)).toBe(0);
      }),
    );
  });
});

const stop = (id: string, overrides: Partial<EtaStop> = {}): EtaStop => ({ id, lat: 52.5, lng: 13.4, timeWindowStartsAt: null, serviceDurationSeconds: 0, ...overrides });

describe('computeEtas', () => {
  const now = at('10:00:00');
  it.each([
    ['travel only', true, [stop('a'), stop('b')], [600, 300], { a: '10:10:00', b: '10:15:00' }],
    ['service durations delay later stops', true, [stop('a', { serviceDurationSeconds: 120 }), stop('b')], [600, 300], { a: '10:10:00', b: '10:17:00' }],
    ['a window that opens later is waited for', true, [stop('a', { timeWindowStartsAt: at('10:30:00'), serviceDurationSeconds: 60 }), stop('b')], [600, 300], { a: '10:30:00', b: '10:36:00' }],
    ['a window already open changes nothing', true, [stop('a', { timeWindowStartsAt: at('09:00:00') })], [600], { a: '10:10:00' }],
    ['without a position the first open stop is the start', false, [stop('a', { serviceDurationSeconds: 60 }), stop('b')], [300], { a: '10:00:00', b: '10:06:00' }],
    ['without a position, the first stop still waits for its window', false, [stop('a', { timeWindowStartsAt: at('11:00:00') })], [], { a: '11:00:00' }],
    ['no open stops, no ETAs', true, [], [], {}],
  ] as const)('%s', (_name, hasOrigin, stops, legs, expected) => {
    const etas = computeEtas(now, hasOrigin, stops, legs);
    expect(Object.fromEntries([...etas].map(([id, eta]) => [id, eta.toISOString().slice(11, 19)]))).toEqual(expected);
  });

  it('refuses a leg count that does not match the route', () => {
    expect(() => computeEtas(now, true, [stop('a')], [])).toThrow(/expected 1 legs/);
  });

  it('routes from the position through the stops, or from the first stop', () => {
    const stops = [stop('a', { lat: 1, lng: 1 }), stop('b', { lat: 2, lng: 2 })];
    expect(routePoints({ lat: 0.5, lng: 0.5 }, stops)).toEqual([{ lat: 0.5, lng: 0.5 }, { lat: 1, lng: 1 }, { lat: 2, lng: 2 }]);
    expect(routePoints(null, stops)).toEqual([{ lat: 1, lng: 1 }, { lat: 2, lng: 2 }]);
  });

  it('gives non-decreasing ETAs, never before now nor before a window opens (property)', () => {
    const stopArb = fc.record({
      serviceDurationSeconds: fc.integer({ min: 0, max: 3600 }),
      windowOffset: fc.option(fc.integer({ min: -7200, max: 7200 }), { nil: null }),
      leg: fc.integer({ min: 0, max: 7200 }),
    });
    fc.assert(
      fc.property(fc.array(stopArb, { maxLength: 30 }), fc.boolean(), (specs, hasOrigin) => {
        const stops = specs.map((s, i) =>
          stop(`s${i}`, { serviceDurationSeconds: s.serviceDurationSeconds, timeWindowStartsAt: s.windowOffset === null ? null : new Date(now.getTime() + s.windowOffset * 1000) }),
        );
        const legs = (hasOrigin ? specs : specs.slice(1)).map((s) => s.leg);
        const etas = [...computeEtas(now, hasOrigin, stops, legs).values()].map((d) => d.getTime());
        expect(etas).toHaveLength(stops.length);
        etas.forEach((eta, i) => {
          expect(eta).toBeGreaterThanOrEqual(i === 0 ? now.getTime() : (etas[i - 1] ?? 0) + (stops[i - 1]?.serviceDurationSeconds ?? 0) * 1000);
          const opens = stops[i]?.timeWindowStartsAt;
          if (opens) expect(eta).toBeGreaterThanOrEqual(opens.getTime());
        });
      }),
    );
  });
});

describe('etasMoved', () => {
  const d = (time: string) => at(time);
  it.each([
    ['a tour\'s first ETAs count as a move', new Map<string, Date | null>(), new Map([['a', d('10:00:00')]]), true],
    ['a stop that had no ETA counts as a move', new Map([['a', null]]), new Map([['a', d('10:00:00')]]), true],
    ['59 s is no move', new Map([['a', d('10:00:00')]]), new Map([['a', d('10:00:59')]]), false],
    ['60 s later is a move', new Map([['a', d('10:00:00')]]), new Map([['a', d('10:01:00')]]), true],
    ['60 s earlier is a move', new Map([['a', d('10:01:00')]]), new Map([['a', d('10:00:00')]]), true],
    ['one stop of several moving is enough', new Map([['a', d('10:00:00')], ['b', d('10:10:00')]]), new Map([['a', d('10:00:10')], ['b', d('10:12:00')]]), true],
    ['a stop leaving the tour is no move by itself', new Map([['a', d('10:00:00')], ['b', d('10:10:00')]]), new Map([['b', d('10:10:30')]]), false],
    ['no open stops left is no move', new Map([['a', d('10:00:00')]]), new Map<string, Date>(), false],
  ] as const)('%s', (_name, previous, next, moved) => {
    expect(etasMoved(previous, next)).toBe(moved);
  });
});

describe('coalescedEmissions', () => {
  it.each([
    ['one position: one webhook a window later', [0], [10_000]],
    ['positions every 5 s: one webhook per 10 s', [0, 5_000, 10_000, 15_000, 20_000], [10_000, 20_000, 30_000]],
    ['a burst inside one window: one webhook', [0, 1_000, 2_000, 9_999], [10_000]],
    ['a quiet gap opens a new window', [0, 60_000], [10_000, 70_000]],
  ] as const)('%s', (_name, times, expected) => {
    expect(coalescedEmissions(times, 10)).toEqual(expected);
  });

  it('emits at most once per window and never leaves a position waiting longer than a window (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 600_000 }), { minLength: 1, maxLength: 200 }), (times) => {
        const emissions = coalescedEmissions(times, 10);
        for (let i = 1; i < emissions.length; i++) expect((emissions[i] ?? 0) - (emissions[i - 1] ?? 0)).toBeGreaterThanOrEqual(10_000);
        for (const t of times) expect(emissions.some((e) => e >= t && e - t <= 10_000)).toBe(true);
      }),
    );
  });
});
