// The blob store interface: put a stream, get a stream, delete — and the one store the configuration selects.
import type { Readable } from 'node:stream';
import type { Config } from '../config.ts';
import { localBlobStore } from './local.ts';
import { s3BlobStore } from './s3.ts';

export interface BlobStore {
  /** Stores the stream's bytes under `key` (replacing any earlier blob); resolves with the byte count once durable. */
  put(key: string, body: Readable): Promise<{ size: number }>;
  /** The blob's bytes, or null when there is none under `key`. */
  get(key: string): Promise<Readable | null>;
  /** Removes the blob; removing an absent blob is not an error (expiry may run twice). */
  delete(key: string): Promise<void>;
}

export { assertBlobKey } from './keys.ts';

const stores = new Map<string, BlobStore>();

/** One store per configuration (S3 clients keep their signer; the local store its directory). */
export function blobStoreFor(config: Pick<Config, 'dataDir' | 's3'>): BlobStore {
  const cacheKey = config.s3 ? `s3|${config.s3.endpoint}|${config.s3.bucket}|${config.s3.accessKeyId}` : `local|${config.dataDir}`;
  let store = stores.get(cacheKey);
  if (!store) {
    store = config.s3 ? s3BlobStore(config.s3, config.dataDir) : localBlobStore(config.dataDir);
    stores.set(cacheKey, store);
  }
  return store;
}
