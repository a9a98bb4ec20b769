// The database goes away under a running server and comes back (issue 26, decision 1400): every request that needs
// it answers 503 problem+json with Retry-After within a bounded time, never 500 and never hanging; /healthz stays
// up, /readyz says not ready; a live stream stays open; the server recovers by itself. On a PostgreSQL cluster of the
// test's own (stopped and started with pg_ctl), so it runs with TEST_DATABASE_URL set; on PGlite it is skipped.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSse, type SseStream } from '../sse-client.ts';
import { pgClusterAvailable, startPgCluster, type PgCluster } from '../pg-cluster.ts';
import { migrate, newMasterKey, spawnServe, type ServeProcess } from '../serve-process.ts';

const TOKEN = 'tb_database_away_test_token_0123456789';
/** The bound the pool's timeouts give (connect 2 s, query 5 s) and then some for a busy machine. */
const BOUND_MS = 15_000;

describe.skipIf(!process.env.TEST_DATABASE_URL || !pgClusterAvailable())('the database stopped and started under a running server (PostgreSQL)', () => {
  let cluster: PgCluster;
  let server: ServeProcess;
  const auth = { authorization: `Bearer ${TOKEN}` };

  beforeAll(async () => {
    cluster = await startPgCluster();
    const admin = new pg.Client({ connectionString: cluster.url() });
    await admin.connect();
    await admin.query('CREATE DATABASE tourbook');
    await admin.end();
    migrate(cluster.url('tourbook'));
    server = await spawnServe({
      DATABASE_URL: cluster.url('tourbook'),
      REPORTS_MASTER_KEY: newMasterKey(),
      BLOB_DIR_SHARED: 'true',
      BOOTSTRAP_ADMIN_TOKEN: TOKEN,
      DATABASE_CONNECT_TIMEOUT_MS: '2000',
      DATABASE_QUERY_TIMEOUT_MS: '5000',
    });
    await server.waitReady();
  }, 120_000);

  afterAll(async () => {
    if (process.env.DEBUG_HA) console.log(server?.stdout(), server?.stderr());
    server?.kill('SIGKILL');
    await server?.exited;
    cluster?.destroy();
  });

  /** A request that must be answered within BOUND_MS (an abort would fail the test: that is a hang). */
  const send = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: { ...auth, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
      signal: AbortSignal.timeout(BOUND_MS),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, json: text.startsWith('{') ? (JSON.parse(text) as Record<string, unknown>) : null };
  };
  const newUser = (n: number) => ({ user: { name: `Away ${n}`, email: `away-${n}-${Date.now()}@example.com`, role: 'customer' } });

  it('answers 503 with Retry-After while it is away, keeps the stream open, and recovers without a restart', { timeout: 180_000 }, async () => {
    expect((await send('GET', '/api/users')).status).toBe(200);
    expect((await send('POST', '/api/users', newUser(1))).status).toBe(201);
    const stream: SseStream = await openSse(server.url, '/api/live', auth);
    expect(stream.status).toBe(200);
    let streamEnded = false;
    void stream.ended.then(() => (streamEnded = true));

    cluster.stop();

    // Reads, writes, and a request whose credential must be looked up: all 503 database_unavailable, none 500.
    for (const [method, path, body] of [
      ['GET', '/api/users', undefined],
      ['POST', '/api/users', newUser(2)],
      ['GET', '/api/organizations', undefined],
      ['GET', '/api/users', undefined],
    ] as const) {
      const answer = await send(method, path, body);
      expect(answer.status, `${method} ${path}`).toBe(503);
      expect(answer.headers.get('content-type')).toMatch(/application\/problem\+json/);
      expect(answer.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(answer.json).toMatchObject({ status: 503, error_code: 'database_unavailable' });
    }
    const unknownToken = await fetch(`${server.url}/api/users`, { headers: { authorization: 'Bearer tb_not_cached_anywhere_0123456789abcd' }, signal: AbortSignal.timeout(BOUND_MS) });
    expect(unknownToken.status).toBe(503);

    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    const readiness = await fetch(`${server.url}/readyz`, { signal: AbortSignal.timeout(BOUND_MS) });
    expect(readiness.status).toBe(503);
    expect(await readiness.json()).toMatchObject({ status: 'not_ready', checks: { database: { ok: false } } });

    cluster.start();

    // Recovery by itself: the pool reconnects; the same process answers again.
    await expect.poll(async () => (await send('GET', '/api/users')).status, { timeout: 30_000, interval: 250 }).toBe(200);
    expect((await send('POST', '/api/users', newUser(3))).status).toBe(201);
    await expect.poll(async () => (await fetch(`${server.url}/readyz`)).status, { timeout: 30_000 }).toBe(200);
    // The stream stayed open through the outage (or, had it closed, the client would reconnect on its retry hint).
    expect(streamEnded).toBe(false);
    stream.close();
    expect(server.child.exitCode).toBeNull();
    expect(server.stdout()).not.toMatch(/unhandled error/);
  });

  it('keeps a worker-only process running while the database is away, and resumes its work when it returns', { timeout: 180_000 }, async () => {
    const worker = await spawnServe({ DATABASE_URL: cluster.url('tourbook'), REPORTS_MASTER_KEY: newMasterKey(), BLOB_DIR_SHARED: 'true', DATABASE_CONNECT_TIMEOUT_MS: '2000' }, ['--role', 'worker']);
    try {
      await expect.poll(() => worker.stdout(), { timeout: 60_000, interval: 100 }).toMatch(/Ready: worker running/);
      cluster.stop();
      await expect.poll(() => worker.stdout(), { timeout: 30_000, interval: 100 }).toMatch(/worker paused/);
      // Long enough for every lane to sleep out a full backoff (5 s) with no database connection left open: the
      // moment a process with nothing else in its event loop would exit.
      await new Promise((resolve) => setTimeout(resolve, 12_000));
      expect(worker.child.exitCode, worker.stderr()).toBeNull();
      cluster.start();
      await expect.poll(() => worker.stdout(), { timeout: 60_000, interval: 250 }).toMatch(/worker resumed/);
      expect(worker.child.exitCode).toBeNull();
    } finally {
      worker.kill('SIGKILL');
      await worker.exited;
    }
  });
});
