// Reports jobs: the expiry of one report, scheduled at creation for its expires_at.
import { registerJob } from '../../worker/registry.ts';
import { REPORT_EXPIRY_JOB } from './operations/common.ts';
import { expireReport } from './operations/expire-report.ts';

registerJob(REPORT_EXPIRY_JOB, async (deps, job) => {
  await expireReport(deps, job.tenantId, String(job.payload.report_id));
});
