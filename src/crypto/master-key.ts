// The master (key-encryption) key: REPORTS_MASTER_KEY, or generated into DATA_DIR when embedded; a server deployment
// without the variable refuses to start (decision 0207).
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { ConfigError, type Config } from '../config.ts';
import { masterKeyOf, type MasterKey } from './key-wrap.ts';

/** Why `serve` stops on a server deployment without a key: one line, saying how to make one. */
export const MASTER_KEY_REQUIRED =
  'DATABASE_URL is set but REPORTS_MASTER_KEY is not: a server deployment stores webhook signing secrets and report files only sealed under it. Make one with `npx tourbook keys generate` (or `openssl rand -base64 32`) and set REPORTS_MASTER_KEY to it on every api and worker process.';

/**
 * Secrets are never stored in plain text (decision 0207): a server deployment needs REPORTS_MASTER_KEY to start; the
 * embedded one generates its key into DATA_DIR.
 */
export function requireMasterKey(config: Pick<Config, 'reportsMasterKey' | 'databaseUrl'>): void {
  if (config.databaseUrl && !config.reportsMasterKey) throw new ConfigError(MASTER_KEY_REQUIRED);
}

/** A new master key, base64 (`tourbook keys generate`). */
export const generateMasterKey = (): string => randomBytes(32).toString('base64');

export const MASTER_KEY_MISSING =
  'Reports are disabled: this server deployment (DATABASE_URL is set) has no REPORTS_MASTER_KEY. Set it to a base64-encoded 256-bit key (`openssl rand -base64 32`) on every api and worker process.';

/** Where the embedded deployment keeps its generated key. */
export const masterKeyFile = (dataDir: string): string => path.join(dataDir, 'keys', 'reports-master.key');

export function decodeMasterKey(base64: string): MasterKey {
  const key = Buffer.from(base64.trim(), 'base64');
  if (key.length !== 32) throw new Error('a master key must be a base64-encoded 256-bit key');
  return masterKeyOf(key);
}

/** Reads the key file, or creates it (mode 0600, exclusive so two starts cannot write different keys). */
function embeddedKey(dataDir: string): MasterKey {
  const file = masterKeyFile(dataDir);
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  try {
    fs.writeFileSync(file, `${generateMasterKey()}\n`, { mode: 0o600, flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  return decodeMasterKey(fs.readFileSync(file, 'utf8'));
}

const cache = new Map<string, MasterKey | null>();

/** The current master key, or null on a server deployment without REPORTS_MASTER_KEY. */
export function masterKeyFor(config: Pick<Config, 'reportsMasterKey' | 'databaseUrl' | 'dataDir'>): MasterKey | null {
  const cacheKey = `${config.reportsMasterKey ?? ''}|${config.databaseUrl ? 'server' : 'embedded'}|${config.dataDir}`;
  if (!cache.has(cacheKey)) {
    let key: MasterKey | null = null;
    if (config.reportsMasterKey) key = decodeMasterKey(config.reportsMasterKey);
    else if (!config.databaseUrl) key = embeddedKey(config.dataDir);
    cache.set(cacheKey, key);
  }
  return cache.get(cacheKey) ?? null;
}

/** Where an interrupted embedded rotation keeps the key it is rotating to (readable until the rotation ends). */
export const nextMasterKeyFile = (dataDir: string): string => path.join(dataDir, 'keys', 'reports-master.key.next');

/**
 * Every key that may open a sealed secret: the current one first, then REPORTS_ACCEPTED_MASTER_KEYS and, embedded,
 * the key of an unfinished rotation. Empty when there is no current key.
 */
export function masterKeyRingFor(config: Pick<Config, 'reportsMasterKey' | 'reportsAcceptedMasterKeys' | 'databaseUrl' | 'dataDir'>): MasterKey[] {
  const current = masterKeyFor(config);
  if (!current) return [];
  const ring = [current, ...config.reportsAcceptedMasterKeys.map(decodeMasterKey)];
  if (!config.databaseUrl && fs.existsSync(nextMasterKeyFile(config.dataDir))) {
    ring.push(decodeMasterKey(fs.readFileSync(nextMasterKeyFile(config.dataDir), 'utf8')));
  }
  return ring;
}

/** Forgets cached keys (after `keys rotate` replaced the embedded key file). */
export function forgetMasterKeys(): void {
  cache.clear();
}
