// Interleaving requests with a session that holds row locks (PostgreSQL only: PGlite has one session).
import type pg from 'pg';

/** Polls until a session of this database waits for a lock: the request under test has reached it. */
export async function waitUntilSomeoneWaitsForALock(pool: pg.Pool): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const { rows } = await pool.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
    );
    if (rows[0]!.n > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('no request came to wait for the lock');
}
