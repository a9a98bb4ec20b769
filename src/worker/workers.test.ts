import { randomBytes } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/app.ts';
import { createWebhook } from '../../test/factories.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../test/webhook-receiver.ts';
import { queryRows } from '../db/sql.ts';
import { recordEvent } from '../events/outbox.ts';
import { newId } from '../shared/ids.ts';
import { systemClock } from '../shared/clock.ts';

/** The local TCP ports of a process's sockets, from /proc (Linux, where CI's PostgreSQL run happens). */
function localPortsOf(pid: number): Set<number> {
  const inodes = new Set<string>();
  for (const fd of fs.readdirSync(`/proc/${pid}/fd`)) {
    const link = (() => {
      try {
        return fs.readlinkSync(`/proc/${pid}/fd/${fd}`);
      } catch {
        return '';
      }
    })();
    const match = /^socket:\[(\d+)\]$/.exec(link);
    if (match) inodes.add(match[1]!);
  }
  const ports = new Set<number>();
  for (const table of ['tcp', 'tcp6']) {
    for (const line of fs.readFileSync(`/proc/${pid}/net/${table}`, 'utf8').split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields.length > 9 && inodes.has(fields[9]!)) ports.add(parseInt(fields[1]!.split(':')[1]!, 16));
    }
  }
  return ports;
}

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/tourbook.js');
const EVENTS = 1_000;

// Several worker processes need a shared server database: PGlite is one process. On PGlite this shows as skipped.
describe.skipIf(!process.env.TEST_DATABASE_URL)('two worker processes on PostgreSQL', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  const workers: ChildProcess[] = [];

  // Like a real deployment, the API (here the test app) and the workers share the master key that seals webhook
  // secrets (decision 0702).
  const masterKey = randomBytes(32).toString('base64');

  beforeAll(async () => {
    t = await buildTestApp({ reportsMasterKey: masterKey });
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    for (const worker of workers) if (worker.exitCode === null) worker.kill('SIGKILL');
    await receiver?.close();
    await t?.close();
  });

  const startWorkerProcess = (databaseUrl: string): ChildProcess => {
    const child = spawn(process.execPath, [BIN, 'serve', '--role', 'worker'], {
      env: { ...process.env, DATABASE_URL: databaseUrl, REPORTS_MASTER_KEY: masterKey, WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true', LOG_LEVEL: 'warn', ROLE: 'worker' },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    workers.push(child);
    return child;
  };

  it('delivers each of 1,000 events to every matching subscription exactly once, and stops on SIGTERM', { timeout: 120_000 }, async () => {
    const tenant = await t.createTenant();
    const stranger = await t.createTenant();
    const subscribe = (client: typeof tenant.admin, name: string, events: string[]) => createWebhook(client, `${receiver.url}/${name}`, { events });
    await subscribe(tenant.admin, 'all', ['*']);
    await subscribe(tenant.admin, 'tours', ['tour.created']);
    await subscribe(stranger.admin, 'stranger', ['*']);

    // The worker processes run on the system clock; the events are recorded at real time too.
    const eventIds: string[] = [];
    for (let batch = 0; batch < EVENTS / 100; batch++) {
      await t.deps.db.transaction(async (tx) => {
        for (let i = 0; i < 100; i++) {
          const type = (batch * 100 + i) % 2 === 0 ? 'tour.created' : 'booking.modified';
          eventIds.push(await recordEvent(tx, { tenantId: tenant.tenantId, actor: 'system', type, resourceId: null, data: { n: batch * 100 + i, tour_id: newId() }, at: systemClock.now() }));
        }
      });
    }

    const databaseUrl = t.deps.database.pool!.options.connectionString!;
    const first = startWorkerProcess(databaseUrl);
    const second = startWorkerProcess(databaseUrl);
    const expected = EVENTS + EVENTS / 2;
    await receiver.waitFor(expected, 90_000);
    // Both processes delivered: the ports their keep-alive sockets hold are among the ports the receiver saw.
    const senders = new Set(receiver.received.map((r) => r.remotePort));
    for (const worker of [first, second]) expect([...localPortsOf(worker.pid!)].some((port) => senders.has(port)), `worker ${worker.pid} delivered`).toBe(true);

    // Stopped before counting (instead of sleeping): a duplicate would have been sent before the processes exited.
    const exited = (child: ChildProcess) => new Promise<number | null>((resolve) => (child.exitCode !== null ? resolve(child.exitCode) : child.once('exit', (code) => resolve(code))));
    const exits = [exited(first), exited(second)];
    first.kill('SIGTERM');
    second.kill('SIGTERM');
    expect(await Promise.all(exits)).toEqual([0, 0]);

    const byPath = (p: string) => receiver.received.filter((r) => r.path === `/hooks/${p}`).map((r) => String(r.headers['webhook-id']));
    expect(byPath('all')).toHaveLength(EVENTS);
    expect(new Set(byPath('all'))).toEqual(new Set(eventIds));
    expect(byPath('tours')).toHaveLength(EVENTS / 2);
    expect(new Set(byPath('tours')).size).toBe(EVENTS / 2);
    expect(byPath('stranger')).toHaveLength(0);

    const [counts] = await queryRows<{ deliveries: number; succeeded: number; attempts: number }>(
      t.deps.db,
      sql`SELECT count(*)::int AS deliveries, count(*) FILTER (WHERE status = 'succeeded')::int AS succeeded,
                 (SELECT count(*)::int FROM webhook_attempts WHERE tenant_id = ${tenant.tenantId}) AS attempts
            FROM webhook_deliveries WHERE tenant_id = ${tenant.tenantId}`,
    );
    expect(counts).toEqual({ deliveries: expected, succeeded: expected, attempts: expected });
  });
});
