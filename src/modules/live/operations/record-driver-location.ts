// POST /api/hailing/tours/{id}/driver_location: store the driver's position, move the current one, ETAs, events.
import { sql } from 'drizzle-orm';
import type { Tx } from '../../../db/client.ts';
import type { Deps } from '../../../deps.ts';
import type { Actor } from '../../../http/actor.ts';
import { forbidden } from '../../../http/errors.ts';
import type { Messages } from '../../../http/i18n.ts';
import { scheduleCoalescedEvent } from '../../../worker/debounce.ts';
import { LOCATION_WEBHOOK_WINDOW_SECONDS } from '../coalescing.ts';
import { requireTour, tourSummaryOf, type TourSummary } from '../dispatch-port.ts';
import type { Fix } from '../ingestion.ts';
import { currentPositionFields, positionRow } from '../position-row.ts';
import { mayOnLive } from '../permissions.ts';
import { checkFix, checkPositionTour } from '../position-checks.ts';
import * as repo from '../repository.ts';
import type { DriverLocationBodyT } from '../schemas.ts';
import { LIVE_CHANNEL, positionNotice, renderPosition } from '../views.ts';
import { recomputeEtas, type EtaState } from './recompute-etas.ts';
import { recordPositionFast } from './record-position-fast.ts';

export const messages: Messages = {
  'live.tour_not_tracked': { en: 'Positions are taken only while the tour is claimed or en route.', de: 'Positionen werden nur für übernommene oder laufende Touren angenommen.' },
};

export async function recordDriverLocation(deps: Deps, actor: Actor, tourId: string, body: DriverLocationBodyT) {
  if (!mayOnLive(actor, 'record_location')) throw forbidden();
  const now = deps.clock.now();
  const input = body.location;
  const fix: Fix = { lat: input.lat, lng: input.lng, recordedAt: new Date(input.recorded_at) };
  checkFix(fix, now);
  return (await recordPositionFast(deps, actor, tourId, input, fix, now)) ?? recordInTransaction(deps, actor, tourId, input, fix, now);
}

/** The locking path: a tour's first position, a stop gone or without an ETA row (see the fast path). */
export async function recordInTransaction(deps: Deps, actor: Actor, tourId: string, input: DriverLocationBodyT['location'], fix: Fix, now: Date) {
  return deps.db.transaction(async (tx) => {
    const { tour, tracking } = await lockTrackedTour(tx, actor, tourId, now);
    const { duplicate, told } = await repo.fixContext(tx, actor.tenantId, tour.id, fix);
    const row = positionRow({ tenantId: actor.tenantId, tourId: tour.id, driverId: actor.userId, now }, input, fix, tracking, duplicate, deps.config.live.maxSpeedKmh);
    await repo.insertPosition(tx, row);
    if (row.becameCurrent) await moveCurrentPosition(deps, tx, actor, tour, { tracking, told }, row);
    return { location: renderPosition(row) };
  });
}

/** The tour a position is for, checked (404 unseen, 403 not its driver, 409 not tracked), and its tracking row locked. */
export async function lockTrackedTour(tx: Tx, actor: Actor, tourId: string, now: Date): Promise<{ tour: TourSummary; tracking: repo.TrackingRow }> {
  const tour = tourSummaryOf(await requireTour(tx, actor, tourId));
  checkPositionTour(actor, tour);
  const tracking = await repo.lockTracking(tx, actor.tenantId, tour.id, { serviceAreaId: tour.serviceAreaId, now });
  return { tour, tracking };
}

/** The new current position: tracking row, ETAs, the coalesced webhook and the live stream's notice. */
export async function moveCurrentPosition(deps: Deps, tx: Tx, actor: Actor, tour: TourSummary, state: EtaState, row: repo.PositionRow): Promise<void> {
  const patch = currentPositionFields(actor, row);
  // recomputeEtas writes the tracking row once, with the new position and the time of the ETAs.
  const toldIds = await recomputeEtas(deps, tx, actor.tenantId, actor, tour, { tracking: { ...state.tracking, ...patch }, told: state.told ?? new Map() });
  await scheduleCoalescedEvent(tx, {
    tenantId: actor.tenantId,
    type: 'tour.driver_location_updated',
    resourceId: tour.id,
    windowSeconds: LOCATION_WEBHOOK_WINDOW_SECONDS,
    now: row.receivedAt,
  });
  // Delivered at commit, to every process listening (PostgreSQL) or to this one (PGlite); never for a rollback.
  const notice = positionNotice(tour, patch.driverOrganizationId, row, toldIds);
  await tx.execute(sql`SELECT pg_notify(${LIVE_CHANNEL}, ${JSON.stringify(notice)})`);
}
