// The database handle: Drizzle over embedded PGlite or a PostgreSQL server pool, one type for both.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite, types } from '@electric-sql/pglite';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { lostRace } from './errors.ts';
import { preparedStatements } from './pglite-statements.ts';
import { queryRows } from './sql.ts';
import * as schema from './schema.ts';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** Either the database or an open transaction: repositories accept both. */
export type Queryable = Db | Tx;

/** A transaction has rollback(); the database handle does not. */
export const isTransaction = (q: Queryable): q is Tx => 'rollback' in q;

/** What a migration run reports before it starts: `pending` of `total` migrations, by tag. */
export type MigrationProgress = (pending: string[], total: number) => void;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Applies the pending migrations (drizzle runs them in one transaction); returns how many it applied. */
  migrate(onStart?: MigrationProgress): Promise<number>;
  close(): Promise<void>;
  /** The PGlite instance (embedded only), for dumps in tests. */
  pglite?: PGlite;
  pool?: pg.Pool;
  /** Connections past a transaction pooler, for LISTEN (decision 1450); unset: `pool` is direct. */
  directPool?: pg.Pool;
  /** Transactions run again since open because PostgreSQL rolled them back to break a deadlock (decision 0007). */
  lostRaces(): number;
}

/** The checked-in migrations, found upwards from this file: src/db/ when run from source, dist/chunks/ when built. */
export const MIGRATIONS_DIR = findMigrationsDir(path.dirname(fileURLToPath(import.meta.url)));

function findMigrationsDir(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'migrations');
    if (fs.existsSync(path.join(candidate, 'meta', '_journal.json'))) return candidate;
    if (path.dirname(dir) === dir) throw new Error(`No migrations/ folder above ${from}`);
  }
}

/**
 * The tags of the migrations the database still lacks. Drizzle applies every migration newer than the last one it
 * recorded, so the same rule counts them here (for start-up progress).
 */
async function pendingMigrations(db: Db): Promise<{ pending: string[]; total: number }> {
  const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS_DIR, 'meta', '_journal.json'), 'utf8')) as { entries: { tag: string; when: number }[] };
  const [exists] = await queryRows<{ present: boolean }>(db, sql`SELECT to_regclass('drizzle.__drizzle_migrations') IS NOT NULL AS present`);
  let last = -Infinity;
  if (exists?.present) {
    const [row] = await queryRows<{ at: string | number | null }>(db, sql`SELECT max(created_at) AS at FROM drizzle.__drizzle_migrations`);
    if (row?.at !== null && row?.at !== undefined) last = Number(row.at);
  }
  return { pending: journal.entries.filter((entry) => entry.when > last).map((entry) => entry.tag), total: journal.entries.length };
}

async function runMigrations(db: Db, apply: () => Promise<void>, onStart?: MigrationProgress): Promise<number> {
  const { pending, total } = await pendingMigrations(db);
  if (pending.length === 0) return 0;
  onStart?.(pending, total);
  await apply();
  return pending.length;
}

// Timestamps and bigints come back as JS values the same way on both drivers.
pg.types.setTypeParser(20, (v) => Number(v));

/** Runs of a transaction that lost a deadlock or serialization race, before its error is answered. */
const TRANSACTION_ATTEMPTS = 3;

/**
 * Transactions that PostgreSQL rolled back because they lost a race with another (a deadlock, a serialization
 * failure) run again: nothing of them was kept, and their side effects (events, jobs) live inside them. Only the
 * outermost transaction is retried; a savepoint's failure reaches it.
 */
function retryLostRaces(db: Db): () => number {
  const transaction = db.transaction.bind(db);
  // Counted so that tests can tell "waited for the lock" from "deadlocked and ran again".
  let lost = 0;
  db.transaction = (async (fn: Parameters<Db['transaction']>[0], config?: Parameters<Db['transaction']>[1]) => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await transaction(fn, config);
      } catch (err) {
        if (attempt >= TRANSACTION_ATTEMPTS || !lostRace(err)) throw err;
        lost++;
      }
    }
  }) as Db['transaction'];
  return () => lost;
}

/** How long a connection attempt and a query may take before the request answers 503 instead (decision 1400). */
export interface PoolTimeouts {
  connectTimeoutMs: number;
  queryTimeoutMs: number;
}

export const DEFAULT_POOL_TIMEOUTS: PoolTimeouts = { connectTimeoutMs: 5_000, queryTimeoutMs: 30_000 };

/** How a PostgreSQL server is reached: through a transaction pooler (PgBouncer) and a direct URL beside it (decision 1450). */
export interface PostgresOptions {
  directUrl?: string | null;
  transactionPooler?: boolean;
}

