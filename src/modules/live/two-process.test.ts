// The live stream across API processes on one PostgreSQL: a second `tourbook serve --role api` process.
import { spawn, type ChildProcess } from 'node:child_process';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/app.ts';
import { createBooking, createService, createUser, expectOk, tourEnRoute } from '../../../test/factories.ts';
import { openSse, type SseStream } from '../../../test/sse-client.ts';
import { masterKeyFor } from '../../crypto/master-key.ts';

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });

describe.skipIf(!process.env.TEST_DATABASE_URL)('the live stream across two API processes on PostgreSQL', () => {
  let t: TestApp;
  let child: ChildProcess;
  let here: string;
  let there: string;
  const streams: SseStream[] = [];

  beforeAll(async () => {
    t = await buildTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    here = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const port = await freePort();
    there = `http://127.0.0.1:${port}`;
    const databaseUrl = (t.deps.database.pool as unknown as { options: { connectionString: string } }).options.connectionString;
    child = spawn(process.execPath, [path.resolve('bin/tourbook.js'), 'serve', '--role', 'api'], {
      // A server deployment needs the master key (decision 0207): the test app's own, so both processes share it.
      env: { ...process.env, DATABASE_URL: databaseUrl, REPORTS_MASTER_KEY: masterKeyFor(t.config)!.key.toString('base64'), PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'silent', DATA_DIR: t.config.dataDir, BLOB_DIR_SHARED: 'true', BOOTSTRAP_ADMIN_TOKEN: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // Ready when it answers /readyz (its logs are silenced, and their wording is not this test's business).
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    let exited: number | null | undefined;
    child.on('exit', (code) => (exited = code));
    const deadline = Date.now() + 30_000;
    for (;;) {
      if (exited !== undefined) throw new Error(`the second process exited with ${exited}: ${stderr}`);
      if (Date.now() > deadline) throw new Error(`the second process did not start: ${stderr}`);
      const ready = await fetch(`${there}/readyz`).then((r) => r.ok, () => false);
      if (ready) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }, 60_000);

  afterAll(async () => {
    for (const s of streams) s.close();
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    await t?.close();
  });

  it('brings a position and an event written through one process to a stream held by the other within a second', async () => {
    // The first tenant exists before the second process starts, so it creates no bootstrap tenant.
    const tenant = await t.createTenant();
    const service = await createService(tenant.admin);
    const booking = await createBooking(tenant.admin, { service_id: service.id });
    const driver = await createUser(tenant.admin, { role: 'driver' });
    const tour = await tourEnRoute(tenant.admin, [booking.id], driver.id);
    const auth = { authorization: `Bearer ${tenant.adminToken}` };
    const remote = await openSse(there, '/api/live', auth);
    const local = await openSse(here, '/api/live', auth);
    streams.push(remote, local);
    expect([remote.status, local.status]).toEqual([200, 200]);

    // Written here (the test process), read there.
    const started = Date.now();
    const position = await expectOk(
      driver.client.post(`/api/hailing/tours/${tour.id}/driver_location`, { location: { lat: 52.49, lng: 13.4, recorded_at: t.clock.now().toISOString() } }),
    );
    await remote.waitFor((f) => f.some((x) => x.id === position.location.id), 1_000);
    await remote.waitFor((f) => f.some((x) => x.event === 'tour.etas_recalculated'), Math.max(1, 1_000 - (Date.now() - started)));

    // Written there, read here.
    const res = await fetch(`${there}/api/hailing/tours/${tour.id}/driver_location`, {
      method: 'POST',
      headers: { authorization: `Bearer ${driver.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ location: { lat: 52.4901, lng: 13.4, recorded_at: new Date(t.clock.now().getTime() + 60_000).toISOString() } }),
    });
    expect(res.status).toBe(200);
    const remoteId = ((await res.json()) as { location: { id: string } }).location.id;
    await local.waitFor((f) => f.some((x) => x.id === remoteId), 1_000);
  });

  it('replaces a LISTEN connection the server killed: positions from the other process arrive again, each once', async () => {
    const tenant = await t.createTenant();
    const service = await createService(tenant.admin);
    const booking = await createBooking(tenant.admin, { service_id: service.id });
    const driver = await createUser(tenant.admin, { role: 'driver' });
    const tour = await tourEnRoute(tenant.admin, [booking.id], driver.id);
    const local = await openSse(here, '/api/live', { authorization: `Bearer ${tenant.adminToken}` });
    streams.push(local);
    const killed = await t.deps.database.pool!.query<{ pid: number }>(
      "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN %' AND pg_terminate_backend(pid)",
    );
    expect(killed.rowCount).toBeGreaterThanOrEqual(1);
    // Each process notices, and listens again a second later.
    const send = async (offsetMs: number) => {
      const res = await fetch(`${there}/api/hailing/tours/${tour.id}/driver_location`, {
        method: 'POST',
        headers: { authorization: `Bearer ${driver.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ location: { lat: 52.49, lng: 13.4, recorded_at: new Date(t.clock.now().getTime() + offsetMs).toISOString() } }),
      });
      expect(res.status).toBe(200);
      return ((await res.json()) as { location: { id: string } }).location.id;
    };
    let arrived: string | null = null;
    for (let attempt = 1; attempt <= 20 && !arrived; attempt++) {
      const id = await send(attempt * 1_000);
      arrived = await local.waitFor((f) => f.some((x) => x.id === id), 500).then(() => id, () => null);
    }
    expect(arrived).not.toBeNull();
    const later = await send(60_000);
    await local.waitFor((f) => f.some((x) => x.id === later), 1_000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(local.frames.filter((x) => x.id === later)).toHaveLength(1);
    expect(child.exitCode).toBeNull();
  });
});
