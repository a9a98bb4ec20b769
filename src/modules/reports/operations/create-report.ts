// createReport: validate the grants, encrypt the file (if any) into the blob store, then insert the report with its
// expiry job (and, when ready and asked for, its e-mails) in one transaction.
import type { Deps } from '../../../deps.ts';
import type { Actor } from '../../../http/actor.ts';
import { invalidFields } from '../../../http/errors.ts';
import { blobStoreFor } from '../../../blobs/store.ts';
import { newId } from '../../../shared/ids.ts';
import * as repo from '../repository.ts';
import type { ReportCreateMetaInput } from '../schemas.ts';
import { sealFile, type SealedFile } from '../sealed-files.ts';
import { toReportView, type ReportView } from '../views.ts';
import { authorize, checkGrants, notifyReady, scheduleExpiry, type IncomingFile, type Upload } from './common.ts';

const DAY_MS = 86_400_000;

function expiryOf(deps: Deps, input: ReportCreateMetaInput, now: Date): Date {
  if (input.expires_at === undefined) return new Date(now.getTime() + deps.config.reportRetentionDays * DAY_MS);
  const at = new Date(input.expires_at);
  if (!(at.getTime() > now.getTime())) throw invalidFields([{ pointer: '/report/expires_at', code: 'not_in_future', detail: 'must lie in the future' }]);
  if (at.getTime() > now.getTime() + 366 * DAY_MS) {
    throw invalidFields([{ pointer: '/report/expires_at', code: 'too_late', detail: 'must lie within 366 days' }]);
  }
  return at;
}

export async function createReport(deps: Deps, actor: Actor, upload: Upload<[ReportCreateMetaInput, IncomingFile | null]>): Promise<ReportView> {
  const ring = authorize(deps, actor, 'create');
  const [input, file] = await upload();
  const now = deps.clock.now();
  const expiresAt = expiryOf(deps, input, now);
  // Refuse a bad audience before accepting megabytes of file.
  await deps.db.transaction(async (tx) => checkGrants(tx, actor, input.grants));
  const id = newId();
  const sealed: SealedFile | null = file ? await sealFile(deps.config, ring[0]!, actor.tenantId, id, file.stream) : null;
  try {
    return await deps.db.transaction(async (tx) => {
      await checkGrants(tx, actor, input.grants);
      const row: repo.ReportRow = {
        tenantId: actor.tenantId,
        id,
        title: input.title,
        description: input.description ?? null,
        tags: input.tags ?? [],
        status: sealed ? 'ready' : 'pending',
        failureReason: null,
        notifyByEmail: input.notify_by_email ?? false,
        grants: input.grants,
        fileName: file?.name ?? null,
        fileContentType: file?.contentType ?? null,
        fileSizeBytes: sealed?.size ?? null,
        fileSha256: sealed?.sha256 ?? null,
        blobKey: sealed?.blobKey ?? null,
        wrappedKey: sealed?.wrappedKey ?? null,
        expiresAt,
        createdById: actor.userId,
        createdAt: now,
        readyAt: sealed ? now : null,
        expiredAt: null,
      };
      await repo.insertReport(tx, row);
      await scheduleExpiry(tx, actor.tenantId, id, expiresAt, now);
      if (sealed) await notifyReady(deps, tx, row);
      return toReportView(row, now);
    });
  } catch (err) {
    if (sealed) await blobStoreFor(deps.config).delete(sealed.blobKey).catch(() => undefined);
    throw err;
  }
}
