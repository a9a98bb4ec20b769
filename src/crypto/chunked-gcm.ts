// Chunked AES-256-GCM for files: constant memory at any size, each chunk authenticated on its own (decision 0701).
// Layout: "TBR1" then chunks of ≤ 64 KiB plaintext, each ciphertext followed by its 16-byte tag. The nonce is the chunk
// index (the key is random per file and never reused); the associated data binds the file's context (tenant, report),
// the chunk index and a final-chunk flag, so reordering, cutting at a chunk boundary or appending all fail to open.
import { createCipheriv, createDecipheriv, createHash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';

export const CHUNK_BYTES = 64 * 1024;
const TAG_BYTES = 16;
const MAGIC = Buffer.from('TBR1');

export class CorruptBlobError extends Error {
  constructor(
    message: string,
    /** Index of the chunk that failed to open (0 = nothing was released yet). */
    readonly chunk: number,
  ) {
    super(message);
  }
}

function nonceOf(index: number): Buffer {
  const nonce = Buffer.alloc(12);
  nonce.writeBigUInt64BE(BigInt(index), 4);
  return nonce;
}

function aadOf(context: string, index: number, final: boolean): Buffer {
  const tail = Buffer.alloc(9);
  tail.writeBigUInt64BE(BigInt(index), 0);
  tail[8] = final ? 1 : 0;
  return Buffer.concat([Buffer.from(`tourbook-file-v1\0${context}\0`), tail]);
}

/** The encrypted size of `plainBytes` bytes. */
export const encryptedSize = (plainBytes: number): number =>
  MAGIC.length + Math.max(1, Math.ceil(plainBytes / CHUNK_BYTES)) * TAG_BYTES + plainBytes;

/** Pieces held back until enough bytes arrive, without copying every incoming buffer. */
class Pending {
  private parts: Buffer[] = [];
  length = 0;
  push(chunk: Buffer): void {
    this.parts.push(chunk);
    this.length += chunk.length;
  }
  /** The first `n` bytes: a view when they lie in one piece (the common case), one copy of `n` bytes otherwise. */
  take(n: number): Buffer {
    const first = this.parts[0];
    if (first && first.length >= n) {
      const head = first.subarray(0, n);
      if (first.length === n) this.parts.shift();
      else this.parts[0] = first.subarray(n);
      this.length -= n;
      return head;
    }
    const head = Buffer.allocUnsafe(n);
    let filled = 0;
    while (filled < n) {
      const part = this.parts[0]!;
      const used = Math.min(part.length, n - filled);
      part.copy(head, filled, 0, used);
      filled += used;
      if (used === part.length) this.parts.shift();
      else this.parts[0] = part.subarray(used);
    }
    this.length -= n;
    return head;
  }
}

export interface EncryptResult {
  sha256: string;
  size: number;
}

/**
 * Encrypts a plaintext stream. A chunk is sealed only once more bytes follow it (or the input ends), so the last chunk
 * carries the final flag. `result()` gives the plaintext's SHA-256 and size once the stream has ended.
 */
export function encryptStream(key: Buffer, context: string): Transform & { result(): EncryptResult } {
  const hash = createHash('sha256');
  const pending = new Pending();
  let index = 0;
  let size = 0;
  let headerSent = false;
  let done: EncryptResult | null = null;
  const header = (stream: Transform): void => {
    if (!headerSent) stream.push(MAGIC);
    headerSent = true;
  };
  // Ciphertext and tag are pushed as they come (no concatenation: copies cost as much as the cipher here).
  const seal = (stream: Transform, plain: Buffer, final: boolean): void => {
    const cipher = createCipheriv('aes-256-gcm', key, nonceOf(index));
    cipher.setAAD(aadOf(context, index, final));
    index += 1;
    const body = cipher.update(plain);
    cipher.final(); // GCM has no block padding: final() yields nothing
    if (body.length) stream.push(body);
    stream.push(cipher.getAuthTag());
  };
  const stream = new Transform({
    transform(chunk: Buffer, _enc, callback: TransformCallback) {
      header(this);
      hash.update(chunk);
      size += chunk.length;
      pending.push(chunk);
      while (pending.length > CHUNK_BYTES) seal(this, pending.take(CHUNK_BYTES), false);
      callback();
    },
    flush(callback: TransformCallback) {
      header(this);
      seal(this, pending.take(pending.length), true);
      done = { sha256: hash.digest('hex'), size };
      callback();
    },
  });
  return Object.assign(stream, {
    result(): EncryptResult {
      if (!done) throw new Error('the encryption stream has not ended');
      return done;
    },
  });
}

/**
 * Decrypts an encrypted stream. Each chunk's plaintext is released only after its tag checks; any failure (tampered,
 * reordered, truncated, extended, wrong key or context) errors the stream with a CorruptBlobError.
 */
export function decryptStream(key: Buffer, context: string): Transform {
  const pending = new Pending();
  let index = 0;
  let headerSeen = false;
  const open = (sealed: Buffer, final: boolean): Buffer => {
    if (sealed.length < TAG_BYTES) throw new CorruptBlobError('truncated chunk', index);
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, nonceOf(index));
      decipher.setAAD(aadOf(context, index, final));
      decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
      const plain = decipher.update(sealed.subarray(0, sealed.length - TAG_BYTES));
      decipher.final(); // throws unless the tag checks; GCM yields no further bytes
      index += 1;
      return plain;
    } catch {
      throw new CorruptBlobError(`chunk ${index} failed authentication`, index);
    }
  };
  const sealedBytes = CHUNK_BYTES + TAG_BYTES;
  return new Transform({
    transform(chunk: Buffer, _enc, callback: TransformCallback) {
      try {
        pending.push(chunk);
        if (!headerSeen) {
          if (pending.length < MAGIC.length) return callback();
          if (!pending.take(MAGIC.length).equals(MAGIC)) throw new CorruptBlobError('not an encrypted report file', 0);
          headerSeen = true;
        }
        // A full-size chunk with more bytes behind it is not the last one.
        while (pending.length > sealedBytes) this.push(open(pending.take(sealedBytes), false));
        callback();
      } catch (err) {
        callback(err as Error);
      }
    },
    flush(callback: TransformCallback) {
      try {
        if (!headerSeen) throw new CorruptBlobError('not an encrypted report file', 0);
        this.push(open(pending.take(pending.length), true));
        callback();
      } catch (err) {
        callback(err as Error);
      }
    },
  });
}
