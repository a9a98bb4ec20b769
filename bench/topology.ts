// The reference topology (issue 26; docs/operations.md), on its database tier (deploy/topology.sh database, started
// here when PgBouncer does not answer, and removed again at the end):
// (1) the bookings benchmark's create and GET, each with its bare route, through PgBouncer (transaction pooling,
//     unnamed statements) vs straight to the primary through HAProxy — goal: the benchmark's ratios (real/bare)
//     through PgBouncer within 10 % of the direct connection's; also printed, the stricter req/s of the route itself
//     against direct, and the CPU per request of PostgreSQL, PgBouncer and HAProxy;
// (2) failover: a client inserting a row every 100 ms through PgBouncer, the primary's Patroni and PostgreSQL
//     SIGKILLed — seconds to the first successful insert (goal ≤ 30 s); the member is brought back afterwards.
//     BENCH_FAILOVER=0 skips it (e.g. on a database tier someone else started and still uses).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { finishReport, load, machineDescription, startServer, summarize, type LoadResult, type ScratchDatabase } from './_harness.ts';
import type { BookingsInfo } from './_bookings-server.ts';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SERVER = path.join(REPO, 'bench', '_bookings-server.ts');
const BASE = process.env.TOURBOOK_HA_DIR ?? '/tmp/tourbook-ha';
const DURATION = Number(process.env.BENCH_DURATION_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const FAILOVER = process.env.BENCH_FAILOVER !== '0';
const SUPERUSER = 'postgres://postgres:ha-superuser-secret@10.231.0.20:5000/postgres';
const url = (host: string, database: string) => `postgres://tourbook:ha-tourbook-secret@${host}/${database}`;
const DIRECT = '10.231.0.20:5000';
const POOLED = '10.231.0.21:6432';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const running = spawnSync('pg_isready', ['-h', '10.231.0.21', '-p', '6432', '-d', 'tourbook']).status === 0;
if (!running) {
  console.log('Starting the database tier (deploy/topology.sh database)…');
  const up = spawnSync('bash', [path.join(REPO, 'deploy', 'topology.sh'), 'database'], { stdio: 'inherit', env: { ...process.env, TOURBOOK_HA_DIR: BASE } });
  if (up.status !== 0) throw new Error('deploy/topology.sh database failed');
}

console.log(`Machine: ${machineDescription()}`);
console.log(`autocannon: 50 connections, ${DURATION} s per run after a 2 s warm-up, ${ROUNDS} alternating rounds, medians\n`);

const name = `tb_bench_topology_${process.pid}`;
async function superuser(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: SUPERUSER });
  await client.connect();
  await client.query(statement);
  await client.end();
}
await superuser(`CREATE DATABASE ${name} OWNER tourbook`);

