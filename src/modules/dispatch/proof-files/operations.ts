// Proof images kept as files (decision 1250): checked and sealed before the writing transaction (no crypto or blob
// I/O under a tour's lock), recorded in it, removed again when it fails; read back decrypted; deleted past retention.
import type { Queryable } from '../../../db/client.ts';
import type { Deps } from '../../../deps.ts';
import { AppError, invalidFields, notFound, type FieldError } from '../../../http/errors.ts';
import { CorruptBlobError } from '../../../crypto/chunked-gcm.ts';
import { masterKeyFor, masterKeyRingFor } from '../../../crypto/master-key.ts';
import { newId } from '../../../shared/ids.ts';
import type { DeliveryProofInput } from '../bookings/index.ts';
import type { ProofFileKind, StoredProof } from '../tables.ts';
import { decodeProofImage, type ProofImageType } from './image-type.ts';
import * as repo from './repository.ts';
import { deleteProofBlob, openProof, proofKeyContext, sealProof, type SealedProof } from './sealed-proof.ts';
import { unwrap, wrap, type MasterKey } from '../../../crypto/key-wrap.ts';

export const PROOF_FILE_KINDS: readonly ProofFileKind[] = ['photo', 'signature'];

export interface PreparedProof {
  tenantId: string;
  stored: StoredProof;
  files: { kind: ProofFileKind; contentType: ProofImageType; sealed: SealedProof }[];
}

export type ProofOwner = { ownerKind: 'stop' | 'package'; ownerId: string };

const unavailable = () => new AppError(503, 'proof_storage_unavailable', 'Proof images cannot be stored: REPORTS_MASTER_KEY is not set.');

/**
 * Checks the proof's images from their bytes (422 on `/proof/photo` or `/proof/signature`, both reported at once) and
 * seals them into the blob store. Nothing is written when a check fails.
 */
async function prepareProof(deps: Pick<Deps, 'config' | 'log'>, tenantId: string, input: DeliveryProofInput): Promise<PreparedProof> {
  const errors: FieldError[] = [];
  const images: { kind: ProofFileKind; bytes: Buffer; contentType: ProofImageType }[] = [];
  for (const kind of PROOF_FILE_KINDS) {
    const value = input[kind];
    if (value === undefined) continue;
    const decoded = decodeProofImage(value);
    if (decoded.ok) images.push({ kind, bytes: decoded.bytes, contentType: decoded.contentType });
    else errors.push({ pointer: `/proof/${kind}`, code: decoded.code, detail: decoded.detail });
  }
  if (errors.length) throw invalidFields(errors);
  const stored: StoredProof = {};
  if (input.recipient_name !== undefined) stored.recipient_name = input.recipient_name;
  if (input.note !== undefined) stored.note = input.note;
  if (!images.length) return { tenantId, stored, files: [] };
  const master = masterKeyFor(deps.config);
  if (!master) throw unavailable();
  const files: PreparedProof['files'] = [];
  try {
    for (const image of images) {
      const sealed = await sealProof(deps.config, master, tenantId, image.bytes);
      files.push({ kind: image.kind, contentType: image.contentType, sealed });
      stored[image.kind] = `sha256:${sealed.sha256}`;
    }
  } catch (err) {
    await discardProof(deps, { tenantId, stored, files });
    throw err;
  }
  stored.files = files.map((f) => f.kind);
  return { tenantId, stored, files };
}

/** Removes the blobs of a proof whose transaction did not commit. */
async function discardProof(deps: Pick<Deps, 'config' | 'log'>, prepared: PreparedProof | null): Promise<void> {
  for (const file of prepared?.files ?? []) {
    await deleteProofBlob(deps.config, file.sealed.blobKey).catch((err: Error) => deps.log.warn({ err: err.message, blob_key: file.sealed.blobKey }, 'a proof blob could not be removed'));
  }
}

/**
 * Runs `write` with the proof prepared (null without one): its files are checked and sealed first, and removed again
 * when `write` fails, so a refused completion leaves no blob behind.
 */
export async function withPreparedProof<T>(deps: Pick<Deps, 'config' | 'log'>, tenantId: string, input: DeliveryProofInput | undefined, write: (proof: PreparedProof | null) => Promise<T>): Promise<T> {
  const prepared = input ? await prepareProof(deps, tenantId, input) : null;
  try {
    return await write(prepared);
  } catch (err) {
    await discardProof(deps, prepared);
    throw err;
  }
}

/** In the writing transaction: one row per owner and image; the owners of one proof share its blobs. */
export async function recordProofFiles(q: Queryable, prepared: PreparedProof | null, owners: ProofOwner[], at: Date): Promise<void> {
  if (!prepared) return;
  await repo.insertProofFiles(
    q,
    owners.flatMap((owner) =>
      prepared.files.map((file) => ({
        tenantId: prepared.tenantId,
        id: newId(),
        ...owner,
        kind: file.kind,
        contentType: file.contentType,
        sizeBytes: file.sealed.size,
        sha256: file.sealed.sha256,
        blobKey: file.sealed.blobKey,
        wrappedKey: file.sealed.wrappedKey,
        createdAt: at,
      })),
    ),
  );
}

