// Recipient-data retention (contract §18, decision 1773): every hour, the messages of bookings whose last stop ended
// more than RECIPIENT_DATA_RETENTION_DAYS ago are erased — with them the numbers and addresses they were sent to, and
// the address each told moment kept — and the phone numbers of those bookings' stops (dispatch's, through its door).
// Opt-outs (recipient_phones, recipient_addresses) are kept: they are the recipient's own wish not to be texted again.
import type { Deps } from '../../deps.ts';
import { NIL_UUID } from '../../shared/ids.ts';
import { ensureJob, scheduleJob } from '../../worker/jobs.ts';
import type { JobKind } from '../../worker/job-kinds.ts';
import type { JobHandler } from '../../worker/registry.ts';
import { bookingsEndedBefore, eraseRecipientStopData } from '../dispatch/index.ts';
import * as repo from './messages-repository.ts';

export const RECIPIENT_RETENTION_JOB: JobKind = 'tracking.recipient_retention';
const INTERVAL_MS = 60 * 60 * 1000;
/** Bookings per batch: each batch is one short statement or transaction. */
export const RECIPIENT_RETENTION_BATCH = 200;
const DAY_MS = 86_400_000;
const retention = { tenantId: NIL_UUID, kind: RECIPIENT_RETENTION_JOB, dedupeKey: 'recipient-retention', payload: {} };

/** Every worker calls this on start; only the first pending run counts. */
export async function ensureRecipientRetention(deps: Deps): Promise<void> {
  const now = deps.clock.now();
  await ensureJob(deps.db, { ...retention, dueAt: now, now });
}

export const recipientRetentionJob: JobHandler = async (deps) => {
  // Scheduled first: a run that fails still leaves the next one in place.
  const now = deps.clock.now();
  await scheduleJob(deps.db, { ...retention, dueAt: new Date(now.getTime() + INTERVAL_MS), now });
  await eraseRecipientData(deps);
};

/**
 * One run. Each erasure is one statement over rows nobody writes any more (a booking over for months gets no new
 * message: the sweep looks an hour back), so no lock is taken; a run cut off resumes next hour.
 */
export async function eraseRecipientData(deps: Pick<Deps, 'db' | 'clock' | 'config' | 'log'>): Promise<{ bookings: number; messages: number }> {
  const now = deps.clock.now();
  const cutoff = new Date(now.getTime() - deps.config.recipientDataRetentionDays * DAY_MS);
  let bookings = 0;
  for (;;) {
    const n = await eraseRecipientStopData(deps.db, cutoff, now, RECIPIENT_RETENTION_BATCH);
    bookings += n;
    if (n < RECIPIENT_RETENTION_BATCH) break;
  }
  // A message is written before its booking's last stop ends, so only messages older than the cutoff can be due.
  let messages = 0;
  let after: { tenantId: string; bookingId: string } | null = null;
  for (;;) {
    const candidates = await repo.bookingsWithMessagesBefore(deps.db, cutoff, after, RECIPIENT_RETENTION_BATCH);
    if (!candidates.length) break;
    const ended = await bookingsEndedBefore(deps.db, candidates, cutoff);
    const due = candidates.filter((c) => ended.has(`${c.tenantId}:${c.bookingId}`));
    messages += await deps.db.transaction((tx) => repo.eraseMessagesOfBookings(tx, due));
    if (candidates.length < RECIPIENT_RETENTION_BATCH) break;
    after = candidates[candidates.length - 1]!;
  }
  if (bookings || messages) deps.log.info({ bookings_with_numbers: bookings, messages }, 'recipient data past retention erased');
  return { bookings, messages };
}
