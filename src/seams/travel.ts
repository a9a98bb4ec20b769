// What dispatch (plans, auto-dispatch, tour optimisation) and live tracking (ETAs) ask of travel times
// (Deps.hooks.travel): the one travel seam of contract §15 — answered by the region module's travel/matrix.ts (a
// configured engine, else the imported region's roads, else straight lines), and the driver's last known position,
// answered by live tracking. Declared below the modules so that Deps names it without importing them (decisions 0959,
// 0212, 1523).
import type { Config } from '../config.ts';
import type { Queryable } from '../db/client.ts';
import type { Clock } from '../shared/clock.ts';

export interface Point {
  lat: number;
  lng: number;
}

export type TravelSource = 'road_network' | 'osrm' | 'valhalla' | 'straight_line';

/** What a travel matrix reads: the database (the regions' roads), the clock (the engines' cache), the routing config. */
export interface TravelAsk {
  db: Queryable;
  clock: Clock;
  config: Pick<Config, 'routing' | 'live'>;
}

export interface TravelAnswer {
  /** Row = from. */
  seconds: number[][];
  meters: number[][];
  /** One source for the whole matrix (travel_source in the API). */
  source: TravelSource;
}

/** A line along the roads through points in their order (contract §15's routes). */
export interface TravelRouteAnswer {
  /** [lng, lat] pairs (GeoJSON order). */
  coordinates: [number, number][];
  meters: number;
  seconds: number;
  source: TravelSource;
}

export interface TravelTimes {
  /** Seconds and meters from every point to every point, and their source; `speedKmh` is the service area's (straight lines). */
  matrix(deps: TravelAsk, points: readonly Point[], speedKmh: number): Promise<TravelAnswer>;
  /** matrix(…).seconds. */
  matrixSeconds(deps: TravelAsk, points: readonly Point[], speedKmh: number): Promise<number[][]>;
  /** The route through the points in their order, from the same source as matrix() would use. */
  route(deps: TravelAsk, points: readonly Point[], speedKmh: number): Promise<TravelRouteAnswer>;
  /** The last position the tour's driver reported, or null. */
  lastPosition(q: Queryable, tenantId: string, tourId: string): Promise<Point | null>;
  /** The last positions of many tours' drivers in one read (auto-dispatch, decision 1350); tours without one absent. */
  lastPositions(q: Queryable, tenantId: string, tourIds: readonly string[]): Promise<Map<string, Point>>;
}
