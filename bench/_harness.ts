// Bench harness: scratch databases (PGlite or PostgreSQL), a server in a child process, autocannon from this one.
// A benchmark is bench/<name>.ts; it starts servers with startServer(script, database) and loads them with load().
import { fork, type ChildProcess, type Serializable } from 'node:child_process';
import http, { type IncomingMessage } from 'node:http';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import type { App } from '../src/app.ts';
import type { Deps } from '../src/deps.ts';

export type DatabaseKind = 'pglite' | 'postgres';

/** Where the PostgreSQL runs go; the harness creates and drops a scratch database on that server. */
export const BENCH_DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface ScratchDatabase {
  kind: DatabaseKind;
  /** DATABASE_URL for the server process, or null for embedded PGlite in `dataDir`. */
  url: string | null;
  dataDir: string;
  drop(): Promise<void>;
}

const withDatabase = (url: string, name: string): string => {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
};

export async function scratchDatabase(kind: DatabaseKind): Promise<ScratchDatabase> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `tourbook-bench-${kind}-`));
  const removeDir = () => fs.rmSync(dataDir, { recursive: true, force: true });
  if (kind === 'pglite') return { kind, url: null, dataDir, drop: async () => removeDir() };
  const name = `tb_bench_${process.pid}_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: BENCH_DATABASE_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  return {
    kind,
    url: withDatabase(BENCH_DATABASE_URL, name),
    dataDir,
    drop: async () => {
      // BENCH_KEEP_DATABASE=1 leaves the data for EXPLAIN ANALYZE by hand (docs/performance.md).
      if (process.env.BENCH_KEEP_DATABASE === '1') return void console.log(`kept database ${name}`);
      const dropper = new pg.Client({ connectionString: BENCH_DATABASE_URL });
      await dropper.connect();
      await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await dropper.end();
      removeDir();
    },
  };
}

export interface ServerHandle<Info> {
  /** What the server script reported once it was listening (URLs, tokens, ids). */
  info: Info;
  /** CPU time (user + system, µs) the server process has used so far. */
  cpuMicros(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * Forks `script` (a bench/*.ts module that calls reportReady(info) once listening) with the database in its
 * environment. The server runs in its own process so autocannon's CPU is not the server's.
 */
export async function startServer<Info>(script: string, database: ScratchDatabase, env: Record<string, string> = {}): Promise<ServerHandle<Info>> {
  const child: ChildProcess = fork(script, [], {
    // BENCH_SERVER_NODE_ARGS (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof") profiles the server, not the load generator.
    execArgv: ['--import', 'tsx', ...(process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? [])],
    env: {
      ...process.env,
      DATA_DIR: database.dataDir,
      ...(database.url ? { DATABASE_URL: database.url } : { DATABASE_URL: '' }),
      LOG_LEVEL: 'warn',
      // The limiter still runs on every request; only its budget is lifted so the load is measured, not refused.
      RATE_LIMIT_PER_SECOND: '1000000',
      RATE_LIMIT_BURST: '1000000',
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const info = await new Promise<Info>((resolve, reject) => {
    child.once('message', (message) => resolve(message as Info));
    child.once('exit', (code) => reject(new Error(`bench server ${script} exited with ${code} before it was ready`)));
  });
  return {
    info,
    cpuMicros: () =>
      new Promise<number>((resolve) => {
        child.once('message', (message) => resolve((message as { cpuMicros: number }).cpuMicros));
        child.send('cpu');
      }),
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** Called by a server script when it listens: hands its info to the parent process. */
export function reportReady(info: unknown): void {
  if (!process.send) throw new Error('bench server scripts run under startServer()');
  process.send(info);
  process.on('message', (message) => {
    if (message !== 'cpu') return;
    const { user, system } = process.cpuUsage();
    process.send?.({ cpuMicros: user + system });
  });
  process.once('SIGTERM', () => process.exit(0));
}

export interface LoadResult {
  label: string;
  requestsPerSecond: number;
  /** Server CPU time per request (µs) when a server handle was given: robust to a busy machine, unlike req/s. */
  cpuMicrosPerRequest: number | null;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
  /** CPU time per request (µs) of the processes of each name in `alsoCpuOf`. */
  otherCpuMicrosPerRequest: Record<string, number>;
}

export interface LoadOptions {
  label: string;
  url: string;
  headers?: Record<string, string>;
  connections?: number;
  durationSeconds?: number;
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: string;
  /** The server under load, to measure its CPU time per request. */
  server?: ServerHandle<unknown>;
  /** Process names (e.g. postgres, pgbouncer) whose CPU time per request is measured, whoever runs them. */
  alsoCpuOf?: string[];
}

/** /proc counts CPU time in USER_HZ ticks, 100 a second on Linux whatever the kernel's own tick rate. */
const CLOCK_TICKS_PER_SECOND = 100;

/**
 * CPU time (user + system, µs) the running processes of each name have used so far, read from /proc: the database
 * side of a request (PostgreSQL's backends, PgBouncer, HAProxy), also in other network namespaces. Linux only.
 */
export function processCpuMicros(names: string[]): Record<string, number> {
  const ticks: Record<string, number> = Object.fromEntries(names.map((name) => [name, 0]));
  for (const pid of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue; // exited meanwhile
    }
    // pid (comm) state …: comm may hold spaces and parentheses, so the fields are counted after the last ')'.
    const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    if (!(comm in ticks)) continue;
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime, stime, and cutime, cstime: the exited children's, so a backend that ends mid-run still counts (with
    // its postmaster's) and the sum never falls.
    ticks[comm]! += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
  }
  return Object.fromEntries(Object.entries(ticks).map(([name, n]) => [name, (n * 1_000_000) / CLOCK_TICKS_PER_SECOND]));
}

/** One autocannon run (default 50 connections for 10 s) after a short warm-up. */
export async function load(options: LoadOptions): Promise<LoadResult> {
  const common = {
    url: options.url,
    headers: options.headers ?? {},
    method: options.method ?? 'GET',
    ...(options.body !== undefined ? { body: options.body } : {}),
  };
  await autocannon({ ...common, connections: 10, duration: 2 });
  const cpuBefore = await options.server?.cpuMicros();
  const otherBefore = processCpuMicros(options.alsoCpuOf ?? []);
  const result = await autocannon({ ...common, connections: options.connections ?? 50, duration: options.durationSeconds ?? 10 });
  const otherAfter = processCpuMicros(options.alsoCpuOf ?? []);
  const cpuAfter = await options.server?.cpuMicros();
  const perRequest = (micros: number) => micros / Math.max(1, result.requests.total);
  return {
    label: options.label,
    requestsPerSecond: result.requests.average,
    cpuMicrosPerRequest: cpuBefore !== undefined && cpuAfter !== undefined ? perRequest(cpuAfter - cpuBefore) : null,
    otherCpuMicrosPerRequest: Object.fromEntries(Object.entries(otherAfter).map(([name, after]) => [name, perRequest(after - (otherBefore[name] ?? 0))])),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

/** The value at quantile `q` (0–1) of `values`, nearest rank; NaN for none. */
export function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? NaN;
}

/** Milliseconds `f` took, with its value. */
export async function timed<T>(f: () => Promise<T>): Promise<[number, T]> {
  const started = performance.now();
  const value = await f();
  return [performance.now() - started, value];
}

export function printTable(rows: Record<string, string | number>[]): void {
  console.table(rows);
}

export type SummaryRow = ReturnType<typeof summarize>;

/** Medians of repeated rounds of one load. */
export function summarize(label: string, runs: LoadResult[]) {
  return {
    run: label,
    'req/s': Math.round(median(runs.map((r) => r.requestsPerSecond))),
    'p50 ms': median(runs.map((r) => r.p50Ms)),
    'p99 ms': median(runs.map((r) => r.p99Ms)),
    'req/s per round': runs.map((r) => Math.round(r.requestsPerSecond)).join(' / '),
    'server CPU µs/req': Math.round(median(runs.map((r) => r.cpuMicrosPerRequest ?? 0))),
    ...Object.fromEntries(Object.keys(runs[0]?.otherCpuMicrosPerRequest ?? {}).map((name) => [`${name} CPU µs/req`, Math.round(median(runs.map((r) => r.otherCpuMicrosPerRequest[name] ?? 0)))])),
  };
}

/** `row` with its req/s ratio to `base`, and the inverse CPU ratio: what req/s would be if purely CPU-bound. */
export function comparedTo(base: SummaryRow, row: SummaryRow, names: { ratio: string; cpu: string }): Record<string, string | number> {
  return {
    ...row,
    [names.ratio]: (row['req/s'] / base['req/s']).toFixed(2),
    [names.cpu]: (base['server CPU µs/req'] / row['server CPU µs/req']).toFixed(2),
  };
}

/** Prints the table; any failed request makes the run invalid (non-zero exit). */
export function finishReport(rows: Record<string, string | number>[], failed: boolean): void {
  printTable(rows);
  if (failed) {
    console.error('Some requests failed: the figures above are not valid.');
    process.exitCode = 1;
  }
}

/** A TCP port free on 127.0.0.1 at the moment of asking (for servers the bench starts itself). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.once('error', reject);
  });
}

/** The 1, 5 and 15 minute load averages: on a shared machine a figure means something only beside them. */
export const loadAverage = (): string => os.loadavg().map((l) => l.toFixed(2)).join(' ');

export function machineDescription(): string {
  const cpus = os.cpus();
  return `${cpus.length} × ${cpus[0]?.model ?? 'unknown CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB RAM, ${os.type()} ${os.release()}, Node ${process.version}`;
}

