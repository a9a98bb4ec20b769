// Where a route's line comes from (contract §15, decision 1700): the same sources in the same order as matrix.ts —
// the configured engine's route service, else the road network of the one region holding every point (the fastest
// path between consecutive points, along the edges' shapes), else straight segments at the service area's speed.
import type { Queryable } from '../../../db/client.ts';
import { recordRoutingFallback } from '../../../http/metrics.ts';
import { roadPath } from '../roads/path.ts';
import { osrmRoute, valhallaRoute, type EngineRoute, type EngineRouteAdapter } from './engine-routes.ts';
import { regionNetwork, snapAll, type TravelDeps, type TravelSource } from './matrix.ts';
import { DETOUR_FACTOR, haversineMeters, type Point } from './straight-line.ts';

export interface TravelRoute extends EngineRoute {
  source: TravelSource;
}

const ENGINES: Record<'osrm' | 'valhalla', EngineRouteAdapter> = { osrm: osrmRoute, valhalla: valhallaRoute };

export async function travelRoute(deps: TravelDeps, points: readonly Point[], speedKmh: number): Promise<TravelRoute> {
  const { engine, url } = deps.config.routing;
  if (engine && points.length >= 2) {
    const answer = await ENGINES[engine](points, { url: url ?? '', timeoutMs: deps.config.live.osrmTimeoutMs }).catch((err: unknown) => {
      recordRoutingFallback(engine, (err as Error).name === 'TimeoutError' || (err as Error).name === 'AbortError' ? 'timeout' : 'error');
      return null;
    });
    if (answer) return { ...answer, source: engine };
  }
  const road = points.length >= 2 ? await roadRoute(deps.db, points) : null;
  return road ?? straightRoute(points, speedKmh);
}

/** Leg by leg along the region's roads, or null when a point is off the network or a leg has no path. */
async function roadRoute(q: Queryable, points: readonly Point[]): Promise<TravelRoute | null> {
  const network = await regionNetwork(q, points);
  const snapped = network ? snapAll(network, points) : null;
  if (!network || !snapped) return null;
  const route: TravelRoute = { coordinates: [], meters: 0, seconds: 0, source: 'road_network' };
  for (let i = 1; i < snapped.length; i++) {
    const leg = roadPath(network.workspace, snapped[i - 1]!, snapped[i]!);
    if (!leg) return null;
    route.coordinates.push(...(route.coordinates.length ? leg.coordinates.slice(1) : leg.coordinates));
    route.meters += leg.meters;
    route.seconds += leg.seconds;
  }
  return route;
}

function straightRoute(points: readonly Point[], speedKmh: number): TravelRoute {
  let meters = 0;
  for (let i = 1; i < points.length; i++) meters += haversineMeters(points[i - 1]!, points[i]!) * DETOUR_FACTOR;
  return { coordinates: points.map((p) => [p.lng, p.lat]), meters, seconds: meters / (Math.max(1, speedKmh) / 3.6), source: 'straight_line' };
}
