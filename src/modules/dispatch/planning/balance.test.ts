// The balance measures on hand-made tours (issue 39): hull membership, max/mean stops, overlap, waiting share.
import { describe, expect, it } from 'vitest';
import { balanceOf, convexHull, strictlyInside, type TourWork } from './balance.ts';

const p = (lng: number, lat: number) => ({ lat, lng });
const square = [p(0, 0), p(4, 0), p(4, 4), p(0, 4)];

describe('convex hull', () => {
  it('drops interior and collinear points and runs counter-clockwise', () => {
    const hull = convexHull([...square, p(2, 2), p(2, 0), p(1, 3)]);
    expect(hull).toEqual([p(0, 0), p(4, 0), p(4, 4), p(0, 4)]);
  });

  it.each([
    ['the centre', p(2, 2), true],
    ['near a corner, inside', p(0.1, 0.1), true],
    ['on an edge', p(2, 0), false],
    ['a corner', p(4, 4), false],
    ['outside', p(5, 2), false],
  ] as const)('%s is inside: %s', (_, point, inside) => {
    expect(strictlyInside(convexHull(square), point)).toBe(inside);
  });

  it('a hull of fewer than 3 points, or of collinear ones, holds nothing', () => {
    expect(strictlyInside(convexHull([p(0, 0), p(4, 4)]), p(2, 2))).toBe(false);
    expect(strictlyInside(convexHull([p(0, 0), p(2, 2), p(4, 4)]), p(2, 2))).toBe(false);
  });
});

describe('balanceOf', () => {
  const tour = (stops: number, territory: TourWork['territory'], waiting = 0, working = 3600): TourWork => ({ stops_count: stops, waiting_s: waiting, working_s: working, territory });

  it('max/mean over the tours with stops, overlap as the mean share inside another hull, waiting over working', () => {
    const result = balanceOf([
      // A: the square's corners (on no other hull) and (5, 2), inside B's hull.
      tour(10, [...square, p(5, 2)], 600, 6000),
      // B: east of A, overlapping it on x 3..4: (3.5, 2) lies inside A's square.
      tour(20, [p(3, 1), p(7, 1), p(7, 3), p(3, 3), p(3.5, 2)], 0, 4000),
      // C: far away, overlaps nothing.
      tour(30, [p(20, 20), p(22, 20), p(21, 22)]),
      // An unused shift: not a tour.
      tour(0, []),
    ]);
    expect(result.tours).toBe(3);
    expect(result.max_stops).toBe(30);
    expect(result.mean_stops).toBe(20);
    expect(result.max_over_mean).toBe(1.5);
    // A: 1 of 5 inside B; B: (3, 1), (3, 3), (3.5, 2) inside A's square, 3 of 5; C: none.
    expect(result.overlap).toBeCloseTo((1 / 5 + 3 / 5 + 0) / 3, 10);
    expect(result.waiting_share).toBeCloseTo(600 / (6000 + 4000 + 3600), 10);
  });

  it('no tours: all zero', () => {
    expect(balanceOf([])).toEqual({ tours: 0, max_stops: 0, mean_stops: 0, max_over_mean: 0, overlap: 0, waiting_share: 0 });
  });
});
