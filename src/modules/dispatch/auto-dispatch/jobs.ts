// The auto-dispatch job: scheduled with a new booking when its service area auto-dispatches (decision 1350).
import type { JobHandler } from '../../../worker/registry.ts';
import { decideAutoDispatch } from './decide.ts';

export const autoDispatchJob: JobHandler = async (deps, job) => {
  await decideAutoDispatch(deps, job.tenantId, String(job.payload.booking_id));
};
