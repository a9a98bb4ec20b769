// Read replicas (decision 1401): heavy reads (lists, the event log, report listings, position history) may go to a
// streaming replica that is within the lag bound and has replayed the caller's last write (its LSN token); every
// other statement, and every read the replicas cannot serve, goes to the primary.
import { AsyncLocalStorage } from 'node:async_hooks';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { openPostgres, type Database, type Db, type PoolTimeouts } from './client.ts';
import { queryRows } from './sql.ts';

/** A write-ahead log position, `16/B374D848` as PostgreSQL prints it. */
export const LSN_RE = /^[0-9A-Fa-f]{1,8}\/[0-9A-Fa-f]{1,8}$/;

export const parseLsn = (text: string): bigint => {
  const [high = '0', low = '0'] = text.split('/');
  return (BigInt(`0x${high}`) << 32n) + BigInt(`0x${low}`);
};

export interface ReadRouter {
  /** A replica that may serve a read needing at least `minLsn` (null: no write to wait for), or null: the primary. */
  pick(minLsn: bigint | null): Db | null;
  /** The primary's current WAL position: at least the commit of every transaction committed before the call. */
  primaryLsn(): Promise<string>;
  /** Reads so far by where they went (tests, metrics). */
  counts: { primary: number; replica: number };
  close(): Promise<void>;
}

interface ReplicaState {
  database: Database;
  /** Replayed up to here at the last check; null while unknown, unreachable, or no longer a standby. */
  lsn: bigint | null;
  lagSeconds: number;
  checkedAt: number;
}

/** How often each replica's replay position is read; a state older than three of these is not trusted. */
const POLL_MS = 250;

export function createReadRouter(
  primary: Db,
  urls: string[],
  options: { maxLagSeconds: number; timeouts: PoolTimeouts; log: FastifyBaseLogger },
): ReadRouter {
  const replicas: ReplicaState[] = urls.map((url) => ({ database: openPostgres(url, 10, options.timeouts), lsn: null, lagSeconds: Infinity, checkedAt: 0 }));
  const counts = { primary: 0, replica: 0 };
  let next = 0;
  let polling = false;

  const primaryLsn = async (): Promise<string> => {
    const [row] = await queryRows<{ lsn: string }>(primary, sql`SELECT pg_current_wal_lsn()::text AS lsn`);
    return row!.lsn;
  };

  /**
   * The primary's position is read first: a replica that has replayed it had nothing older to replay (lag 0).
   * Otherwise its lag is the age of the last transaction it replayed, which overstates it on a quiet primary (safe).
   */
  async function poll(): Promise<void> {
    if (polling) return;
    polling = true;
    try {
      const before = await primaryLsn().then(parseLsn, () => null);
      await Promise.all(
        replicas.map(async (replica) => {
          try {
            const [row] = await queryRows<{ lsn: string | null; lag: number | null }>(
              replica.database.db,
              sql`SELECT pg_last_wal_replay_lsn()::text AS lsn, EXTRACT(EPOCH FROM now() - pg_last_xact_replay_timestamp())::float8 AS lag`,
            );
            // A promoted replica (no replay position) is a primary of its own now: never read from it.
            replica.lsn = row?.lsn ? parseLsn(row.lsn) : null;
            replica.lagSeconds = replica.lsn !== null && before !== null && replica.lsn >= before ? 0 : (row?.lag ?? Infinity);
            replica.checkedAt = Date.now();
          } catch {
            replica.lsn = null;
          }
        }),
      );
    } finally {
      polling = false;
    }
  }

  const timer = setInterval(() => void poll().catch((err: unknown) => options.log.warn({ err }, 'replicas: poll failed')), POLL_MS);
  timer.unref();
  void poll();

  return {
    counts,
    primaryLsn,
    pick(minLsn) {
      const fresh = Date.now() - 3 * POLL_MS;
      for (let i = 0; i < replicas.length; i++) {
        const replica = replicas[(next + i) % replicas.length]!;
        if (replica.lsn === null || replica.checkedAt < fresh || replica.lagSeconds > options.maxLagSeconds) continue;
        if (minLsn !== null && replica.lsn < minLsn) continue;
        next = (next + i + 1) % replicas.length;
        counts.replica++;
        return replica.database.db;
      }
      counts.primary++;
      return null;
    },
    async close() {
      clearInterval(timer);
      await Promise.all(replicas.map((replica) => replica.database.close()));
    },
  };
}

/** The consistency a request asked for: the LSN of the caller's last write it carried (header or cookie), if any. */
export const readConsistency = new AsyncLocalStorage<{ minLsn: bigint | null }>();

/**
 * Where a heavy read of this request goes: a replica when one may serve it (decision 1401), else the primary. Only
 * for statements that read; a write through it would fail on a standby (25006).
 */
export function readDb(deps: { db: Db; replicas?: ReadRouter | undefined }): Db {
  if (!deps.replicas) return deps.db;
  return deps.replicas.pick(readConsistency.getStore()?.minLsn ?? null) ?? deps.db;
}
