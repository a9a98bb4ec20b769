// The busyness tick: a platform-wide job that recomputes busyness and schedules itself BUSYNESS_INTERVAL_SECONDS on.
import type { Deps } from '../../deps.ts';
import { NIL_UUID } from '../../shared/ids.ts';
import { ensureJob, scheduleJob } from '../../worker/jobs.ts';
import type { JobKind } from '../../worker/job-kinds.ts';
import type { JobHandler } from '../../worker/registry.ts';
import { recomputeAllBusyness } from './operations.ts';

export const BUSYNESS_TICK_JOB: JobKind = 'busyness.tick';
const tick = { tenantId: NIL_UUID, kind: BUSYNESS_TICK_JOB, dedupeKey: 'busyness', payload: {} };

/** Every worker calls this on start; only the first pending tick counts. */
export async function ensureBusynessTick(deps: Deps): Promise<void> {
  const now = deps.clock.now();
  await ensureJob(deps.db, { ...tick, dueAt: now, now });
}

export const busynessTickJob: JobHandler = async (deps) => {
  // Scheduled first: a tick that fails still leaves the next one in place.
  const now = deps.clock.now();
  await scheduleJob(deps.db, { ...tick, dueAt: new Date(now.getTime() + deps.config.busynessIntervalSeconds * 1000), now });
  await recomputeAllBusyness(deps);
};
