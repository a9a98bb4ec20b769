// Sealing webhook secrets in bulk: the legacy plain rows when a worker starts, and every row on a master key rotation.
// One short transaction per subscription under its row lock; safe to interrupt and to run on many workers at once.
import type { Deps } from '../../deps.ts';
import { isWrapped, type MasterKey } from '../../crypto/key-wrap.ts';
import { masterKeyRingFor } from '../../crypto/master-key.ts';
import * as repo from './repository.ts';
import { resealSecret } from './secret-sealing.ts';

/**
 * Seals every secret not yet sealed under `next` (plain ones too) — or, with `plainOnly`, only the plain ones (a worker
 * starting mid-rotation must not seal rows back under the old key). Returns how many subscriptions changed.
 */
export async function resealWebhookSecrets(deps: Deps, ring: readonly MasterKey[], next: MasterKey, plainOnly = false): Promise<number> {
  const reseal = (tenantId: string, id: string, stored: string): string | null =>
    plainOnly && isWrapped(stored) ? null : resealSecret(ring, next, tenantId, id, stored);
  let changed = 0;
  let after: { tenantId: string; id: string } | null = null;
  for (;;) {
    const batch = await repo.subscriptionsToReseal(deps.db, plainOnly ? null : next.id, after, 200);
    if (!batch.length) return changed;
    for (const { tenant_id: tenantId, id } of batch) {
      const did = await deps.db.transaction(async (tx) => {
        const row = await repo.findSubscription(tx, tenantId, id, { forUpdate: true });
        if (!row) return false;
        const secret = reseal(tenantId, id, row.secret);
        const previousSecret = row.previousSecret === null ? null : reseal(tenantId, id, row.previousSecret);
        if (secret === null && previousSecret === null) return false;
        await repo.updateSubscription(tx, tenantId, id, { ...(secret ? { secret } : {}), ...(previousSecret ? { previousSecret } : {}) });
        return true;
      });
      if (did) changed += 1;
      after = { tenantId, id };
    }
  }
}

/** Plain secrets stored before decision 0702 are sealed under the current key (no-op without one). */
export async function sealPlainWebhookSecrets(deps: Deps): Promise<number> {
  const ring = masterKeyRingFor(deps.config);
  if (!ring.length) return 0;
  const changed = await resealWebhookSecrets(deps, ring, ring[0]!, true);
  if (changed) deps.log.info({ subscriptions: changed }, 'sealed webhook secrets under the master key');
  return changed;
}
