// Random tokens and their hashes: credentials are shown once and stored only as SHA-256.
import { createHash, randomBytes, randomInt, scrypt, timingSafeEqual } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export function randomBase62(length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += BASE62[randomInt(62)];
  return out;
}

export const sha256Hex = (value: string | Buffer): string => createHash('sha256').update(value).digest('hex');

/** scrypt's cost parameters; `N = 2 ** logN`. Stored with every hash so they can be raised later. */
export interface ScryptParams {
  logN: number;
  r: number;
  p: number;
}

/** OWASP's Password Storage Cheat Sheet (2025): N = 2^17 (128 MiB), r = 8, p = 1 (decision 0113). */
export const SCRYPT_DEFAULT: ScryptParams = { logN: 17, r: 8, p: 1 };
/** Hashes written before parameters were stored (`scrypt$<salt>$<key>`) used Node's defaults. */
const SCRYPT_LEGACY: ScryptParams = { logN: 14, r: 8, p: 1 };

const scryptAsync = (password: string, salt: Buffer, keylen: number, params: ScryptParams): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const N = 2 ** params.logN;
    // scrypt needs 128·N·r bytes; Node's default ceiling (32 MiB) is below the recommended cost.
    const maxmem = 128 * N * params.r + 16 * 1024 * 1024;
    scrypt(password, salt, keylen, { N, r: params.r, p: params.p, maxmem }, (err, key) => (err ? reject(err) : resolve(key)));
  });

/** scrypt hash encoded as `scrypt$ln=<log2 N>,r=<r>,p=<p>$<salt b64>$<key b64>` (PHC-style parameters). */
export async function hashPassword(password: string, params: ScryptParams = SCRYPT_DEFAULT): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(password, salt, 64, params);
  return `scrypt$ln=${params.logN},r=${params.r},p=${params.p}$${salt.toString('base64')}$${key.toString('base64')}`;
}

/** The parameters a stored hash was made with, or null when it is not one of ours. */
export function hashParams(stored: string): ScryptParams | null {
  const parts = stored.split('$');
  if (parts[0] !== 'scrypt') return null;
  if (parts.length === 3) return SCRYPT_LEGACY;
  const match = /^ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})$/.exec(parts[1] ?? '');
  if (parts.length !== 4 || !match) return null;
  const params = { logN: Number(match[1]), r: Number(match[2]), p: Number(match[3]) };
  // A corrupted or hostile row must not make one sign-in allocate gigabytes.
  return params.logN >= 10 && params.logN <= 20 && params.r >= 1 && params.r <= 32 && params.p >= 1 && params.p <= 16 ? params : null;
}

/** Whether a stored hash is legacy or costs less than `target` and should be rewritten at the next successful sign-in. */
export function needsRehash(stored: string, target: ScryptParams = SCRYPT_DEFAULT): boolean {
  const params = hashParams(stored);
  // Legacy hashes (parameters not stored) are rewritten whatever their cost, so every hash says how it was made.
  return !params || stored.split('$').length === 3 || params.logN < target.logN || params.r < target.r || params.p < target.p;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const params = hashParams(stored);
  const parts = stored.split('$');
  const [saltB64, keyB64] = parts.slice(-2);
  if (!params || !saltB64 || !keyB64) return false;
  const expected = Buffer.from(keyB64, 'base64');
  if (expected.length < 16) return false;
  const actual = await scryptAsync(password, Buffer.from(saltB64, 'base64'), expected.length, params);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
