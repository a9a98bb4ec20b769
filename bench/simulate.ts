// The whole-system load test (issue 15): `tourbook serve --role all` from the build on a scratch database, driven by
// the city simulator (src/simulate, public HTTP API only) in this process, on the same machine. Goal: 0 errors and
// p99 ≤ 100 ms on every endpoint at 500 drivers (a position every 5 s each) and 10 bookings/s for 10 minutes on
// PostgreSQL; the highest rate that meets it is recorded for both databases (docs/performance.md).
//
// BENCH_DATABASES (pglite,postgres), BENCH_SIM_DRIVERS (100), BENCH_SIM_BOOKINGS_PER_SECOND (2),
// BENCH_DURATION_SECONDS (measured part, 90), BENCH_SIM_WARMUP_SECONDS (30, reported apart), BENCH_SIM_SEED (1).
// Besides the simulator's figures it prints the server's and the database's CPU per request (PostgreSQL backends
// read from /proc) against the machine's two cores: a run whose CPU is saturated measures the queue, not the code.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import pg from 'pg';
import { runSimulation } from '../src/simulate/city.ts';
import { BENCH_DATABASE_URL, freePort, machineDescription, printTable, scratchDatabase, type DatabaseKind } from './_harness.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const kinds = (process.env.BENCH_DATABASES?.split(',') as DatabaseKind[] | undefined) ?? ['pglite', 'postgres'];
const DRIVERS = Number(process.env.BENCH_SIM_DRIVERS ?? 100);
const BOOKINGS_PER_SECOND = Number(process.env.BENCH_SIM_BOOKINGS_PER_SECOND ?? 2);
const MEASURED = Number(process.env.BENCH_DURATION_SECONDS ?? 90);
const WARMUP = Number(process.env.BENCH_SIM_WARMUP_SECONDS ?? 30);
const SEED = Number(process.env.BENCH_SIM_SEED ?? 1);
const GOAL_P99_MS = 100;
const TOKEN = 'tb_bench_simulate_admin_token_0001';
const TICKS_PER_SECOND = 100; // /proc's clock ticks (USER_HZ) on Linux

/** CPU seconds (user + system) a process has used, from /proc; 0 once it is gone. */
function cpuSecondsOf(pid: number): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/** CPU of the PostgreSQL backends serving one database, summed over the backends seen (they persist in the pool). */
function backendCpu(databaseUrl: string | null) {
  if (!databaseUrl) return { sample: async () => undefined, seconds: () => 0, stop: async () => undefined };
  const name = new URL(databaseUrl).pathname.slice(1);
  const admin = new pg.Client({ connectionString: BENCH_DATABASE_URL });
  const last = new Map<number, number>();
  let connected: Promise<void> | null = null;
  return {
    async sample() {
      connected ??= admin.connect().then(() => undefined);
      await connected;
      const { rows } = await admin.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = $1', [name]);
      for (const { pid } of rows) last.set(pid, Math.max(last.get(pid) ?? 0, cpuSecondsOf(pid)));
    },
    seconds: () => [...last.values()].reduce((a, b) => a + b, 0),
    stop: async () => void (connected && (await admin.end())),
  };
}

