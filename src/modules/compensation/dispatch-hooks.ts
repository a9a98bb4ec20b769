// Compensation's part in dispatch (Deps.hooks.dispatch, wired in src/hooks.ts): every dispatch change that may move
// a tip (a tour completed, a booking finished, a tip changed) schedules tip distribution in its transaction
// (decision 0604); booking responses render each booking's tip_distribution from here.
import type { DispatchHooks } from '../../seams/index.ts';
import { scheduleJob } from '../../worker/jobs.ts';
import type { JobKind } from '../../worker/job-kinds.ts';
import { tipDistributionOfBookings, tipOutcomeRead } from './views.ts';

export const DISTRIBUTE_TIPS_JOB: JobKind = 'compensation.distribute_tips';

export const compensationDispatchHooks: Pick<DispatchHooks, 'tipFactsChanged' | 'tipDistribution' | 'tipOutcomeRead'> = {
  async tipFactsChanged(tx, change) {
    await scheduleJob(tx, {
      tenantId: change.tenantId,
      kind: DISTRIBUTE_TIPS_JOB,
      payload: { tour_ids: change.completedTourIds, booking_ids: change.bookingIds },
      dueAt: change.at,
      now: change.at,
    });
  },
  tipDistribution: tipDistributionOfBookings,
  tipOutcomeRead,
};
