// Report files at rest: encrypted under a fresh key per file (sealed by the master key) on the way into the blob
// store, and opened chunk by chunk on the way out (decision 0701). Plaintext never reaches the store or the database.
import { randomBytes } from 'node:crypto';
import { PassThrough, Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Config } from '../../config.ts';
import { blobStoreFor } from '../../blobs/store.ts';
import { decryptStream, encryptStream, CorruptBlobError } from '../../crypto/chunked-gcm.ts';
import { unwrap, wrap, type MasterKey } from '../../crypto/key-wrap.ts';
import { AppError } from '../../http/errors.ts';

export interface SealedFile {
  blobKey: string;
  wrappedKey: string;
  sha256: string;
  size: number;
}

export const fileContext = (tenantId: string, reportId: string): string => `${tenantId}|${reportId}`;
export const keyContext = (tenantId: string, reportId: string): string => `report-file-key|${tenantId}|${reportId}`;
/** One key per upload: a losing concurrent completion removes its own blob, never the winner's. */
export const blobKeyOf = (tenantId: string, reportId: string): string => `reports/${tenantId}/${reportId}/${randomBytes(8).toString('hex')}`;

export const tooLarge = (maxBytes: number): AppError =>
  new AppError(413, 'payload_too_large', `The report file is larger than the limit of ${maxBytes} bytes (REPORT_MAX_BYTES).`);

/** Counts bytes on the way through and fails the stream once the limit is passed (for bodies of unknown length). */
function limited(maxBytes: number): PassThrough {
  let seen = 0;
  return new PassThrough({
    transform(chunk: Buffer, _enc, callback) {
      seen += chunk.length;
      callback(seen > maxBytes ? tooLarge(maxBytes) : null, chunk);
    },
  });
}

/** Encrypts `plain` into the blob store. On any failure nothing is left behind under the report's key. */
export async function sealFile(
  config: Pick<Config, 'dataDir' | 's3' | 'reportMaxBytes'>,
  master: MasterKey,
  tenantId: string,
  reportId: string,
  plain: Readable,
): Promise<SealedFile> {
  const key = randomBytes(32);
  const encrypt = encryptStream(key, fileContext(tenantId, reportId));
  const store = blobStoreFor(config);
  const blobKey = blobKeyOf(tenantId, reportId);
  const sealed = new PassThrough();
  try {
    await Promise.all([pipeline(plain, limited(config.reportMaxBytes), encrypt, sealed), store.put(blobKey, sealed)]);
    const { sha256, size } = encrypt.result();
    return { blobKey, wrappedKey: wrap(master, key, keyContext(tenantId, reportId)), sha256, size };
  } catch (err) {
    sealed.destroy();
    await store.delete(blobKey).catch(() => undefined);
    // The multipart parser's own limit (busboy) surfaces as its error class.
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge(config.reportMaxBytes);
    // busboy's words for a multipart body that ends before its closing boundary: the client's fault, not ours.
    if (err instanceof Error && /Unexpected end of (form|file)|terminated early|Malformed/i.test(err.message)) {
      throw new AppError(400, 'malformed_request', 'The multipart body ended before its closing boundary.');
    }
    throw err;
  } finally {
    key.fill(0);
  }
}

/**
 * The decrypted file. The first chunk is opened before this resolves, so a tampered start is an error the caller can
 * still answer with problem+json; a later bad chunk errors the returned stream (the transfer is cut off).
 */
export async function openFile(
  config: Pick<Config, 'dataDir' | 's3'>,
  ring: readonly MasterKey[],
  report: { tenantId: string; id: string; blobKey: string; wrappedKey: string },
): Promise<Readable> {
  let key: Buffer;
  try {
    key = unwrap(ring, report.wrappedKey, keyContext(report.tenantId, report.id));
  } catch (err) {
    throw new CorruptBlobError(`the file key does not open: ${(err as Error).message}`, 0);
  }
  const blob = await blobStoreFor(config).get(report.blobKey);
  if (!blob) throw new CorruptBlobError('the encrypted file is missing from the blob store', 0);
  const plain = blob.pipe(decryptStream(key, fileContext(report.tenantId, report.id)));
  blob.on('error', (err) => plain.destroy(err));
  // pipe() does not pass a destroy upstream: a client that goes away must release the file handle or socket too.
  plain.on('close', () => blob.destroy());
  // Wait for the first authenticated bytes (or the end of an empty file) before anything is sent.
  const chunks = plain[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const first = await chunks.next();
  return Readable.from(
    (async function* () {
      try {
        if (first.done) return;
        yield first.value;
        for (let next = await chunks.next(); !next.done; next = await chunks.next()) yield next.value;
      } finally {
        // A client that goes away ends the generator early: release the blob's file handle or socket too.
        await chunks.return?.();
      }
    })(),
    { objectMode: false },
  );
}