async function waitReady(url: string, child: ReturnType<typeof spawn>): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`serve exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/readyz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('serve did not become ready in 30 s');
}

/**
 * `serve` listens (and answers /readyz) before it creates the bootstrap tenant (src/cli/serve.ts): the token works a
 * moment later, once its "Ready:" line is logged.
 */
async function waitForToken(url: string, child: ReturnType<typeof spawn>): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (child.exitCode !== null) throw new Error(`serve exited with ${child.exitCode}`);
    const res = await fetch(`${url}/api/organizations`, { headers: { authorization: `Bearer ${TOKEN}` } });
    await res.arrayBuffer();
    if (res.status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the bootstrap admin token was not accepted within 10 s');
}

async function runOne(kind: DatabaseKind) {
  const database = await scratchDatabase(kind);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  if (database.url) {
    // On PostgreSQL, serve expects a migrated database (operations.md): migrate as a deployment would.
    const migrate = spawnSync(process.execPath, [path.join(ROOT, 'bin', 'tourbook.js'), 'migrate'], { cwd: ROOT, env: { ...process.env, DATABASE_URL: database.url, LOG_LEVEL: 'warn' }, stdio: ['ignore', 'ignore', 'inherit'] });
    if (migrate.status !== 0) throw new Error(`tourbook migrate exited with ${migrate.status}`);
  }
  // BENCH_SERVER_NODE_ARGS (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof") profiles the service, as in the other benches.
  const nodeArgs = process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const child = spawn(process.execPath, [...nodeArgs, path.join(ROOT, 'bin', 'tourbook.js'), 'serve', '--role', 'all'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: database.dataDir,
      DATABASE_URL: database.url ?? '',
      // One process: its own blob folder is all the API processes there are (decision 1404).
      BLOB_DIR_SHARED: 'true',
      BOOTSTRAP_ADMIN_TOKEN: TOKEN,
      // BENCH_SERVER_LOG_LEVEL=info with BENCH_SERVER_LOG=FILE keeps the service's request log (durations per request).
      LOG_LEVEL: process.env.BENCH_SERVER_LOG_LEVEL ?? 'warn',
      LOG_FORMAT: 'json',
      // The limiter still runs on every request; only its budget is lifted so the load is measured, not refused.
      RATE_LIMIT_PER_SECOND: '1000000',
      RATE_LIMIT_BURST: '1000000',
      REPORTS_MASTER_KEY: Buffer.alloc(32, 7).toString('base64'),
    },
    stdio: ['ignore', process.env.BENCH_SERVER_LOG ? fs.openSync(process.env.BENCH_SERVER_LOG, 'w') : 'ignore', 'inherit'],
  });
  const backends = backendCpu(database.url);
  try {
    await waitReady(url, child);
    await waitForToken(url, child);
    let measuredFrom: { at: number; server: number; backends: number; requests: number; simulator: NodeJS.CpuUsage } | null = null;
    const loopDelay = monitorEventLoopDelay({ resolution: 10 });
    const sampler = setInterval(() => void backends.sample().catch(() => undefined), 1_000);
    const started = Date.now();
    const summary = await runSimulation({
      url,
      token: TOKEN,
      drivers: DRIVERS,
      bookingsPerMinute: BOOKINGS_PER_SECOND * 60,
      durationSeconds: WARMUP + MEASURED,
      speedup: 1,
      seed: SEED,
      warmupSeconds: WARMUP,
      log: (line) => console.log(`  ${kind}: ${line}`),
      onMeasuredStart: async (requestsSoFar) => {
        await backends.sample();
        measuredFrom = { at: Date.now(), server: cpuSecondsOf(child.pid!), backends: backends.seconds(), requests: requestsSoFar, simulator: process.cpuUsage() };
        loopDelay.enable();
      },
    });
    clearInterval(sampler);
    await backends.sample();
    loopDelay.disable();
    const from = measuredFrom ?? { at: started, server: 0, backends: 0, requests: 0, simulator: { user: 0, system: 0 } };
    const simulatorCpu = process.cpuUsage(from.simulator);
    const wall = (Date.now() - from.at) / 1000;
    const measuredRequests = summary.requests - from.requests;
    const serverCpu = cpuSecondsOf(child.pid!) - from.server;
    const dbCpu = backends.seconds() - from.backends;
    const running = summary.endpoints.filter((e) => !e.endpoint.startsWith('('));
    const worst = [...running].sort((a, b) => b.p99 - a.p99)[0];
    const simulator = { cores: (simulatorCpu.user + simulatorCpu.system) / 1e6 / wall, loopDelayP99Ms: loopDelay.percentile(99) / 1e6 };
    return { kind, summary, running, worst, wall, measuredRequests, serverCpu, dbCpu, simulator };
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)));
    await backends.stop();
    await database.drop();
  }
}

console.log(`Machine: ${machineDescription()}; load average ${os.loadavg().map((v) => v.toFixed(1)).join(' ')}`);
console.log(`tourbook simulate: ${DRIVERS} drivers, ${BOOKINGS_PER_SECOND} bookings/s, ${WARMUP} s warm-up then ${MEASURED} s measured, seed ${SEED}\n`);
const rows: Record<string, string | number>[] = [];
let failed = false;
for (const kind of kinds) {
  const run = await runOne(kind);
  console.log(`\n${kind}: endpoints after the warm-up`);
  printTable(run.running.map((e) => ({ endpoint: e.endpoint, count: e.count, 'p50 ms': Math.round(e.p50), 'p99 ms': Math.round(e.p99) })));
  if (run.summary.errors.length) {
    failed = true;
    for (const error of run.summary.errors.slice(0, 10)) console.log(`  error: ${error}`);
  }
  const met = run.summary.errors.length === 0 && (run.worst?.p99 ?? Infinity) <= GOAL_P99_MS;
  rows.push({
    run: `${kind} ${DRIVERS} drivers, ${BOOKINGS_PER_SECOND} bookings/s`,
    'req/s': Math.round(run.measuredRequests / run.wall),
    'worst p99 ms': run.worst ? `${Math.round(run.worst.p99)} (${run.worst.endpoint})` : '-',
    errors: run.summary.errors.length,
    'server CPU µs/req': Math.round((run.serverCpu * 1e6) / Math.max(1, run.measuredRequests)),
    'database CPU µs/req': kind === 'postgres' ? Math.round((run.dbCpu * 1e6) / Math.max(1, run.measuredRequests)) : 'in server',
    'server+db cores busy': ((run.serverCpu + run.dbCpu) / run.wall).toFixed(2),
    // The simulator measures latency on its own event loop: a busy one adds its delay to every figure.
    'simulator cores · loop delay p99 ms': `${run.simulator.cores.toFixed(2)} · ${run.simulator.loopDelayP99Ms.toFixed(0)}`,
    [`goal p99 ≤ ${GOAL_P99_MS} ms`]: met ? 'met' : 'not met',
  });
}
console.log('');
printTable(rows);
if (failed) {
  console.error('The simulator saw errors: the figures above are not valid.');
  process.exitCode = 1;
}
