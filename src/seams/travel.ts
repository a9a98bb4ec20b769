// What tour optimisation asks of live tracking (Deps.hooks.travel): travel seconds between points by the same routing
// that computes ETAs, and the driver's last known position. Live imports dispatch, so dispatch asks through this seam;
// declared below the modules so that Deps names it without importing either (decisions 0959, 0212).
import type { Config } from '../config.ts';
import type { Queryable } from '../db/client.ts';

export interface Point {
  lat: number;
  lng: number;
}

export interface TravelTimes {
  /** Seconds from every point to every point (row = from), at the service area's average speed where routing is straight-line. */
  matrixSeconds(config: Pick<Config, 'osrmUrl' | 'live'>, points: readonly Point[], speedKmh: number): Promise<number[][]>;
  /** The last position the tour's driver reported, or null. */
  lastPosition(q: Queryable, tenantId: string, tourId: string): Promise<Point | null>;
  /** The last positions of many tours' drivers in one read (auto-dispatch, decision 1350); tours without one absent. */
  lastPositions(q: Queryable, tenantId: string, tourIds: readonly string[]): Promise<Map<string, Point>>;
}
