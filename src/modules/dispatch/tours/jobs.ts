// Tour jobs: the claim-window expiry, scheduled when a driver claims a tour.
import type { JobHandler } from '../../../worker/registry.ts';
import { expireClaim } from './operations.ts';

export const expireClaimJob: JobHandler = async (deps, job) => {
  await expireClaim(deps, job.tenantId, String(job.payload.tour_id));
};