const rows: Record<string, string | number>[] = [];
let failed = false;
try {
  // (1) Through PgBouncer vs direct: one server process each, alternating rounds.
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tourbook-bench-topology-'));
  const database = (host: string): ScratchDatabase => ({ kind: 'postgres', url: url(host, name), dataDir, drop: async () => undefined });
  const seed = { BENCH_SMALL_BOOKINGS: '2000', BENCH_LARGE_BOOKINGS: '2000' };
  const direct = await startServer<BookingsInfo>(SERVER, database(DIRECT), seed);
  const pooled = await startServer<BookingsInfo>(SERVER, database(POOLED), { ...seed, DATABASE_TRANSACTION_POOLER: 'true', DATABASE_DIRECT_URL: url(DIRECT, name) });
  // The pooler's two costs apart: the same direct connection with every statement unnamed (parsed and planned per run,
  // as through PgBouncer) — what is left of the gap is PgBouncer's hop.
  const unnamed = await startServer<BookingsInfo>(SERVER, database(DIRECT), { ...seed, DATABASE_TRANSACTION_POOLER: 'true', DATABASE_DIRECT_URL: url(DIRECT, name) });
  const auth = (token: string) => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json' });
  try {
    for (const what of ['GET booking', 'create booking'] as const) {
      const labels = ['direct', 'unnamed', 'pooled'] as const;
      const runs = Object.fromEntries(labels.flatMap((label) => [[label, []], [`${label} bare`, []]])) as Record<string, LoadResult[]>;
      for (let round = 0; round < ROUNDS; round++) {
        // Each round in another order, so that none of the three always runs first (or after the same one).
        const servers = [['direct', direct], ['unnamed', unnamed], ['pooled', pooled]] as const;
        for (const [label, server] of [...servers.slice(round % 3), ...servers.slice(0, round % 3)]) {
          const { info } = server;
          // The bookings benchmark's pair: its bare route (one statement through the same connection) and the real one.
          const [bare, real] =
            what === 'GET booking'
              ? [{ url: info.bareSelectUrl }, { url: info.realShowUrl, headers: auth(info.adminToken) }]
              : [{ url: info.bareInsertUrl, method: 'POST' as const }, { url: info.realCreateUrl, method: 'POST' as const, body: info.createBody, headers: auth(info.adminToken) }];
          const common = { durationSeconds: DURATION, server, alsoCpuOf: ['postgres', 'pgbouncer', 'haproxy'] };
          runs[`${label} bare`]!.push(await load({ ...bare, ...common, label: `${label} bare, ${what}` }));
          runs[label]!.push(await load({ ...real, ...common, label: `${label} ${what}` }));
        }
      }
      if (Object.values(runs).flat().some((r) => r.non2xx || r.errors)) failed = true;
      const names = { direct: 'direct (HAProxy)', unnamed: 'direct, statements unnamed', pooled: 'PgBouncer' };
      const bareName = what === 'GET booking' ? 'bare SELECT' : 'bare INSERT';
      const directRow = summarize(`${names.direct} ${what}`, runs.direct!);
      const directBare = summarize(`${names.direct} ${bareName}`, runs['direct bare']!);
      for (const label of labels) {
        const bareRow = label === 'direct' ? directBare : summarize(`${names[label]} ${bareName}`, runs[`${label} bare`]!);
        const row = label === 'direct' ? directRow : summarize(`${names[label]} ${what}`, runs[label]!);
        const benchRatio = row['req/s'] / bareRow['req/s'];
        rows.push(bareRow, {
          ...row,
          'real/bare': benchRatio.toFixed(2),
          // Goal: the bookings benchmark's ratio through PgBouncer within 10 % of the direct connection's.
          'ratio / direct ratio': (benchRatio / (directRow['req/s'] / directBare['req/s'])).toFixed(2),
          // Stricter: the route's own req/s against the same route straight to the primary.
          'req/s / direct': (row['req/s'] / directRow['req/s']).toFixed(2),
        });
      }
    }
  } finally {
    await direct.stop();
    await unnamed.stop();
    await pooled.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }

  // (2) Failover through PgBouncer.
  if (FAILOVER) {
    const client = () => new pg.Client({ connectionString: url(POOLED, name), connectionTimeoutMillis: 2000, query_timeout: 2000 });
    const setup = client();
    await setup.connect();
    await setup.query('CREATE TABLE failover_probe (at timestamptz NOT NULL DEFAULT now())');
    await setup.end();
    const leader = ((await (await fetch('http://10.231.0.11:8008/cluster')).json()) as { members: { name: string; role: string }[] }).members.find((m) => m.role === 'leader')?.name;
    if (!leader) throw new Error('no leader');
    const pids = spawnSync('ip', ['netns', 'pids', `tbha-${leader}`], { encoding: 'utf8' }).stdout.split(/\s+/).filter(Boolean);
    const killedAt = performance.now();
    for (const pid of pids) if (fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim() !== 'etcd') process.kill(Number(pid), 'SIGKILL');
    let firstWrite: number | null = null;
    let probe: pg.Client | null = null;
    while (performance.now() - killedAt < 60_000 && firstWrite === null) {
      try {
        probe ??= client();
        if (!(probe as pg.Client & { _connected?: boolean })._connected) await probe.connect();
        await probe.query('INSERT INTO failover_probe DEFAULT VALUES');
        firstWrite = (performance.now() - killedAt) / 1000;
      } catch {
        await probe?.end().catch(() => undefined);
        probe = null;
        await sleep(100);
      }
    }
    await probe?.end().catch(() => undefined);
    rows.push({ run: `failover: ${leader} killed, first insert through PgBouncer`, seconds: firstWrite === null ? 'none within 60 s' : firstWrite.toFixed(1), goal: '≤ 30 s' });
    spawnSync('bash', ['-c', `ip netns exec tbha-${leader} setsid runuser -u postgres -- patroni ${BASE}/deploy/patroni/${leader}.yml >>${BASE}/logs/patroni-${leader}.log 2>&1 </dev/null &`], { cwd: '/' });
  }
} finally {
  await superuser(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
  if (!running) spawnSync('bash', [path.join(REPO, 'deploy', 'topology.sh'), 'down'], { stdio: 'inherit', env: { ...process.env, TOURBOOK_HA_DIR: BASE } });
}
finishReport(rows, failed);
