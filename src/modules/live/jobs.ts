// Live tracking's worker side: ETAs recomputed after dispatch changes, the coalesced tour.driver_location_updated
// payload, and the position retention job.
import type { Deps } from '../../deps.ts';
import { iso } from '../../shared/time.ts';
import { NIL_UUID } from '../../shared/ids.ts';
import type { DebouncedPayloadBuilder } from '../../worker/debounce.ts';
import { ensureJob, scheduleJob } from '../../worker/jobs.ts';
import type { JobKind } from '../../worker/job-kinds.ts';
import type { JobHandler } from '../../worker/registry.ts';
import type { DispatchHooks } from '../../seams/index.ts';
import { findTourSummary, isHeldByDriver } from '../dispatch/index.ts';
import { recomputeEtas } from './operations/recompute-etas.ts';
import * as repo from './repository.ts';

export const RECOMPUTE_ETAS_JOB: JobKind = 'live.recompute_etas';

/**
 * Dispatch changes of a tour a driver holds (start, a stop completed or failed, stops inserted, moved, optimised)
 * make its ETAs due again. The recomputation is a job in the change's transaction rather than part of it, so a
 * routing request never holds the tour's lock (decision 0903); tours nobody holds any more drop their ETAs at once.
 */
const dropOrRecomputeEtas: DispatchHooks['trackedToursChanged'] = async (tx, change) => {
  await repo.deleteEtasOfTours(tx, change.tenantId, change.tours.filter((t) => !t.tracked).map((t) => t.id), change.at);
  for (const tour of change.tours.filter((t) => t.tracked)) {
    await ensureJob(tx, {
      tenantId: change.tenantId,
      kind: RECOMPUTE_ETAS_JOB,
      dedupeKey: tour.id,
      payload: { tour_id: tour.id, event: change.event },
      dueAt: change.at,
      now: change.at,
    });
  }
};

/** Live tracking's part in dispatch (Deps.hooks.dispatch, wired in src/hooks.ts): ETAs after changes, ETAs on stops. */
export const liveDispatchHooks: Pick<DispatchHooks, 'trackedToursChanged' | 'stopEtas'> = {
  trackedToursChanged: dropOrRecomputeEtas,
  stopEtas: repo.etasWithTourOfStops,
};

export const recomputeEtasJob: JobHandler = async (deps, job) => {
  const tourId = String(job.payload.tour_id);
  await deps.db.transaction(async (tx) => {
    const tour = await findTourSummary(tx, job.tenantId, tourId);
    if (!tour || !isHeldByDriver(tour.status)) return;
    await recomputeEtas(deps, tx, job.tenantId, 'system', tour);
  });
};

export const POSITION_RETENTION_JOB: JobKind = 'live.position_retention';
const RETENTION_INTERVAL_MS = 60 * 60 * 1000;
/** Rows deleted per statement: short statements keep locks and WAL bursts small on a large backlog. */
export const RETENTION_BATCH = 5_000;
const retention = { tenantId: NIL_UUID, kind: POSITION_RETENTION_JOB, dedupeKey: 'position-retention', payload: {} };

/** `tour.driver_location_updated`: the tour's position at the end of the window (the latest), not the one that opened it. */
export const driverLocationUpdatedData: DebouncedPayloadBuilder = async (q, tenantId, tourId) => {
  const row = await repo.findTracking(q, tenantId, tourId);
  if (!row || row.lat === null || row.lng === null || row.recordedAt === null) return null;
  return {
    tour_id: row.tourId,
    service_area_id: row.serviceAreaId,
    driver_id: row.driverId,
    location: { lat: row.lat, lng: row.lng, heading: row.heading, speed: row.speed, accuracy: row.accuracy, recorded_at: iso(row.recordedAt) },
  };
};

/** Every worker calls this on start; only the first pending run counts. */
export async function ensurePositionRetention(deps: Deps): Promise<void> {
  const now = deps.clock.now();
  await ensureJob(deps.db, { ...retention, dueAt: now, now });
}

/** Deletes positions received more than POSITION_RETENTION_DAYS ago, and stream tickets long expired. */
export async function purgeOldPositions(deps: Pick<Deps, 'db' | 'clock' | 'config'>): Promise<number> {
  const now = deps.clock.now();
  const cutoff = new Date(now.getTime() - deps.config.live.positionRetentionDays * 86_400_000);
  let total = 0;
  for (let deleted = RETENTION_BATCH; deleted === RETENTION_BATCH; total += deleted) deleted = await repo.deletePositionsBefore(deps.db, cutoff, RETENTION_BATCH);
  await repo.deleteTicketsExpiredBefore(deps.db, new Date(now.getTime() - 86_400_000));
  return total;
}

export const purgeOldPositionsJob: JobHandler = async (deps) => {
  // Scheduled first: a run that fails still leaves the next one in place.
  const now = deps.clock.now();
  await scheduleJob(deps.db, { ...retention, dueAt: new Date(now.getTime() + RETENTION_INTERVAL_MS), now });
  await purgeOldPositions(deps);
};
