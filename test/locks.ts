// Interleaving requests with a session that holds row locks (PostgreSQL only: PGlite has one session).
import type pg from 'pg';

/** Polls until `count` sessions of this database wait for a lock: the requests under test have reached it. */
export async function waitUntilSomeoneWaitsForALock(pool: pg.Pool, count = 1): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const { rows } = await pool.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
    );
    if (rows[0]!.n >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('no request came to wait for the lock');
}
