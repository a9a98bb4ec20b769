// Live tracking's part of the travel seam (src/seams/travel.ts, wired in src/hooks.ts): the drivers' last positions.
// The travel times themselves come from the region module's travel/matrix.ts (decision 1523).
import type { TravelTimes } from '../../seams/index.ts';
import type { LatLng } from './geo.ts';
import * as repo from './repository.ts';

export const travelTimes: Pick<TravelTimes, 'lastPosition' | 'lastPositions'> = {
  async lastPosition(q, tenantId, tourId) {
    const row = await repo.findTracking(q, tenantId, tourId);
    return row && row.lat !== null && row.lng !== null ? { lat: row.lat, lng: row.lng } : null;
  },
  async lastPositions(q, tenantId, tourIds) {
    const positions = new Map<string, LatLng>();
    for (const row of await repo.findTrackings(q, tenantId, tourIds)) if (row.lat !== null && row.lng !== null) positions.set(row.tourId, { lat: row.lat, lng: row.lng });
    return positions;
  },
};
