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

/**
 * Polls until `work` settles or `count` sessions wait for a lock: for a request that waits for a lock only where the
 * code under test is right (and, where it is wrong, runs through). `work` is still the caller's to await.
 */
export async function waitUntilSettledOrWaitingForALock(pool: pg.Pool, work: Promise<unknown>, count = 1): Promise<void> {
  let settled = false;
  work.then(
    () => (settled = true),
    () => (settled = true),
  );
  for (let i = 0; i < 200 && !settled; i++) {
    const { rows } = await pool.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
    );
    if (rows[0]!.n >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  if (!settled) throw new Error('the work neither finished nor came to wait for a lock');
}
