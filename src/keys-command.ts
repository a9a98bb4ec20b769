// `tourbook keys generate`: prints a new master key. `tourbook keys rotate --new-key <base64>`: seals every report file
// key and webhook secret again under a new master key without touching file bytes; resumable (run it again after an
// interruption). Operations guide: "Reports: keys, storage, backups".
import fs from 'node:fs';
import path from 'node:path';
import { ConfigError, loadConfig } from './config.ts';
import { decodeMasterKey, forgetMasterKeys, generateMasterKey, masterKeyFile, masterKeyRingFor, nextMasterKeyFile } from './crypto/master-key.ts';
import type { MasterKey } from './crypto/key-wrap.ts';
import type { Deps } from './deps.ts';
import { rewrapReportKeys, type RewrapOptions } from './modules/reports/index.ts';
import { resealWebhookSecrets } from './modules/webhooks/index.ts';
import { rewrapProofKeys } from './modules/dispatch/index.ts';
import { createRuntime } from './runtime.ts';

function writeKeyFile(file: string, key: MasterKey): void {
  const temp = `${file}.${process.pid}.tmp`;
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  fs.writeFileSync(temp, `${key.key.toString('base64')}\n`, { mode: 0o600 });
  fs.renameSync(temp, file);
}

/**
 * The rotation itself. Embedded, the new key is first written next to the current one (so a process started before
 * the rotation ends can open rows already re-sealed), and replaces it once every row is done.
 */
export async function rotateMasterKey(deps: Deps, next: MasterKey, options: RewrapOptions = {}): Promise<{ reports: number; webhooks: number; proofs?: number; finished: boolean }> {
  const { config } = deps;
  const embedded = !config.databaseUrl && !config.reportsMasterKey;
  if (embedded) writeKeyFile(nextMasterKeyFile(config.dataDir), next);
  const ring = masterKeyRingFor(config);
  if (!ring.length) throw new ConfigError('keys rotate needs the current key: set REPORTS_MASTER_KEY');
  const reports = await rewrapReportKeys(deps, ring, next, options);
  if (options.stopAfter !== undefined && reports >= options.stopAfter) return { reports, webhooks: 0, finished: false };
  const webhooks = await resealWebhookSecrets(deps, ring, next);
  // Proof of delivery images' keys (decision 1250).
  const proofs = await rewrapProofKeys(deps, ring, next);
  if (embedded) {
    writeKeyFile(masterKeyFile(config.dataDir), next);
    fs.rmSync(nextMasterKeyFile(config.dataDir), { force: true });
    forgetMasterKeys();
  }
  return { reports, webhooks, proofs, finished: true };
}

/** A new base64 256-bit key on stdout, alone on its line (`REPORTS_MASTER_KEY=$(npx tourbook keys generate)`). */
export function keysGenerate(): void {
  process.stdout.write(`${generateMasterKey()}\n`);
}

export async function keysRotate(values: { 'new-key'?: string }): Promise<void> {
  if (!values['new-key']) throw new ConfigError('keys rotate needs --new-key (a base64-encoded 256-bit key, e.g. `openssl rand -base64 32`)');
  let next: MasterKey;
  try {
    next = decodeMasterKey(values['new-key']);
  } catch (err) {
    throw new ConfigError(`--new-key: ${(err as Error).message}`);
  }
  const config = loadConfig();
  const runtime = await createRuntime(config, { migrate: !config.databaseUrl });
  try {
    const result = await rotateMasterKey(runtime.deps, next);
    console.log(`Re-sealed ${result.reports} report file keys, ${result.webhooks} webhook subscriptions and ${result.proofs ?? 0} proof file keys under key ${next.id}.`);
    if (config.databaseUrl || config.reportsMasterKey) {
      console.log('Now set REPORTS_MASTER_KEY to the new key on every process and drop the old one from REPORTS_ACCEPTED_MASTER_KEYS.');
    } else {
      console.log(`The new key replaced ${masterKeyFile(config.dataDir)}.`);
    }
  } finally {
    await runtime.close();
  }
}
