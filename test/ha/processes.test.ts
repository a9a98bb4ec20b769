// Whole `tourbook serve` processes (issue 26): SIGTERM under kept-alive and SSE clients (decision 1402), the worker's
// own metrics port (decision 1403), the refusal of a private blob folder on PostgreSQL (decision 1404), and the
// bootstrap tenant created once by three processes starting together (decision 1405, PostgreSQL only).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { keptAlive } from '../kept-alive.ts';
import { openSse } from '../sse-client.ts';
import { freePort } from '../pg-cluster.ts';
import { BIN, migrate, newMasterKey, spawnServe, type ServeProcess } from '../serve-process.ts';
import { adminUrl } from '../global-setup.ts';

const started: ServeProcess[] = [];
const dataDirs: string[] = [];
const dataDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tourbook-ha-'));
  dataDirs.push(dir);
  return dir;
};
const serve = async (env: Record<string, string>, args: string[] = []) => {
  const server = await spawnServe(env, args);
  started.push(server);
  return server;
};

afterAll(async () => {
  for (const server of started) server.kill('SIGKILL');
  await Promise.all(started.map((server) => server.exited));
  for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe('SIGTERM', () => {
  it('finishes the request in flight with Connection: close, ends idle kept-alive sockets and live streams, and exits within the grace period', { timeout: 120_000 }, async () => {
    const token = 'tb_shutdown_test_token_0123456789abcdef';
    // Exit code 0 is a stop that finished its work; the grace timer's exit is 1 (so 0 proves "within 10 s").
    const server = await serve({ DATA_DIR: dataDir(), BOOTSTRAP_ADMIN_TOKEN: token, SHUTDOWN_GRACE_SECONDS: '10' });
    await server.waitReady();

    const idle = await keptAlive(server.port);
    await idle.write('GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n');
    expect((await idle.response(10_000)).status).toBe(200);

    // In flight across the signal: its head is read (it is routed and authenticated), its body not yet sent.
    const inFlight = await keptAlive(server.port);
    await inFlight.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    expect((await inFlight.response(10_000)).headers.connection).not.toBe('close');
    const body = JSON.stringify({ user: { name: 'Late', email: `late-${Date.now()}@example.com`, role: 'customer' } });
    await inFlight.write(
      `POST /api/users HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`,
    );

    const stream = await openSse(server.url, '/api/live', { authorization: `Bearer ${token}` });
    expect(stream.status).toBe(200);

    server.kill('SIGTERM');
    // The idle socket closed: the stop has begun (its first step marks answers Connection: close).
    await expect.poll(() => idle.ended).toBe(true);
    await stream.ended;
    await inFlight.write(body);
    const answer = await inFlight.response(10_000);
    expect(answer.status).toBe(201);
    expect(answer.headers.connection).toBe('close');

    await expect.poll(() => inFlight.ended).toBe(true);
    expect(await server.exited).toBe(0);
    expect(server.stdout()).not.toMatch(/grace period over/);
  });
});

describe('the worker role', () => {
  it('serves /healthz and /metrics on WORKER_METRICS_PORT', { timeout: 120_000 }, async () => {
    const port = await freePort();
    const worker = await serve({ DATA_DIR: dataDir(), WORKER_METRICS_PORT: String(port) }, ['--role', 'worker']);
    const url = `http://127.0.0.1:${port}`;
    await expect.poll(() => fetch(`${url}/healthz`).then((r) => r.status, () => 0), { timeout: 60_000 }).toBe(200);
    const metrics = await fetch(`${url}/metrics`);
    expect(metrics.status).toBe(200);
    expect(metrics.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await metrics.text();
    expect(text).toMatch(/tourbook_webhook_deliveries_total/);
    expect(text).toMatch(/tourbook_process_cpu_seconds_total/);
    expect((await fetch(`${url}/api/users`)).status).toBe(404);
    worker.kill('SIGTERM');
    expect(await worker.exited).toBe(0);
  });
});

describe('an API process on PostgreSQL', () => {
  const run = (env: Record<string, string>) => {
    try {
      execFileSync(process.execPath, [BIN, 'serve', '--role', 'api'], { env: { ...process.env, PORT: '0', ...env }, stdio: 'pipe', timeout: 30_000 });
      return { status: 0, stderr: '' };
    } catch (err) {
      const e = err as { status: number; stderr: Buffer };
      return { status: e.status, stderr: e.stderr.toString() };
    }
  };

  it('refuses a local blob folder that is not declared shared, before touching the database', () => {
    // Port 1: nothing listens; the refusal comes first, so the database is never reached.
    const refused = run({ DATABASE_URL: 'postgres://postgres@127.0.0.1:1/tourbook', REPORTS_MASTER_KEY: newMasterKey(), DATA_DIR: dataDir(), BLOB_DIR_SHARED: '' });
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(/BLOB_DIR_SHARED=true/);
    expect(refused.stderr).toMatch(/S3_ENDPOINT/);
    // Declared shared, it goes on to the database (which is not there).
    const shared = run({ DATABASE_URL: 'postgres://postgres@127.0.0.1:1/tourbook', REPORTS_MASTER_KEY: newMasterKey(), DATA_DIR: dataDir(), BLOB_DIR_SHARED: 'true' });
    expect(shared.stderr).not.toMatch(/BLOB_DIR_SHARED/);
    expect(shared.stderr).toMatch(/cannot reach the database/);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('three processes starting together on one new database (PostgreSQL)', () => {
  it('create the bootstrap tenant once; only its creator prints the token, on standard error, whatever LOG_LEVEL', { timeout: 180_000 }, async () => {
    const base = process.env.TEST_DATABASE_URL!;
    const name = `tb_bootstrap_${process.pid}_${Date.now().toString(36)}`;
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    try {
      const url = adminUrl(base, name);
      migrate(url);
      const env = { DATABASE_URL: url, REPORTS_MASTER_KEY: newMasterKey(), BLOB_DIR_SHARED: 'true', LOG_LEVEL: 'warn' };
      const servers = await Promise.all([0, 1, 2].map(() => serve({ ...env, DATA_DIR: dataDir() }, ['--role', 'api'])));
      await Promise.all(servers.map((server) => server.waitReady()));
      await expect.poll(() => servers.filter((server) => /Admin token \(shown once\)/.test(server.stderr())).length).toBe(1);

      const check = new pg.Client({ connectionString: url });
      await check.connect();
      const { rows } = await check.query<{ n: number }>('SELECT count(*)::int AS n FROM tenants');
      await check.end();
      expect(rows[0]!.n).toBe(1);

      const creator = servers.find((server) => /Admin token/.test(server.stderr()))!;
      const token = /Admin token \(shown once\): (\S+)/.exec(creator.stderr())![1]!;
      for (const server of servers) {
        expect(server.stdout()).not.toContain(token);
        expect((await fetch(`${server.url}/api/users`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
      }
      for (const server of servers) server.kill('SIGTERM');
      expect(await Promise.all(servers.map((server) => server.exited))).toEqual([0, 0, 0]);
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  });
});
