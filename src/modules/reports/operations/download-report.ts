// downloadReport: the decrypted file as a stream, each chunk authenticated before it is sent; every attempt is
// recorded in the report's activity (who, when, outcome).
import type { Readable } from 'node:stream';
import type { Deps } from '../../../deps.ts';
import type { Actor } from '../../../http/actor.ts';
import { AppError, conflict, notFound } from '../../../http/errors.ts';
import { CorruptBlobError } from '../../../crypto/chunked-gcm.ts';
import { newId } from '../../../shared/ids.ts';
import { seesReport } from '../access.ts';
import { contentDisposition } from '../content-disposition.ts';
import * as repo from '../repository.ts';
import { effectiveStatus } from '../report-machine.ts';
import { openFile } from '../sealed-files.ts';
import type { ReportActivityOutcome } from '../tables.ts';
import { authorize } from './common.ts';

export interface Download {
  stream: Readable;
  headers: Record<string, string>;
}

async function record(deps: Deps, actor: Actor, reportId: string, outcome: ReportActivityOutcome): Promise<void> {
  await repo.insertActivity(deps.db, { tenantId: actor.tenantId, id: newId(), reportId, userId: actor.userId, action: 'download', outcome, at: deps.clock.now() });
}

export async function downloadReport(deps: Deps, actor: Actor, id: string): Promise<Download> {
  const ring = authorize(deps, actor, 'download');
  const row = await repo.findReport(deps.db, actor.tenantId, id);
  if (!row) throw notFound('report');
  if (!seesReport(actor, row.grants)) {
    await record(deps, actor, id, 'not_visible');
    throw notFound('report');
  }
  const status = effectiveStatus(row, deps.clock.now());
  if (status === 'expired') {
    await record(deps, actor, id, 'expired');
    throw new AppError(410, 'report_expired', `The report expired at ${row.expiresAt.toISOString()}; its file is deleted.`);
  }
  if (status !== 'ready' || !row.blobKey || !row.wrappedKey) {
    await record(deps, actor, id, 'not_ready');
    throw conflict('report_not_ready', `The report is ${status}; only a ready report can be downloaded.`, { report_status: status });
  }
  const alert = (err: Error, chunk: number) =>
    deps.log.error({ alert: 'report_corrupt', tenant_id: actor.tenantId, report_id: id, chunk, err: err.message }, 'ALERT: a report file failed authentication');
  let stream: Readable;
  try {
    stream = await openFile(deps.config, ring, { tenantId: row.tenantId, id: row.id, blobKey: row.blobKey, wrappedKey: row.wrappedKey });
  } catch (err) {
    if (!(err instanceof CorruptBlobError)) throw err;
    alert(err, err.chunk);
    await record(deps, actor, id, 'corrupt');
    throw new AppError(500, 'report_corrupt', 'The stored report file failed its integrity check; nothing of it was sent. Operators were alerted.');
  }
  // A later chunk failing destroys the stream: the client sees a cut-off transfer, never unauthenticated bytes.
  stream.on('error', (err) => {
    alert(err, err instanceof CorruptBlobError ? err.chunk : -1);
    void record(deps, actor, id, 'corrupt').catch(() => undefined);
  });
  await record(deps, actor, id, 'downloaded');
  return {
    stream,
    headers: {
      'content-type': row.fileContentType ?? 'application/octet-stream',
      'content-length': String(row.fileSizeBytes ?? 0),
      'content-disposition': contentDisposition(row.fileName ?? 'report'),
      'x-content-type-options': 'nosniff',
      'cache-control': 'private, no-store',
    },
  };
}
