// Reports jobs: the expiry of one report, scheduled at creation for its expires_at.
import type { JobHandler } from '../../worker/registry.ts';
import { expireReport } from './operations/expire-report.ts';

export const expireReportJob: JobHandler = async (deps, job) => {
  await expireReport(deps, job.tenantId, String(job.payload.report_id));
};
