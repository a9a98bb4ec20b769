// Every job kind's handler, named here: the worker's complete table (no module registers itself by being imported).
import { expireClaimJob } from '../modules/dispatch/index.ts';
import { busynessTickJob } from '../modules/busyness/index.ts';
import { purgeIdempotencyKeysJob } from '../http/idempotency-purge.ts';
import { sendMailJob } from '../mail/jobs.ts';
import { debouncedEventJob } from './debounce.ts';
import { purgeOldPositionsJob, recomputeEtasJob } from '../modules/live/index.ts';
import { distributeTipsJob } from '../modules/compensation/index.ts';
import { expireReportJob } from '../modules/reports/index.ts';
import { notifyRecipientsJob } from '../modules/tracking/index.ts';
import type { JobHandlers } from './registry.ts';

export const JOB_HANDLERS: JobHandlers = {
  'mail.send': sendMailJob,
  'tours.expire_claim': expireClaimJob,
  'busyness.tick': busynessTickJob,
  'idempotency.purge': purgeIdempotencyKeysJob,
  'event.debounced': debouncedEventJob,
  'live.recompute_etas': recomputeEtasJob,
  'live.position_retention': purgeOldPositionsJob,
  'compensation.distribute_tips': distributeTipsJob,
  'reports.expire': expireReportJob,
  'tracking.notify_recipients': notifyRecipientsJob,
};
