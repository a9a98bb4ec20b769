// The tip distribution job: the worker evaluates, in a transaction of its own, what a dispatch change scheduled.
import type { JobHandler } from '../../worker/registry.ts';
import { distributeTips } from './tip-distribution.ts';

export const distributeTipsJob: JobHandler = async (deps, job) => {
  const { tour_ids: tourIds, booking_ids: bookingIds } = job.payload as { tour_ids: string[]; booking_ids: string[] };
  await deps.db.transaction((tx) => distributeTips(tx, deps, job.tenantId, deps.clock.now(), { tourIds, bookingIds }));
};
