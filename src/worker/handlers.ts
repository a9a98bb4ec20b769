// Every job kind's handler and every debounced event's payload builder, named here: the worker's complete tables,
// checked when a worker starts (no module registers itself by being imported).
import { autoDispatchJob, expireClaimJob, proofRetentionJob, runPlanJob } from '../modules/dispatch/index.ts';
import { busynessTickJob } from '../modules/busyness/index.ts';
import { purgeIdempotencyKeysJob } from '../http/idempotency-purge.ts';
import { sendMailJob } from '../mail/jobs.ts';
import { debouncedEventJob, DEBOUNCED_EVENT_TYPES, type DebouncedEventBuilders } from './debounce.ts';
import { driverLocationUpdatedData, purgeOldPositionsJob, recomputeEtasJob } from '../modules/live/index.ts';
import { compensationUpdatedData, distributeTipsJob } from '../modules/compensation/index.ts';
import { expireReportJob } from '../modules/reports/index.ts';
import { notifyRecipientsJob, recipientRetentionJob, sendRecipientMessageJob } from '../modules/tracking/index.ts';
import type { JobKind } from './job-kinds.ts';
import type { JobHandlers } from './registry.ts';

/** The payload of each debounced event, read at send time (src/worker/debounce.ts). */
export const DEBOUNCED_EVENT_BUILDERS: DebouncedEventBuilders = {
  'tour.compensation_updated': compensationUpdatedData,
  'tour.driver_location_updated': driverLocationUpdatedData,
};

export const JOB_HANDLERS: JobHandlers = {
  'mail.send': sendMailJob,
  'tours.expire_claim': expireClaimJob,
  'busyness.tick': busynessTickJob,
  'idempotency.purge': purgeIdempotencyKeysJob,
  'event.debounced': debouncedEventJob(DEBOUNCED_EVENT_BUILDERS),
  'live.recompute_etas': recomputeEtasJob,
  'live.position_retention': purgeOldPositionsJob,
  'compensation.distribute_tips': distributeTipsJob,
  'reports.expire': expireReportJob,
  'dispatch.plan': runPlanJob,
  'bookings.auto_dispatch': autoDispatchJob,
  'dispatch.proof_retention': proofRetentionJob,
  'tracking.notify_recipients': notifyRecipientsJob,
  'tracking.send_message': sendRecipientMessageJob,
  'tracking.recipient_retention': recipientRetentionJob,
};

/**
 * The kinds whose jobs of one pass run side by side, at most this many at once (decision 1785), and that have lanes of
 * their own in `serve`'s worker: a send job mostly waits for the gateway, and its claim makes a message sent once
 * whoever runs it (decision 1763). Every other kind runs one job after another, as it always did.
 */
export const JOB_CONCURRENCY: Partial<Record<JobKind, number>> = {
  'tracking.send_message': 32,
};

/** A worker refuses to start with a debounced type that has no builder (the Record type says so too; this catches a cast). */
export function assertAllDebouncedEventsBuilt(builders: DebouncedEventBuilders): void {
  const missing = DEBOUNCED_EVENT_TYPES.filter((type) => typeof builders[type] !== 'function');
  if (missing.length) throw new Error(`debounced events without a payload builder: ${missing.join(', ')}`);
}
