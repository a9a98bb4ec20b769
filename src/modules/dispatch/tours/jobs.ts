// Tour jobs: the claim-window expiry, scheduled when a driver claims a tour.
import { registerJob } from '../../../worker/registry.ts';
import { CLAIM_EXPIRY_JOB, expireClaim } from './operations.ts';

registerJob(CLAIM_EXPIRY_JOB, async (deps, job) => {
  await expireClaim(deps, job.tenantId, String(job.payload.tour_id));
});
