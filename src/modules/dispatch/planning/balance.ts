// How balanced a fleet plan is (issue 39, §16): stops per driver against the mean, how much the tours' territories
// overlap, and how much of the working time is spent waiting. Pure; the fleet bench reports these for each objective,
// and a plan's proposal carries the per-tour figures they are computed from.
import type { Point } from './travel.ts';

/** One proposed tour as the measures read it. */
export interface TourWork {
  stops_count: number;
  waiting_s: number;
  working_s: number;
  /** The points that make up the tour's territory (the bench passes the drop-offs: pickups sit at shared depots). */
  territory: readonly Point[];
}

export interface Balance {
  tours: number;
  max_stops: number;
  mean_stops: number;
  /** max_stops / mean_stops; 1 is perfectly even (0 without tours). */
  max_over_mean: number;
  /** Mean over tours of the share of its territory points strictly inside another tour's convex hull. */
  overlap: number;
  /** Total waiting over total working time (0 without work). */
  waiting_share: number;
}

/** The measures over the tours that have stops (an unused shift is not a driver's tour). */
export function balanceOf(all: readonly TourWork[]): Balance {
  const tours = all.filter((t) => t.stops_count > 0);
  if (!tours.length) return { tours: 0, max_stops: 0, mean_stops: 0, max_over_mean: 0, overlap: 0, waiting_share: 0 };
  const max = Math.max(...tours.map((t) => t.stops_count));
  const mean = tours.reduce((sum, t) => sum + t.stops_count, 0) / tours.length;
  const hulls = tours.map((t) => convexHull(t.territory));
  const shares = tours.map((t, k) => {
    if (!t.territory.length) return 0;
    const inside = t.territory.filter((p) => hulls.some((hull, j) => j !== k && strictlyInside(hull, p))).length;
    return inside / t.territory.length;
  });
  const working = tours.reduce((sum, t) => sum + t.working_s, 0);
  const waiting = tours.reduce((sum, t) => sum + t.waiting_s, 0);
  return {
    tours: tours.length,
    max_stops: max,
    mean_stops: mean,
    max_over_mean: max / mean,
    overlap: shares.reduce((a, b) => a + b, 0) / shares.length,
    waiting_share: working > 0 ? waiting / working : 0,
  };
}

// Hull membership is invariant under affine maps, so degrees serve as planar coordinates (lng as x, lat as y).
const cross = (o: Point, a: Point, b: Point): number => (a.lng - o.lng) * (b.lat - o.lat) - (a.lat - o.lat) * (b.lng - o.lng);

/** The convex hull, counter-clockwise, without collinear points (Andrew's monotone chain); fewer than 3 points: no area. */
export function convexHull(points: readonly Point[]): Point[] {
  const sorted = [...points].sort((a, b) => a.lng - b.lng || a.lat - b.lat);
  if (sorted.length < 3) return sorted;
  const lower: Point[] = [];
  for (const p of sorted) {
    while (lower.length >= 2 && cross(lower.at(-2)!, lower.at(-1)!, p) <= 0) lower.pop();
    lower.push(p);
  }
  const upper: Point[] = [];
  for (const p of [...sorted].reverse()) {
    while (upper.length >= 2 && cross(upper.at(-2)!, upper.at(-1)!, p) <= 0) upper.pop();
    upper.push(p);
  }
  return [...lower.slice(0, -1), ...upper.slice(0, -1)];
}

/** Whether p lies strictly inside a counter-clockwise hull (on its boundary is not inside; a hull without area holds nothing). */
export function strictlyInside(hull: readonly Point[], p: Point): boolean {
  if (hull.length < 3) return false;
  return hull.every((a, i) => cross(a, hull[(i + 1) % hull.length]!, p) > 0);
}