// --- Stream receivers: the clients of many SSE streams in a child process, so parsing their frames takes no CPU from
// the process that posts and times (one Date.now() clock for both).

/**
 * In the parent: forks `file` (a bench script that checks `process.env[flag]` and then runs its receiver), sends it
 * `input` and waits for its `{ ready: true }` (or `{ error }`); `stop()` answers what it received.
 */
export async function startReceiver<Received>(file: string, flag: string, input: Serializable): Promise<{ stop(): Promise<Received> }> {
  const child = fork(file, [], { execArgv: ['--import', 'tsx'], env: { ...process.env, [flag]: '1' }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const message = <T>() =>
    new Promise<T>((resolve, reject) => {
      child.once('message', (m) => ((m as { error?: string }).error ? reject(new Error((m as { error: string }).error)) : resolve(m as T)));
      child.once('exit', (code) => reject(new Error(`stream receiver exited with ${code}`)));
    });
  const ready = message<{ ready: true }>();
  child.send(input);
  await ready;
  return {
    stop() {
      const done = message<Received>();
      child.send('stop');
      return done;
    },
  };
}

/** In a receiver: the parent's first message, what to open. */
export const receiverInput = <T>(): Promise<T> => new Promise<T>((resolve) => process.once('message', (m) => resolve(m as T)));

/** In a receiver: waits for the parent's 'stop', answers `received` and exits. */
export async function answerOnStop(received: Serializable): Promise<never> {
  await new Promise((resolve) => process.once('message', resolve));
  process.send?.(received, () => process.exit(0));
  return new Promise<never>(() => undefined);
}

/** Calls `onBlock` with each complete SSE block (frame or comment) of `res` and the moment its chunk arrived. */
export function onSseBlocks(res: IncomingMessage, onBlock: (block: string, arrivedAt: number) => void): void {
  res.setEncoding('utf8');
  let buffer = '';
  res.on('data', (chunk: string) => {
    const now = Date.now();
    buffer += chunk;
    let cut: number;
    while ((cut = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      onBlock(block, now);
    }
  });
}

/** A stream a receiver opens: its path (and headers), and what it does with each SSE block. */
export interface SseStream {
  path: string;
  headers?: Record<string, string>;
  onBlock: (block: string, arrivedAt: number) => void;
}

/**
 * In a receiver: opens `streams` on the server at `url`, one kept-alive connection each. Tells the parent
 * `{ ready: true }` once every stream sent its `: ready` comment, and `{ error }` for a stream refused or failed;
 * counts the streams the server ends in `received.closed`. With `batch`, opens that many at a time, each batch once
 * the previous one answered (thousands of simultaneous connects overflow the listen backlog: connection resets);
 * without, all at once.
 */
export async function openSseStreams(url: string, streams: readonly SseStream[], received: { closed: number }, batch?: number): Promise<void> {
  const target = new URL(url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: streams.length + 10 });
  let ready = 0;
  const openOne = (stream: SseStream) =>
    new Promise<void>((opened) => {
      const req = http.get({ host: target.hostname, port: target.port, path: stream.path, agent, ...(stream.headers ? { headers: stream.headers } : {}) }, (res) => {
        if (res.statusCode !== 200) process.send?.({ error: `stream answered ${res.statusCode}` });
        res.on('end', () => received.closed++);
        onSseBlocks(res, (block, now) => {
          if (block.startsWith(': ready') && ++ready === streams.length) process.send?.({ ready: true });
          stream.onBlock(block, now);
        });
      });
      req.on('response', () => opened());
      req.on('error', (err) => process.send?.({ error: String(err) }));
    });
  if (batch === undefined) {
    for (const stream of streams) void openOne(stream);
    return;
  }
  for (let i = 0; i < streams.length; i += batch) await Promise.all(streams.slice(i, i + batch).map(openOne));
}

// --- In-process apps: benchmarks that time one operation at a time (no load generator) run the app in their own
// process on a scratch PGlite.

export interface InProcessApp {
  deps: Deps;
  app: App;
  tenantId: string;
  /** A request as the tenant's admin; throws on any status ≥ 300. */
  call(method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown): Promise<any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- benches read arbitrary JSON
  close(): Promise<void>;
}

/** The real app on a new PGlite database in a scratch DATA_DIR, with one tenant, its admin token and rate limits lifted. */
export async function inProcessApp(name: string): Promise<InProcessApp> {
  // Loaded here, not at the top: benchmarks that fork a server process never load the app into their own.
  const [{ default: pino }, { buildApp }, { loadConfig }, { openPglite }, { wireHooks }, { createSolverPool }, { createTenant }, { systemClock }] = await Promise.all([
    import('pino'),
    import('../src/app.ts'),
    import('../src/config.ts'),
    import('../src/db/client.ts'),
    import('../src/hooks.ts'),
    import('../src/optimizer/index.ts'),
    import('../src/modules/identity/index.ts'),
    import('../src/shared/clock.ts'),
  ]);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `tourbook-bench-${name}-`));
  const database = await openPglite({ dataDir: path.join(dataDir, 'db') });
  await database.migrate();
  const config = loadConfig({}, { dataDir, logLevel: 'warn', rateLimit: { perSecond: 1_000_000, burst: 1_000_000 } });
  const deps: Deps = { db: database.db, database, clock: systemClock, config, log: pino({ level: 'warn' }), hooks: wireHooks(), optimizer: createSolverPool(config.optimizerThreads) };
  const app = await buildApp(deps);
  await app.ready();
  const { admin_token: token, tenant } = await createTenant(deps, { name: 'Bench' });
  return {
    deps,
    app,
    tenantId: tenant.id,
    async call(method, url, body) {
      const res = await app.inject({ method, url, headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) }, ...(body ? { payload: JSON.stringify(body) } : {}) });
      if (res.statusCode >= 300) throw new Error(`${method} ${url} → ${res.statusCode} ${res.body}`);
      return JSON.parse(res.body);
    },
    async close() {
      await app.close();
      await deps.optimizer.close();
      await database.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
