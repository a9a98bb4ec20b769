// Read replicas with read-your-writes (issue 26, decision 1401): a streaming replica of a PostgreSQL cluster of the
// test's own (pg_basebackup -R). With its replay paused, a list without a consistency token is served by the replica
// (stale within the lag bound: proof that reads go there), and a list carrying the token of the caller's last write
// is not (it shows the write). Runs with TEST_DATABASE_URL set; on PGlite it is skipped.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgClusterAvailable, startPgCluster, type PgCluster } from '../pg-cluster.ts';
import { migrate, newMasterKey, spawnServe, type ServeProcess } from '../serve-process.ts';

const TOKEN = 'tb_replica_test_token_0123456789abcdef';

describe.skipIf(!process.env.TEST_DATABASE_URL || !pgClusterAvailable())('heavy reads on a streaming replica (PostgreSQL)', () => {
  let primary: PgCluster;
  let replica: PgCluster;
  let server: ServeProcess;
  let replicaAdmin: pg.Client;

  beforeAll(async () => {
    primary = await startPgCluster();
    const admin = new pg.Client({ connectionString: primary.url() });
    await admin.connect();
    await admin.query('CREATE DATABASE tourbook');
    await admin.end();
    migrate(primary.url('tourbook'));
    replica = await primary.replica();
    replicaAdmin = new pg.Client({ connectionString: replica.url('tourbook') });
    await replicaAdmin.connect();
    server = await spawnServe({
      DATABASE_URL: primary.url('tourbook'),
      DATABASE_REPLICA_URLS: replica.url('tourbook'),
      // Generous: the stale read below must stay within the bound while the replay is paused.
      REPLICA_MAX_LAG_SECONDS: '600',
      REPORTS_MASTER_KEY: newMasterKey(),
      BLOB_DIR_SHARED: 'true',
      BOOTSTRAP_ADMIN_TOKEN: TOKEN,
      LOG_LEVEL: 'warn',
    }, ['--role', 'api']);
    await server.waitReady();
  }, 180_000);

  afterAll(async () => {
    await replicaAdmin?.end().catch(() => undefined);
    server?.kill('SIGKILL');
    await server?.exited;
    replica?.destroy();
    primary?.destroy();
  });

  const request = (method: string, path: string, options: { body?: unknown; consistency?: string } = {}) =>
    fetch(`${server.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${TOKEN}`,
        ...(options.body ? { 'content-type': 'application/json' } : {}),
        ...(options.consistency ? { 'tourbook-consistency': options.consistency } : {}),
      },
      ...(options.body ? { body: JSON.stringify(options.body) } : {}),
    });
  const createUser = async (name: string) => {
    const response = await request('POST', '/api/users', { body: { user: { name, email: `${name.toLowerCase()}-${Date.now()}@example.com`, role: 'customer' } } });
    expect(response.status).toBe(201);
    const token = response.headers.get('tourbook-consistency');
    expect(token).toMatch(/^[0-9A-F]+\/[0-9A-F]+$/);
    expect(response.headers.get('set-cookie')).toMatch(/tourbook_consistency=/);
    return token!;
  };
  const names = async (consistency?: string) => {
    const response = await request('GET', '/api/users?limit=100', consistency ? { consistency } : {});
    expect(response.status).toBe(200);
    const body = (await response.json()) as { users?: { name: string }[]; items?: { name: string }[] };
    return (body.users ?? body.items ?? []).map((user) => user.name);
  };

  it('serves lists from the replica, but never older than the caller\'s own last write', { timeout: 120_000 }, async () => {
    const first = await createUser('Before');
    // Once the replica has replayed it, even the token-carrying read may go there.
    await expect.poll(() => names(first), { timeout: 30_000 }).toContain('Before');

    await replicaAdmin.query('SELECT pg_wal_replay_pause()');
    await expect.poll(async () => (await replicaAdmin.query<{ state: string }>('SELECT pg_get_wal_replay_pause_state() AS state')).rows[0]!.state).toBe('paused');
    const token = await createUser('During');

    // Read-your-writes: with the token, the list shows the write (the replica is behind it: the primary answers).
    expect(await names(token)).toContain('During');
    // Without it, the replica (within the lag bound) answers: the write is not there yet. Reads do go to it.
    const stale = await names();
    expect(stale).toContain('Before');
    expect(stale).not.toContain('During');

    await replicaAdmin.query('SELECT pg_wal_replay_resume()');
    await expect.poll(() => names(), { timeout: 30_000 }).toContain('During');
    expect(await names(token)).toContain('During');
  });

  it('refuses a consistency token that is not a WAL position', async () => {
    const response = await request('GET', '/api/users', { consistency: 'yesterday' });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error_code: 'parameter_invalid', errors: [{ pointer: 'Tourbook-Consistency' }] });
  });
});
