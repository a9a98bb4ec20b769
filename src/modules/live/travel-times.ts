// Travel times for tour optimisation (the travel seam, src/seams/travel.ts, wired in src/hooks.ts): the ETA routing as a matrix —
// straight lines (haversine × 1.3 at the area's speed), or OSRM's table service when OSRM_URL is set, falling back to
// straight lines on any failure as ETAs do.
import { recordRoutingFallback } from '../../http/metrics.ts';
import type { TravelTimes } from '../../seams/index.ts';
import type { LatLng } from './geo.ts';
import * as repo from './repository.ts';
import { straightLineLegSeconds } from './routing.ts';

export function straightLineMatrix(points: readonly LatLng[], speedKmh: number): number[][] {
  return points.map((from, i) => points.map((to, j) => (i === j ? 0 : straightLineLegSeconds([from, to], speedKmh)[0]!)));
}

/** OSRM's table service caps coordinates per request (max-table-size, 100 by default). */
const MAX_TABLE_POINTS = 100;

async function osrmMatrix(url: string, timeoutMs: number, points: readonly LatLng[]): Promise<number[][] | null> {
  if (points.length > MAX_TABLE_POINTS) return null;
  const coordinates = points.map((p) => `${p.lng.toFixed(6)},${p.lat.toFixed(6)}`).join(';');
  const response = await fetch(`${url.replace(/\/+$/, '')}/table/v1/driving/${coordinates}?annotations=duration`, { signal: AbortSignal.timeout(timeoutMs) });
  const body = (await response.json().catch(() => null)) as { code?: unknown; durations?: unknown } | null;
  const rows = body?.durations;
  if (!response.ok || body?.code !== 'Ok' || !Array.isArray(rows) || rows.length !== points.length) return null;
  const ok = rows.every((row) => Array.isArray(row) && row.length === points.length && row.every((s) => typeof s === 'number' && Number.isFinite(s) && s >= 0));
  return ok ? (rows as number[][]) : null;
}

export const travelTimes: TravelTimes = {
  async matrixSeconds(config, points, speedKmh) {
    if (config.osrmUrl && points.length > 1) {
      const matrix = await osrmMatrix(config.osrmUrl, config.live.osrmTimeoutMs, points).catch(() => null);
      if (matrix) return matrix;
      recordRoutingFallback('osrm', 'error');
    }
    return straightLineMatrix(points, speedKmh);
  },
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
