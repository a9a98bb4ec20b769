// The `route` of each proposed tour (contract §15, decision 1700): the line along the roads from where the tour starts
// through its stops in the planned order, from the travel seam (the same source as the plan's times).
import type { Queryable } from '../../../db/client.ts';
import type { Deps } from '../../../deps.ts';
import { travelRouteView, type TravelRouteView } from '../../../http/travel-schemas.ts';
import { DEFAULT_AVERAGE_SPEED_KMH, findServiceArea } from '../../identity/index.ts';
import type { Point } from './travel.ts';

export async function speedOf(q: Queryable, tenantId: string, serviceAreaId: string): Promise<number> {
  return (await findServiceArea(q, tenantId, serviceAreaId))?.averageSpeedKmh ?? DEFAULT_AVERAGE_SPEED_KMH;
}

/** One route per proposed tour: `start` (a shift's start, a driver) when given, then the stops. */
export async function proposedRoutes(
  deps: Pick<Deps, 'db' | 'clock' | 'config' | 'hooks'>,
  tours: readonly (readonly Point[])[],
  speedKmh: number,
  starts: readonly (Point | null)[] = [],
): Promise<TravelRouteView[]> {
  const routes: TravelRouteView[] = [];
  for (const [k, stops] of tours.entries()) {
    const start = starts[k] ?? null;
    const points = [...(start ? [start] : []), ...stops.map((s) => ({ lat: s.lat, lng: s.lng }))];
    routes.push(travelRouteView(await deps.hooks.travel.route({ db: deps.db, clock: deps.clock, config: deps.config }, points, speedKmh)));
  }
  return routes;
}
