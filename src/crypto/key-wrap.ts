// Key wrapping: small secrets (a file's data key, a webhook secret) sealed with AES-256-GCM under a master key.
// The sealed form names the master key that sealed it, so a rotation can tell done rows from pending ones (decision 0701).
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const PREFIX = 'tbk1';

/** A master key with its public id (a hash prefix: safe to store next to what it seals). */
export interface MasterKey {
  id: string;
  key: Buffer;
}

export function masterKeyOf(key: Buffer): MasterKey {
  if (key.length !== 32) throw new Error('a master key is 256 bits');
  return { id: createHash('sha256').update('tourbook-master-key-id\0').update(key).digest('hex').slice(0, 16), key };
}

/** Seals `secret`; `context` (e.g. tenant and report ids) is bound as associated data and must be given again to open. */
export function wrap(master: MasterKey, secret: Buffer, context: string): string {
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', master.key, nonce);
  cipher.setAAD(Buffer.from(`${PREFIX}|${master.id}|${context}`));
  const sealed = Buffer.concat([nonce, cipher.update(secret), cipher.final(), cipher.getAuthTag()]);
  return `${PREFIX}.${master.id}.${sealed.toString('base64url')}`;
}

export const isWrapped = (value: string): boolean => value.startsWith(`${PREFIX}.`);

/** The id of the master key that sealed `wrapped`. */
export function wrappingKeyId(wrapped: string): string {
  const [prefix, id] = wrapped.split('.');
  if (prefix !== PREFIX || !id) throw new Error('not a wrapped key');
  return id;
}

/** Opens a sealed secret with whichever of `keys` sealed it; throws when none did, or on any tampering. */
export function unwrap(keys: readonly MasterKey[], wrapped: string, context: string): Buffer {
  const [prefix, id, body] = wrapped.split('.');
  if (prefix !== PREFIX || !id || !body) throw new Error('not a wrapped key');
  const master = keys.find((k) => k.id === id);
  if (!master) throw new Error(`sealed under master key ${id}, which is not configured`);
  const sealed = Buffer.from(body, 'base64url');
  if (sealed.length < 28) throw new Error('wrapped key too short');
  const decipher = createDecipheriv('aes-256-gcm', master.key, sealed.subarray(0, 12));
  decipher.setAAD(Buffer.from(`${PREFIX}|${master.id}|${context}`));
  decipher.setAuthTag(sealed.subarray(sealed.length - 16));
  return Buffer.concat([decipher.update(sealed.subarray(12, sealed.length - 16)), decipher.final()]);
}
