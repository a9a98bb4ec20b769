// Recurring platform jobs: each reschedules itself; every worker makes sure one is pending when it starts.
import type { Deps } from '../deps.ts';
import { ensureIdempotencyPurge } from '../http/idempotency-purge.ts';
import { ensureBusynessTick } from '../modules/busyness/index.ts';
import { ensurePositionRetention } from '../modules/live/index.ts';
import { sealPlainWebhookSecrets } from '../modules/webhooks/index.ts';
import { ensureProofRetention } from '../modules/dispatch/index.ts';
import { ensureRecipientNotifications, ensureRecipientRetention } from '../modules/tracking/index.ts';

export async function ensurePeriodicJobs(deps: Deps): Promise<void> {
  await ensureBusynessTick(deps);
  await ensureIdempotencyPurge(deps);
  await ensurePositionRetention(deps);
  await ensureProofRetention(deps);
  await ensureRecipientNotifications(deps);
  await ensureRecipientRetention(deps);
  // Secrets stored in plain text before decision 0702 are sealed once (a no-op afterwards).
  await sealPlainWebhookSecrets(deps);
}
