// expireReport (the worker's reports.expire job, due at expires_at): deletes the encrypted file and its key, marks the
// report expired. Safe to run twice; a moved expiry (none today) would simply find the report not yet due.
import type { Deps } from '../../../deps.ts';
import { blobStoreFor } from '../../../blobs/store.ts';
import * as repo from '../repository.ts';
import { nextStatus } from '../report-machine.ts';

export async function expireReport(deps: Deps, tenantId: string, reportId: string): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const now = deps.clock.now();
    const row = await repo.findReportForUpdate(tx, tenantId, reportId);
    if (!row || row.expiresAt.getTime() > now.getTime()) return;
    const to = nextStatus(row.status, 'expire');
    // The blob goes first, inside the transaction: if it cannot be deleted, the row keeps pointing at it and the job retries.
    if (row.blobKey) await blobStoreFor(deps.config).delete(row.blobKey);
    await repo.updateReport(tx, tenantId, reportId, { status: to ?? row.status, blobKey: null, wrappedKey: null, expiredAt: row.expiredAt ?? now });
  });
}
