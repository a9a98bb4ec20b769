// rewrapReportKeys (`tourbook keys rotate`): seals every file key again under a new master key. File bytes are not
// touched. Each row is its own short transaction and rows already under the new key are skipped, so an interrupted
// rotation simply runs again (decision 0701).
import type { Deps } from '../../../deps.ts';
import { unwrap, wrap, wrappingKeyId, type MasterKey } from '../../../crypto/key-wrap.ts';
import * as repo from '../repository.ts';
import { keyContext } from '../sealed-files.ts';

export interface RewrapOptions {
  batchSize?: number;
  /** Stop after this many rows (tests interrupt a rotation this way). */
  stopAfter?: number;
}

/** `ring` must hold every key that sealed a row (the current one, and the new one when resuming). Returns the count. */
export async function rewrapReportKeys(deps: Deps, ring: readonly MasterKey[], next: MasterKey, options: RewrapOptions = {}): Promise<number> {
  const keys = [...ring, next];
  let done = 0;
  let after: { tenantId: string; id: string } | null = null;
  for (;;) {
    const batch = await repo.reportsSealedOtherwise(deps.db, next.id, after, options.batchSize ?? 200);
    if (!batch.length) return done;
    for (const { tenantId, id } of batch) {
      if (options.stopAfter !== undefined && done >= options.stopAfter) return done;
      const changed = await deps.db.transaction(async (tx) => {
        const row = await repo.findReportForUpdate(tx, tenantId, id);
        // Expired meanwhile, or already re-wrapped by a concurrent run.
        if (!row?.wrappedKey || wrappingKeyId(row.wrappedKey) === next.id) return false;
        const key = unwrap(keys, row.wrappedKey, keyContext(tenantId, id));
        try {
          await repo.updateReport(tx, tenantId, id, { wrappedKey: wrap(next, key, keyContext(tenantId, id)) });
        } finally {
          key.fill(0);
        }
        return true;
      });
      if (changed) done += 1;
      after = { tenantId, id };
    }
  }
}