/** The proof as the wire shows it: the stored texts and fingerprints, and a link per image while its file is kept. */
export function proofView(stored: StoredProof, urlOf: (kind: ProofFileKind) => string) {
  const { files = [], deleted_at: deletedAt, ...given } = stored;
  const link = (kind: ProofFileKind) => (files.includes(kind) && !deletedAt ? urlOf(kind) : null);
  return { ...given, photo_url: link('photo'), signature_url: link('signature'), deleted_at: deletedAt ?? null };
}

export interface ProofImage {
  bytes: Buffer;
  contentType: string;
}

/**
 * The decrypted image of an owner: 404 when there is none (or no longer). It checks no access, by design: its three
 * doors decide who may see the owner before they call it — `getStopProofImage` (stops/read-stop.ts, `requireStop`),
 * `getPackageProofImage` (packages/operations.ts, `requirePackage`) and `readTrackingProofPhoto`
 * (tracking/operations.ts: the link's token, the recipient's own completed stop). A new caller brings its own door.
 */
export async function readProofImage(deps: Pick<Deps, 'db' | 'config' | 'log'>, tenantId: string, owner: ProofOwner, kind: ProofFileKind): Promise<ProofImage> {
  const row = await repo.findProofFile(deps.db, tenantId, owner.ownerKind, owner.ownerId, kind);
  if (!row || !row.blobKey || !row.wrappedKey || row.deletedAt) throw notFound('proof');
  try {
    const bytes = await openProof(deps.config, masterKeyRingFor(deps.config), { blobKey: row.blobKey, wrappedKey: row.wrappedKey });
    return { bytes, contentType: row.contentType };
  } catch (err) {
    if (!(err instanceof CorruptBlobError)) throw err;
    deps.log.error({ alert: 'proof_corrupt', tenant_id: tenantId, proof_file_id: row.id, err: err.message }, 'ALERT: a proof file failed authentication');
    throw new AppError(500, 'proof_corrupt', 'The stored proof file failed its integrity check; nothing of it was sent. Operators were alerted.');
  }
}

/** The headers of every proof image answer: never cached, never sniffed into another type, shown in place. */
export const proofImageHeaders = (image: ProofImage): Record<string, string> => ({
  'content-type': image.contentType,
  'content-length': String(image.bytes.length),
  'cache-control': 'private, no-store',
  'x-content-type-options': 'nosniff',
  'content-disposition': 'inline',
});

/** Files deleted per batch: each batch is one short transaction after its blobs are gone. */
export const PROOF_RETENTION_BATCH = 200;

/**
 * Deletes proof files stored more than PROOF_RETENTION_DAYS ago: blobs first, then the rows and the proofs that link
 * them say `deleted_at` (a run cut off in between deletes the same blobs again next time; absent blobs are fine).
 */
export async function deleteExpiredProofFiles(deps: Pick<Deps, 'db' | 'clock' | 'config'>): Promise<number> {
  const now = deps.clock.now();
  const cutoff = new Date(now.getTime() - deps.config.proofRetentionDays * 86_400_000);
  let total = 0;
  for (;;) {
    const batch = await repo.findProofFilesKeptBefore(deps.db, cutoff, PROOF_RETENTION_BATCH);
    if (!batch.length) return total;
    for (const blobKey of new Set(batch.map((r) => r.blobKey).filter((k): k is string => k !== null))) await deleteProofBlob(deps.config, blobKey);
    await deps.db.transaction((tx) => repo.markProofFilesDeleted(tx, batch, now));
    total += batch.length;
    if (batch.length < PROOF_RETENTION_BATCH) return total;
  }
}

/**
 * `tourbook keys rotate`: seals every kept proof file key again under `next` (file bytes untouched). Each row is one
 * compare-and-set, so a file that retention deleted meanwhile is skipped, and an interrupted run resumes.
 */
export async function rewrapProofKeys(deps: Pick<Deps, 'db'>, ring: readonly MasterKey[], next: MasterKey, batchSize = 200): Promise<number> {
  const keys = [...ring, next];
  let done = 0;
  let after: { tenantId: string; id: string } | null = null;
  for (;;) {
    const batch = await repo.proofFilesSealedOtherwise(deps.db, next.id, after, batchSize);
    if (!batch.length) return done;
    for (const row of batch) {
      after = row;
      if (!row.wrappedKey || !row.blobKey) continue;
      const key = unwrap(keys, row.wrappedKey, proofKeyContext(row.blobKey));
      try {
        if (await repo.replaceWrappedKey(deps.db, row.tenantId, row.id, row.wrappedKey, wrap(next, key, proofKeyContext(row.blobKey)))) done += 1;
      } finally {
        key.fill(0);
      }
    }
  }
}
