// Proof file retention as a periodic job (decision 1250): every hour, files stored more than PROOF_RETENTION_DAYS ago
// are deleted and the proofs that linked them say so.
import type { Deps } from '../../../deps.ts';
import { NIL_UUID } from '../../../shared/ids.ts';
import { ensureJob, scheduleJob } from '../../../worker/jobs.ts';
import type { JobKind } from '../../../worker/job-kinds.ts';
import type { JobHandler } from '../../../worker/registry.ts';
import { deleteExpiredProofFiles } from './operations.ts';

export const PROOF_RETENTION_JOB: JobKind = 'dispatch.proof_retention';
const RETENTION_INTERVAL_MS = 60 * 60 * 1000;
const retention = { tenantId: NIL_UUID, kind: PROOF_RETENTION_JOB, dedupeKey: 'proof-retention', payload: {} };

/** Every worker calls this on start; only the first pending run counts. */
export async function ensureProofRetention(deps: Deps): Promise<void> {
  const now = deps.clock.now();
  await ensureJob(deps.db, { ...retention, dueAt: now, now });
}

export const proofRetentionJob: JobHandler = async (deps) => {
  // Scheduled first: a run that fails still leaves the next one in place.
  const now = deps.clock.now();
  await scheduleJob(deps.db, { ...retention, dueAt: new Date(now.getTime() + RETENTION_INTERVAL_MS), now });
  await deleteExpiredProofFiles(deps);
};