/**
 * A transaction pooler hands each transaction to any server connection, where a statement named on another one does
 * not exist (PgBouncer 1.18 does not track them): every statement goes unnamed, parsed per run (decision 1450).
 */
function unnamedStatements(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  const unnamed = (config: unknown, ...rest: unknown[]) =>
    query(config !== null && typeof config === 'object' && Object.getPrototypeOf(config) === Object.prototype && 'name' in config ? { ...config, name: undefined } : config, ...rest);
  client.query = unnamed as typeof client.query;
}

export function openPostgres(url: string, poolSize = 20, timeouts: PoolTimeouts = DEFAULT_POOL_TIMEOUTS, options: PostgresOptions = {}): Database {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    // Also bounds the wait for a free connection: a saturated or unreachable server is a 503 after it, never a hang.
    connectionTimeoutMillis: timeouts.connectTimeoutMs,
    // Client-side, so it holds through PgBouncer (which refuses startup parameters such as statement_timeout).
    query_timeout: timeouts.queryTimeoutMs,
    // A primary that vanished without closing its sockets (a host lost, a partition) is noticed by TCP.
    keepAlive: true,
  });
  // An idle client's error (server restart) must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  // Nor may a checked-out client's, between two statements of a transaction (the pool listens only to idle ones):
  // its next statement fails ("not queryable", a 503), and the pool drops it on release (decisions 1400, 1450).
  pool.on('connect', (client) => client.on('error', () => undefined));
  if (options.transactionPooler) pool.on('connect', unnamedStatements);
  const directPool = options.directUrl
    ? new pg.Pool({ connectionString: options.directUrl, max: 2, connectionTimeoutMillis: timeouts.connectTimeoutMs, keepAlive: true })
    : undefined;
  directPool?.on('error', () => undefined);
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  const lostRaces = retryLostRaces(db);
  return {
    lostRaces,
    db,
    kind: 'postgres',
    pool,
    ...(directPool ? { directPool } : {}),
    migrate: (onStart) => runMigrations(db, () => migratePg(db as never, { migrationsFolder: MIGRATIONS_DIR }), onStart),
    close: async () => {
      await pool.end();
      await directPool?.end();
    },
  };
}

const asText = (value: unknown) => value;

/**
 * The parsers Drizzle passes with every PGlite query: these types come back as text, and Drizzle maps them itself. The
 * instance is created with them; the per-query copies are ignored (see pglite-statements.ts).
 */
const DRIZZLE_PGLITE_PARSERS = Object.fromEntries(
  [types.TIMESTAMP, types.TIMESTAMPTZ, types.INTERVAL, types.DATE, 1231, 1115, 1185, 1187, 1182].map((oid) => [oid, asText]),
);

/**
 * PostgreSQL's shared buffer pool inside PGlite. Its default, 128 MB, is zeroed page by page at every open (a third
 * of a restart's CPU); an embedded database's data stays in the operating system's file cache anyway, so a smaller
 * pool costs a read call on a miss, not a disk read (decision 0136).
 */
const PGLITE_SHARED_BUFFERS = '32MB';

export async function openPglite(options: { dataDir?: string; loadDataDir?: Blob } = {}): Promise<Database> {
  const client = await PGlite.create({
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
    startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${PGLITE_SHARED_BUFFERS}`],
    parsers: DRIZZLE_PGLITE_PARSERS,
  });
  preparedStatements(client);
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    // One session: nothing ever deadlocks.
    lostRaces: () => 0,
    pglite: client,
    migrate: (onStart) => runMigrations(db, () => migratePglite(db as never, { migrationsFolder: MIGRATIONS_DIR }), onStart),
    close: () => client.close(),
  };
}

/**
 * PGlite allows one process per data directory; a second one silently loses writes.
 * The lock file holds the owner's pid and is taken with O_EXCL; a stale lock (dead pid) is replaced.
 */
export function acquireDataDirLock(dataDir: string): () => void {
  fs.mkdirSync(dataDir, { recursive: true });
  const lockPath = path.join(dataDir, 'tourbook.lock');
  const tryTake = (): boolean => {
    try {
      fs.writeFileSync(lockPath, String(process.pid), { flag: 'wx' });
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      return false;
    }
  };
  if (!tryTake()) {
    const owner = Number(fs.readFileSync(lockPath, 'utf8').trim());
    if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && isAlive(owner)) {
      throw new Error(
        `Another Tourbook process (pid ${owner}) is using the embedded database in ${dataDir}. ` +
          'Stop it first, or point DATABASE_URL at a PostgreSQL server to run several processes.',
      );
    }
    fs.rmSync(lockPath, { force: true });
    if (!tryTake()) throw new Error(`Could not take the lock ${lockPath}`);
  }
  return () => fs.rmSync(lockPath, { force: true });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
