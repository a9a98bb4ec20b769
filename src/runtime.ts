// Runtime assembly: opens the configured database, applies migrations, and builds the Deps object.
import path from 'node:path';
import pino from 'pino';
import type { Config } from './config.ts';
import { acquireDataDirLock, openPglite, openPostgres, type Database } from './db/client.ts';
import { wireHooks } from './hooks.ts';
import type { Deps } from './deps.ts';
import type { Clock } from './shared/clock.ts';
import { systemClock } from './shared/clock.ts';

export interface Runtime {
  deps: Deps;
  close(): Promise<void>;
}

export async function openDatabase(config: Config, options: { migrate: boolean }): Promise<{ database: Database; release: () => void }> {
  if (config.databaseUrl) {
    const database = openPostgres(config.databaseUrl);
    if (options.migrate) await database.migrate();
    return { database, release: () => undefined };
  }
  const release = acquireDataDirLock(config.dataDir);
  try {
    const database = await openPglite({ dataDir: path.join(config.dataDir, 'pglite') });
    // The embedded database is always migrated on start: there is no separate deploy step.
    await database.migrate();
    return { database, release };
  } catch (err) {
    release();
    throw err;
  }
}

export async function createRuntime(config: Config, options: { migrate: boolean; clock?: Clock }): Promise<Runtime> {
  const log = pino({ level: config.logLevel });
  const { database, release } = await openDatabase(config, options);
  const deps: Deps = { db: database.db, database, clock: options.clock ?? systemClock, config, log, hooks: wireHooks() };
  return {
    deps,
    close: async () => {
      await database.close();
      release();
    },
  };
}
