// Webhooks (issue 5), on PostgreSQL: sustained deliveries/s of one worker process to a receiver that answers at once,
// vs a bare loop POSTing the same bodies with the same HTTP client; and p99 commit-to-delivery latency at 500 events/s.
// Goals: worker/bare ≥ 0.5, p99 ≤ 1 s.
import { fork, spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../src/config.ts';
import { generateMasterKey } from '../src/crypto/master-key.ts';
import { openPostgres } from '../src/db/client.ts';
import { wireHooks } from '../src/hooks.ts';
import { createSolverPool } from '../src/optimizer/index.ts';
import type { Deps } from '../src/deps.ts';
import { recordEvent } from '../src/events/outbox.ts';
import { createTenant } from '../src/modules/identity/index.ts';
import { postJson } from '../src/modules/webhooks/http-client.ts';
import { insertSubscription } from '../src/modules/webhooks/repository.ts';
import { generateSecret, signatureHeader } from '../src/modules/webhooks/signing.ts';
import { systemClock } from '../src/shared/clock.ts';
import { newId } from '../src/shared/ids.ts';
import pino from 'pino';
import { machineDescription, printTable, scratchDatabase } from './_harness.ts';
import type { ReceiverInfo } from './_webhooks-receiver.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const BACKLOG = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 10_000);
const RATE = Number(process.env.BENCH_WEBHOOK_RATE ?? 500);
const RATE_SECONDS = Number(process.env.BENCH_DURATION_SECONDS ?? 20);
const CONCURRENCY = 32; // the worker's delivery batch: the bare loop keeps as many requests in flight

console.log(`Machine: ${machineDescription()}\n`);

const database = await scratchDatabase('postgres');
const db = openPostgres(database.url!, 10);
await db.migrate();
// A server deployment needs a master key (decision 0207): one per run, shared with the worker process below.
const masterKey = generateMasterKey();
const config = loadConfig({}, { databaseUrl: database.url, dataDir: database.dataDir, logLevel: 'warn', reportsMasterKey: masterKey });
const deps: Deps = { db: db.db, database: db, clock: systemClock, config, log: pino({ level: 'warn' }), hooks: wireHooks(), optimizer: createSolverPool(config.optimizerThreads) };

const receiverProcess = fork(path.join(here, '_webhooks-receiver.ts'), [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
const receiver = await new Promise<ReceiverInfo>((resolve) => receiverProcess.once('message', (m) => resolve(m as ReceiverInfo)));
const arrivals = new Map<string, number>();
const collect = () =>
  new Promise<void>((resolve) => {
    receiverProcess.once('message', (batch) => {
      for (const [id, at] of batch as [string, number][]) arrivals.set(id, at);
      resolve();
    });
    receiverProcess.send('stats');
  });
const waitForArrivals = async (count: number, timeoutMs: number) => {
  const deadline = Date.now() + timeoutMs;
  while (arrivals.size < count && Date.now() < deadline) {
    await collect();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  if (arrivals.size < count) throw new Error(`only ${arrivals.size} of ${count} deliveries arrived`);
};

const { tenant } = await createTenant(deps, { name: 'Bench' });
const secret = generateSecret();
const now = systemClock.now();
await insertSubscription(db.db, {
  tenantId: tenant.id, id: newId(), url: receiver.url, events: ['*'], active: true, description: 'bench', filters: {}, secret,
  previousSecret: null, previousSecretExpiresAt: null, failingSince: null, disabledReason: null, createdAt: now, updatedAt: now,
});
const eventData = () => ({ tour_id: newId(), service_area_id: newId(), note: 'x'.repeat(200) });

// 1. Bare loop: the same envelope bodies and headers, the same client, CONCURRENCY in flight.
const bodies = Array.from({ length: BACKLOG }, () => {
  const id = newId();
  return { id, body: JSON.stringify({ id, type: 'tour.modified', resource_type: 'tour', event: 'modified', timestamp: new Date().toISOString(), data: eventData() }) };
});
let nextBody = 0;
const bareStart = performance.now();
await Promise.all(
  Array.from({ length: CONCURRENCY }, async () => {
    while (nextBody < bodies.length) {
      const { id, body } = bodies[nextBody++]!;
      const timestamp = Math.floor(Date.now() / 1000);
      const headers = { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signatureHeader([secret], id, timestamp, body) };
      const result = await postJson(receiver.url, body, headers, { allowPrivate: true });
      if (result.statusCode !== 204) throw new Error(`bare POST failed: ${result.statusCode} ${result.error}`);
    }
  }),
);
const bareRate = BACKLOG / ((performance.now() - bareStart) / 1000);
await waitForArrivals(BACKLOG, 30_000);
arrivals.clear();

// 2. Worker throughput: a backlog of events, then one worker process drains it (fan-out, signing, POST, attempt log).
for (let i = 0; i < BACKLOG; i += 500) {
  await db.db.transaction(async (tx) => {
    for (let j = i; j < Math.min(i + 500, BACKLOG); j++) {
      await recordEvent(tx, { tenantId: tenant.id, actor: 'system', type: 'tour.modified', resourceId: null, data: eventData(), at: systemClock.now() });
    }
  });
}
const bin = path.join(here, '../bin/tourbook.js');
// BENCH_WORKER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" profiles the worker process.
const workerNodeArgs = process.env.BENCH_WORKER_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
const worker: ChildProcess = spawn(process.execPath, [...workerNodeArgs, bin, 'serve', '--role', 'worker'], {
  env: { ...process.env, DATABASE_URL: database.url!, REPORTS_MASTER_KEY: masterKey, DATA_DIR: database.dataDir, WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true', LOG_LEVEL: 'warn' },
  stdio: ['ignore', 'ignore', 'inherit'],
});
await waitForArrivals(1, 60_000); // the worker process is up and delivering
const times = () => [...arrivals.values()].sort((a, b) => a - b);
await waitForArrivals(BACKLOG, 300_000);
const sorted = times();
const workerRate = (BACKLOG - 1) / ((sorted[sorted.length - 1]! - sorted[0]!) / 1000);
arrivals.clear();

// 3. Latency at RATE events/s: one event per transaction, commit time → arrival at the receiver.
const committedAt = new Map<string, number>();
const started = Date.now();
let sent = 0;
while (Date.now() - started < RATE_SECONDS * 1000) {
  const due = Math.floor(((Date.now() - started) / 1000) * RATE);
  const batch: Promise<void>[] = [];
  for (; sent < due; sent++) {
    batch.push(
      (async () => {
        const id = await db.db.transaction((tx) =>
          recordEvent(tx, { tenantId: tenant.id, actor: 'system', type: 'tour.modified', resourceId: null, data: eventData(), at: systemClock.now() }),
        );
        committedAt.set(id, Date.now());
      })(),
    );
  }
  await Promise.all(batch);
  await new Promise((resolve) => setTimeout(resolve, 5));
}
await waitForArrivals(sent, 60_000);
const latencies = [...committedAt].map(([id, at]) => arrivals.get(id)! - at).sort((a, b) => a - b);
const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))]!;
const achievedRate = sent / RATE_SECONDS;

await new Promise<void>((resolve) => {
  worker.once('exit', () => resolve());
  worker.kill('SIGTERM');
});
receiverProcess.kill('SIGTERM');
await db.close();
await database.drop();

printTable([
  { run: `bare loop (${CONCURRENCY} in flight)`, 'deliveries/s': Math.round(bareRate) },
  { run: 'one worker, backlog', 'deliveries/s': Math.round(workerRate), 'worker/bare': (workerRate / bareRate).toFixed(2) },
]);
printTable([
  { run: `${Math.round(achievedRate)} events/s for ${RATE_SECONDS} s`, events: sent, 'p50 ms': pct(50), 'p99 ms': pct(99), 'max ms': latencies[latencies.length - 1]! },
]);
const ok = workerRate / bareRate >= 0.5 && pct(99) <= 1000;
console.log(ok ? 'Goals met: worker/bare ≥ 0.5 and p99 ≤ 1 s.' : 'Goals NOT met: worker/bare ≥ 0.5 and p99 ≤ 1 s.');
if (!ok) process.exitCode = 1;
