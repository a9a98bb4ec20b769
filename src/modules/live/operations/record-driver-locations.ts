// POST /api/hailing/tours/{id}/driver_locations: the fixes a phone kept while offline, in one transaction (decision
// 1207). Each is stored and judged as the single route judges it; the tour's position moves once, to the newest fix
// that qualifies, so ETAs, the coalesced webhook and the live stream's notice happen once per batch.
import type { Deps } from '../../../deps.ts';
import type { Actor } from '../../../http/actor.ts';
import { forbidden, invalidFields } from '../../../http/errors.ts';
import type { Fix } from '../ingestion.ts';
import { mayOnLive } from '../permissions.ts';
import { positionRow } from '../position-row.ts';
import * as repo from '../repository.ts';
import type { DriverLocationsBodyT } from '../schemas.ts';
import { renderPosition } from '../views.ts';
import { fixInTheFuture } from '../position-checks.ts';
import { lockTrackedTour, moveCurrentPosition } from './record-driver-location.ts';

/** The same fix twice (a retried upload) is what the single route's duplicate check compares. */
const fixKey = (fix: Fix) => `${fix.recordedAt.toISOString()} ${fix.lat} ${fix.lng}`;

export async function recordDriverLocations(deps: Deps, actor: Actor, tourId: string, body: DriverLocationsBodyT) {
  if (!mayOnLive(actor, 'record_location')) throw forbidden();
  const now = deps.clock.now();
  const inputs = body.locations;
  const fixes: Fix[] = inputs.map((input) => ({ lat: input.lat, lng: input.lng, recordedAt: new Date(input.recorded_at) }));
  const future = fixes.flatMap((fix, i) => fixInTheFuture(fix, now, `/locations/${i}/recorded_at`) ?? []);
  if (future.length) throw invalidFields(future);

  return deps.db.transaction(async (tx) => {
    const { tour, tracking } = await lockTrackedTour(tx, actor, tourId, now);
    const { stored, told } = await repo.batchContext(tx, actor.tenantId, tour.id, fixes);
    const seen = new Set([...stored].map((i) => fixKey(fixes[i]!)));
    // Judged oldest first, each against the position the fixes before it made current: a dead zone's fixes are a
    // track, and the first one after it is no jump from where the driver was two hours ago.
    const order = fixes.map((_, i) => i).sort((a, b) => fixes[a]!.recordedAt.getTime() - fixes[b]!.recordedAt.getTime() || a - b);
    const rows: repo.PositionRow[] = new Array<repo.PositionRow>(fixes.length);
    let current = tracking;
    let newest: repo.PositionRow | null = null;
    for (const i of order) {
      const fix = fixes[i]!;
      const row = positionRow({ tenantId: actor.tenantId, tourId: tour.id, driverId: actor.userId, now }, inputs[i]!, fix, current, seen.has(fixKey(fix)), deps.config.live.maxSpeedKmh);
      seen.add(fixKey(fix));
      rows[i] = row;
      if (!row.becameCurrent) continue;
      // Only the newest becomes the tour's position; the ones it passed are history, like a late upload.
      if (newest) newest.becameCurrent = false;
      newest = row;
      current = { ...current, lat: fix.lat, lng: fix.lng, recordedAt: fix.recordedAt };
    }
    await repo.insertPositions(tx, rows);
    if (newest) await moveCurrentPosition(deps, tx, actor, tour, { tracking, told }, newest);
    return { locations: rows.map(renderPosition) };
  });
}
