import { describe, expect, it } from 'vitest';
import { bindingOf, cheapestFit, cheapestOf, openPartOf, pointsOf, type FitStop, type TourForFit } from './cheapest-insertion.ts';

const T0 = new Date('2026-11-25T08:00:00Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

/** Stops on a line: x is both the id's number and the position, travel is |Δx| × 60 s. */
const stop = (id: string, x: number, extra: Partial<FitStop> = {}): FitStop => ({
  id,
  status: 'scheduled',
  lat: 0,
  lng: x,
  timeWindowStartsAt: null,
  timeWindowEndsAt: null,
  serviceDurationSeconds: 0,
  ...extra,
});

const lineMatrix = (points: { lng: number }[]) => points.map((a) => points.map((b) => Math.abs(a.lng - b.lng) * 60));

const tourOf = (stops: FitStop[], extra: Partial<TourForFit> = {}): TourForFit => ({
  id: 'tour',
  stops,
  start: { point: { lat: 0, lng: 0 }, readyAfterSeconds: 0 },
  startAt: T0,
  maxStops: 100,
  capacity: null,
  endsAt: null,
  ...extra,
});

const fit = (tour: TourForFit, added: FitStop[], changes = new Map<string, number>()) => cheapestFit(tour, added, lineMatrix(pointsOf(tour, added)), changes);

describe('cheapestFit', () => {
  it('puts a pickup and its drop-off where they add least travel, in booking order', () => {
    const tour = tourOf([stop('a', 1), stop('b', 5), stop('c', 9)]);
    const result = fit(tour, [stop('p', 2), stop('d', 4)]);
    expect(result).toEqual({ fits: true, fit: { tourId: 'tour', cost: 0, order: ['a', 'p', 'd', 'b', 'c'] } });
  });

  it('never puts a drop-off before its pickup, even where that would be cheaper', () => {
    const tour = tourOf([stop('a', 1), stop('b', 5)]);
    const result = fit(tour, [stop('p', 4), stop('d', 2)]);
    expect(result.fits).toBe(true);
    if (!result.fits) return;
    expect(result.fit.order.indexOf('p')).toBeLessThan(result.fit.order.indexOf('d'));
  });

  it('keeps stops served or under way in front and inserts only after them', () => {
    const tour = tourOf([stop('a', 1, { status: 'completed' }), stop('b', 8, { status: 'arrived' }), stop('c', 9)], {
      start: { point: { lat: 0, lng: 8 }, readyAfterSeconds: 0 },
    });
    const result = fit(tour, [stop('p', 1), stop('d', 2)]);
    expect(result.fits && result.fit.order.slice(0, 2)).toEqual(['a', 'b']);
  });

  it('refuses a tour at its stop limit (cancelled stops do not count)', () => {
    const stops = [stop('a', 1), stop('b', 2), stop('x', 3, { status: 'cancelled' })];
    expect(fit(tourOf(stops, { maxStops: 3 }), [stop('p', 2), stop('d', 3)])).toEqual({ fits: false, constraint: 'stop_limit' });
    expect(fit(tourOf(stops, { maxStops: 4 }), [stop('p', 2), stop('d', 3)]).fits).toBe(true);
  });

  it("refuses where the booking's window cannot be met and where it would make a tour stop late", () => {
    // The drop-off must be served within 2 minutes, but the tour reaches x = 10 after 10 minutes at the earliest.
    const tight = fit(tourOf([stop('a', 1)]), [stop('p', 9), stop('d', 10, { timeWindowEndsAt: at(120) })]);
    expect(tight).toEqual({ fits: false, constraint: 'time_window' });
    // Stop b must be reached by 5 minutes; a detour to x = 9 first makes it late, and so does any detour before it.
    const tour = tourOf([stop('a', 1), stop('b', 5, { timeWindowEndsAt: at(300) })]);
    const result = fit(tour, [stop('p', 9), stop('d', 9)]);
    expect(result.fits && result.fit.order).toEqual(['a', 'b', 'p', 'd']);
    const blocking = fit(tourOf([stop('b', 5, { timeWindowEndsAt: at(300) })]), [stop('p', 1, { timeWindowStartsAt: at(600) }), stop('d', 1)]);
    expect(blocking.fits && blocking.fit.order).toEqual(['b', 'p', 'd']);
  });

  it('does not blame the booking for a tour stop that was late already, if it is no later', () => {
    const tour = tourOf([stop('a', 5, { timeWindowEndsAt: at(60) }), stop('b', 6)]);
    const result = fit(tour, [stop('p', 7), stop('d', 8)]);
    expect(result.fits && result.fit.order).toEqual(['a', 'b', 'p', 'd']);
  });

  it('refuses where the load would exceed the capacity, counting packages already on board', () => {
    const onBoard = [stop('a', 1, { status: 'completed' }), stop('b', 5)];
    const changes = new Map([
      ['a', 2],
      ['b', -2],
      ['p', 1],
      ['d', -1],
    ]);
    const tour = tourOf(onBoard, { capacity: 2, start: { point: { lat: 0, lng: 1 }, readyAfterSeconds: 0 } });
    // Two packages on board until b: the pickup can only come after b.
    const result = fit(tour, [stop('p', 2), stop('d', 3)], changes);
    expect(result.fits && result.fit.order).toEqual(['a', 'b', 'p', 'd']);
    const full = tourOf(onBoard, { capacity: 1, start: { point: { lat: 0, lng: 1 }, readyAfterSeconds: 0 } });
    const over = fit(full, [stop('p', 2), stop('d', 3)], new Map([...changes, ['a', 1], ['b', -1], ['p', 2], ['d', -2]]));
    expect(over).toEqual({ fits: false, constraint: 'capacity' });
  });

  it("refuses where the last stop would end after the driver's shift", () => {
    const tour = tourOf([stop('a', 1)], { endsAt: at(5 * 60) });
    expect(fit(tour, [stop('p', 2), stop('d', 3)]).fits).toBe(true);
    expect(fit(tour, [stop('p', 2), stop('d', 9)])).toEqual({ fits: false, constraint: 'shift' });
  });

  it('places bookings of more than two stops one after the other, keeping their order', () => {
    const tour = tourOf([stop('a', 1), stop('b', 9)]);
    const result = fit(tour, [stop('p', 2), stop('d1', 3), stop('d2', 8)]);
    expect(result.fits && result.fit.order).toEqual(['a', 'p', 'd1', 'd2', 'b']);
  });

  it('starts anywhere when the tour has no start point: the first stop is free', () => {
    const tour = tourOf([stop('a', 5)], { start: { point: null, readyAfterSeconds: 0 } });
    const result = fit(tour, [stop('p', 1), stop('d', 2)]);
    expect(result.fits && result.fit).toMatchObject({ order: ['p', 'd', 'a'], cost: 240 });
  });
});

describe('choosing among tours', () => {
  it('takes the cheapest fit, else names the constraint that bound most tours', () => {
    expect(cheapestOf([{ fits: true, fit: { tourId: 'x', cost: 9, order: [] } }, { fits: true, fit: { tourId: 'y', cost: 3, order: [] } }])).toMatchObject({ fits: true, fit: { tourId: 'y' } });
    expect(cheapestOf([{ fits: false, constraint: 'time_window' }, { fits: false, constraint: 'stop_limit' }, { fits: false, constraint: 'time_window' }])).toEqual({ fits: false, constraint: 'time_window' });
    expect(bindingOf(new Map([['time_window', 1], ['capacity', 1]]))).toBe('capacity');
  });

  it('splits a tour into what stays in front and the open stops after it', () => {
    const stops = [stop('a', 1, { status: 'completed' }), stop('x', 2, { status: 'cancelled' }), stop('b', 3), stop('y', 4, { status: 'cancelled' })];
    expect(openPartOf(stops)).toEqual({ fixed: [stops[0]], open: [stops[2]] });
  });
});
