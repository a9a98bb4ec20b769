// A tour's route along the roads (contract §15, decision 1700): from the driver's last position while the tour is
// en route (else from its first remaining stop) through its remaining stops in tour order, from the travel seam.
import type { Deps } from '../../../deps.ts';
import type { Actor } from '../../../http/actor.ts';
import { travelRouteView } from '../../../http/travel-schemas.ts';
import { DEFAULT_AVERAGE_SPEED_KMH, findServiceArea } from '../../identity/index.ts';
import { requireTour } from '../access.ts';
import { isFinalStop } from '../bookings/index.ts';
import { stopsRepository as stopsRepo } from '../stops/index.ts';

/** GET /api/hailing/tours/{id}/route: whoever sees the tour (its door: 404 otherwise). */
export async function getTourRoute(deps: Deps, actor: Actor, id: string) {
  const tour = await requireTour(deps.db, actor, id);
  const stops = (await stopsRepo.findStopsOfTours(deps.db, actor.tenantId, [tour.id]))
    .filter((s) => !isFinalStop(s.status))
    .sort((a, b) => (a.tourPosition ?? 0) - (b.tourPosition ?? 0));
  const position = tour.status === 'en_route' && stops.length > 0 ? await deps.hooks.travel.lastPosition(deps.db, actor.tenantId, tour.id) : null;
  const points = [...(position ? [position] : []), ...stops.map((s) => ({ lat: s.lat, lng: s.lng }))];
  const speed = (await findServiceArea(deps.db, actor.tenantId, tour.serviceAreaId))?.averageSpeedKmh ?? DEFAULT_AVERAGE_SPEED_KMH;
  return travelRouteView(await deps.hooks.travel.route({ db: deps.db, clock: deps.clock, config: deps.config }, points, speed));
}
