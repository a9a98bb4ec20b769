// Tip distribution runs as a job (DESIGN.md §4): dispatch changes schedule it in their transaction through the
// dispatch hook; the worker evaluates in a transaction of its own (decision 0604).
import { scheduleJob } from '../../worker/jobs.ts';
import { registerJob } from '../../worker/registry.ts';
import { onDispatchChange } from '../dispatch/index.ts';
import { distributeTips } from './tip-distribution.ts';

export const DISTRIBUTE_TIPS_JOB = 'compensation.distribute_tips';

onDispatchChange(async (tx, change) => {
  await scheduleJob(tx, {
    tenantId: change.tenantId,
    kind: DISTRIBUTE_TIPS_JOB,
    payload: { tour_ids: change.completedTourIds, booking_ids: change.bookingIds },
    dueAt: change.at,
    now: change.at,
  });
});

registerJob(DISTRIBUTE_TIPS_JOB, async (deps, job) => {
  const { tour_ids: tourIds, booking_ids: bookingIds } = job.payload as { tour_ids: string[]; booking_ids: string[] };
  await deps.db.transaction((tx) => distributeTips(tx, deps, job.tenantId, deps.clock.now(), { tourIds, bookingIds }));
});
