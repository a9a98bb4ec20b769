// completeReport and failReport: the creator (or an admin who sees it) ends a pending report (docs/api-guide.md "Reports").
import type { Deps } from '../../../deps.ts';
import type { Actor } from '../../../http/actor.ts';
import { invalidTransition } from '../../../http/errors.ts';
import { blobStoreFor } from '../../../blobs/store.ts';
import * as repo from '../repository.ts';
import { effectiveStatus, nextStatus } from '../report-machine.ts';
import { sealFile } from '../sealed-files.ts';
import { toReportView, type ReportView } from '../views.ts';
import { requireReport } from '../access.ts';
import { authorize, notifyReady } from './common.ts';
import type { IncomingFile, Upload } from './common.ts';

/** Refuses early (before an upload) when the report cannot complete; the transaction checks again under its lock. */
function transitionOr409(row: repo.ReportRow, event: 'complete' | 'fail', now: Date) {
  const from = effectiveStatus(row, now);
  const to = nextStatus(from, event);
  if (!to) throw invalidTransition('report', from, event === 'complete' ? 'ready' : 'failed');
  return to;
}

export async function completeReport(deps: Deps, actor: Actor, id: string, upload: Upload<IncomingFile>): Promise<ReportView> {
  const ring = authorize(deps, actor, 'complete');
  transitionOr409(requireReport(actor, await repo.findReport(deps.db, actor.tenantId, id), { manage: true }), 'complete', deps.clock.now());
  const file = await upload();
  const sealed = await sealFile(deps.config, ring[0]!, actor.tenantId, id, file.stream);
  try {
    return await deps.db.transaction(async (tx) => {
      const now = deps.clock.now();
      const row = requireReport(actor, await repo.findReportForUpdate(tx, actor.tenantId, id), { manage: true });
      transitionOr409(row, 'complete', now);
      const patch = {
        status: 'ready' as const,
        fileName: file.name,
        fileContentType: file.contentType,
        fileSizeBytes: sealed.size,
        fileSha256: sealed.sha256,
        blobKey: sealed.blobKey,
        wrappedKey: sealed.wrappedKey,
        readyAt: now,
      };
      await repo.updateReport(tx, actor.tenantId, id, patch);
      const updated = { ...row, ...patch };
      await notifyReady(deps, tx, updated);
      return toReportView(updated, now);
    });
  } catch (err) {
    await blobStoreFor(deps.config).delete(sealed.blobKey).catch(() => undefined);
    throw err;
  }
}

export async function failReport(deps: Deps, actor: Actor, id: string, reason: string | null): Promise<ReportView> {
  authorize(deps, actor, 'fail');
  return deps.db.transaction(async (tx) => {
    const now = deps.clock.now();
    const row = requireReport(actor, await repo.findReportForUpdate(tx, actor.tenantId, id), { manage: true });
    transitionOr409(row, 'fail', now);
    await repo.updateReport(tx, actor.tenantId, id, { status: 'failed', failureReason: reason });
    return toReportView({ ...row, status: 'failed', failureReason: reason }, now);
  });
}
