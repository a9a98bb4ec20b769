// Runtime assembly: the message catalogs (src/messages.ts), the logger, the configured database (opened, seeded and
// migrated), and the Deps object.
import fs from 'node:fs';
import path from 'node:path';
import { pino, type LoggerOptions } from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.ts';
import { acquireDataDirLock, MIGRATIONS_DIR, openPglite, openPostgres, type Database } from './db/client.ts';
import { createReadRouter } from './db/replicas.ts';
import { backfillPlaceAddressKeys } from './modules/places/index.ts';
import { wireHooks } from './hooks.ts';
import { useTourbookMessages } from './messages.ts';
import { createSolverPool } from './optimizer/index.ts';
import { closeSmsGateways } from './sms/index.ts';
import type { Deps } from './deps.ts';
import type { Clock } from './shared/clock.ts';
import { systemClock } from './shared/clock.ts';

export interface Runtime {
  deps: Deps;
  /** How many migrations this start applied. */
  migrated: number;
  close(): Promise<void>;
}

/** Fields a terminal reader does not need: the request line's fields are in its message already. */
const PRETTY_HIDDEN = 'pid,hostname,reqId,method,route,status,ms,request_id';

/**
 * Human-readable lines on a terminal, JSON lines otherwise (LOG_FORMAT overrides). pino-pretty is loaded only for a
 * terminal and runs in this thread, so nothing is lost when the process exits at once.
 */
export async function createLogger(config: Config, fd: 1 | 2 = 1): Promise<FastifyBaseLogger> {
  const tty = fd === 1 ? process.stdout.isTTY : process.stderr.isTTY;
  const pretty = config.logFormat === 'pretty' || (config.logFormat === 'auto' && tty);
  const options: LoggerOptions<never> = { level: config.logLevel };
  if (!pretty) return pino(options, pino.destination({ fd, sync: true }));
  const { default: pinoPretty } = await import('pino-pretty');
  const stream = pinoPretty({ destination: fd, sync: true, colorize: tty, translateTime: 'SYS:HH:MM:ss', ignore: PRETTY_HIDDEN });
  return pino(options, stream);
}

/** Where the embedded database lives, for messages. */
export const describeDatabase = (config: Config): string =>
  config.databaseUrl ? `the PostgreSQL database at ${redactUrl(config.databaseUrl)}` : `the embedded database in ${path.join(config.dataDir, 'pglite')}`;

function redactUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}

/**
 * The embedded data directory prepared at build time (dist/pglite-seed/, every migration applied). A new data directory
 * starts as a plain copy of it instead of running initdb, the slowest part of a first start (decision 0135). It is used
 * only when its migrations are a prefix of the checked-in ones; later migrations are applied on top as usual.
 */
function preparedSeed(): string | null {
  const dist = path.join(path.dirname(MIGRATIONS_DIR), 'dist');
  try {
    const stamp = JSON.parse(fs.readFileSync(path.join(dist, 'pglite-seed.json'), 'utf8')) as { tags?: string[] };
    const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS_DIR, 'meta', '_journal.json'), 'utf8')) as { entries: { tag: string }[] };
    const tags = stamp.tags ?? [];
    if (tags.length > journal.entries.length || tags.some((tag, i) => journal.entries[i]?.tag !== tag)) return null;
    const seed = path.join(dist, 'pglite-seed');
    return fs.existsSync(path.join(seed, 'PG_VERSION')) ? seed : null;
  } catch {
    return null;
  }
}

/**
 * Copies the seed next to the data directory, then renames it into place: an interrupted copy never looks like a
 * database (a data directory that exists is opened as one).
 */
function copySeed(seed: string, dataDir: string): void {
  const partial = `${dataDir}.partial`;
  fs.rmSync(partial, { recursive: true, force: true });
  // A copy-on-write clone where the file system offers one (Btrfs, XFS, APFS), a plain copy elsewhere.
  fs.cpSync(seed, partial, { recursive: true, mode: fs.constants.COPYFILE_FICLONE });
  fs.rmSync(dataDir, { recursive: true, force: true }); // absent or empty here
  fs.renameSync(partial, dataDir);
}

const isEmptyDir = (dir: string) => !fs.existsSync(dir) || fs.readdirSync(dir).length === 0;

export async function openDatabase(
  config: Config,
  options: { migrate: boolean; log?: FastifyBaseLogger },
): Promise<{ database: Database; release: () => void; migrated: number }> {
  const started = performance.now();
  const log = options.log;
  const migrate = async (database: Database) => {
    const applied = await database.migrate((pending, total) =>
      log?.info(`Migrating: ${pending.length} of ${total} migrations to apply (${pending.join(', ')})`),
    );
    if (applied > 0) log?.info(`Migrated: ${applied}/${applied} applied`);
    return applied;
  };
  if (config.databaseUrl) {
    log?.info(`Opening ${describeDatabase(config)}`);
    const database = openPostgres(config.databaseUrl, 20, config.database, { directUrl: config.databaseDirectUrl, transactionPooler: config.databaseTransactionPooler });
    const migrated = options.migrate ? await migrate(database) : 0;
    return { database, release: () => undefined, migrated };
  }
  const release = acquireDataDirLock(config.dataDir);
  try {
    const dataDir = path.join(config.dataDir, 'pglite');
    const fresh = isEmptyDir(dataDir);
    const seed = fresh ? preparedSeed() : null;
    log?.info(`Opening ${describeDatabase(config)}${fresh ? (seed ? ' (new: from the prepared database)' : ' (new: initialising)') : ''}`);
    if (seed) copySeed(seed, dataDir);
    const database = await openPglite({ dataDir });
    // The embedded database is always migrated on start: there is no separate deploy step.
    const migrated = await migrate(database);
    log?.info(`Database open (${Math.round(performance.now() - started)} ms)`);
    return { database, release, migrated };
  } catch (err) {
    release();
    throw err;
  }
}

export async function createRuntime(
  config: Config,
  options: { migrate: boolean; clock?: Clock; log?: FastifyBaseLogger; announce?: boolean },
): Promise<Runtime> {
  useTourbookMessages();
  const log = options.log ?? pino({ level: config.logLevel });
  const { database, release, migrated } = await openDatabase(config, { migrate: options.migrate, ...(options.announce ? { log } : {}) });
  const deps: Deps = { db: database.db, database, clock: options.clock ?? systemClock, config, log, hooks: wireHooks(), optimizer: createSolverPool(config.optimizerThreads) };
  // Places stored before their address key existed get it now (decision 1505); nothing to do on later starts.
  if (migrated > 0) await backfillPlaceAddressKeys(database.db);
  if (config.databaseUrl && config.database.replicaUrls.length) {
    deps.replicas = createReadRouter(database.db, config.database.replicaUrls, { maxLagSeconds: config.database.replicaMaxLagSeconds, timeouts: config.database, log });
  }
  return {
    deps,
    migrated,
    close: async () => {
      // The worker's SMPP session is unbound before the database goes (decision 1783); its send jobs have stopped.
      await closeSmsGateways();
      await deps.replicas?.close();
      await deps.optimizer.close();
      await database.close();
      release();
    },
  };
}
