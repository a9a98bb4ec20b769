// Proof images at rest: sealed like report files (decision 0701) — a fresh key per image, wrapped by the master key,
// chunked AES-256-GCM into the blob store. The blob key names the tenant and a random id, and is the associated data,
// so a blob moved under another key or tenant does not open.
import { randomBytes } from 'node:crypto';
import { PassThrough, Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Config } from '../../../config.ts';
import { blobStoreFor } from '../../../blobs/store.ts';
import { decryptStream, encryptStream, CorruptBlobError } from '../../../crypto/chunked-gcm.ts';
import { unwrap, wrap, type MasterKey } from '../../../crypto/key-wrap.ts';

export interface SealedProof {
  blobKey: string;
  wrappedKey: string;
  sha256: string;
  size: number;
}

type StoreConfig = Pick<Config, 'dataDir' | 's3'>;

export const proofKeyContext = (blobKey: string): string => `proof-file-key|${blobKey}`;
const newBlobKey = (tenantId: string): string => `proofs/${tenantId}/${randomBytes(16).toString('hex')}`;

/** Encrypts the image into the blob store; on failure nothing is left under its key. */
export async function sealProof(config: StoreConfig, master: MasterKey, tenantId: string, bytes: Buffer): Promise<SealedProof> {
  const key = randomBytes(32);
  const blobKey = newBlobKey(tenantId);
  const store = blobStoreFor(config);
  const encrypt = encryptStream(key, blobKey);
  const sealed = new PassThrough();
  try {
    await Promise.all([pipeline(Readable.from([bytes]), encrypt, sealed), store.put(blobKey, sealed)]);
    const { sha256, size } = encrypt.result();
    return { blobKey, wrappedKey: wrap(master, key, proofKeyContext(blobKey)), sha256, size };
  } catch (err) {
    sealed.destroy();
    await store.delete(blobKey).catch(() => undefined);
    throw err;
  } finally {
    key.fill(0);
  }
}

/** The decrypted image, read whole (≤ 5 MiB): every chunk is authenticated before a byte is answered. */
export async function openProof(config: StoreConfig, ring: readonly MasterKey[], file: { blobKey: string; wrappedKey: string }): Promise<Buffer> {
  let key: Buffer;
  try {
    key = unwrap(ring, file.wrappedKey, proofKeyContext(file.blobKey));
  } catch (err) {
    throw new CorruptBlobError(`the proof key does not open: ${(err as Error).message}`, 0);
  }
  try {
    const blob = await blobStoreFor(config).get(file.blobKey);
    if (!blob) throw new CorruptBlobError('the encrypted proof is missing from the blob store', 0);
    const parts: Buffer[] = [];
    const collect = new PassThrough();
    collect.on('data', (chunk: Buffer) => parts.push(chunk));
    await pipeline(blob, decryptStream(key, file.blobKey), collect);
    return Buffer.concat(parts);
  } finally {
    key.fill(0);
  }
}

export const deleteProofBlob = (config: StoreConfig, blobKey: string): Promise<void> => blobStoreFor(config).delete(blobKey);
