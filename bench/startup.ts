// Start-up (issue 12): `tourbook --help`, a fresh `serve` to /readyz and a restart, from the built binary, against
// bare Node doing the least it can (an empty script; an HTTP server answering /readyz). Goals on a quiet machine:
// --help ≤ 0.3 s, fresh serve ≤ 3 s, restart ≤ 1.5 s. Runs alternate bare and real (BENCH_ROUNDS, default 5) and
// report medians; the serve runs also split the time by the service's own log lines (JSON, with timestamps).
// STARTUP_BASELINE=DIR also times an older build in the same rounds: DIR holds that build's bin/, dist/ and migrations/
// (and node_modules, or a link to this checkout's), e.g. copied before a change: `mkdir /tmp/old && cp -r bin dist
// migrations package.json /tmp/old && ln -s $PWD/node_modules /tmp/old/`.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, machineDescription, median, printTable } from './_harness.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(ROOT, 'bin', 'tourbook.js');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const BASELINE = process.env.STARTUP_BASELINE ? path.resolve(process.env.STARTUP_BASELINE) : null;
const GOALS = { help: 0.3, fresh: 3, restart: 1.5 };

const seconds = (ms: number) => Math.round(ms) / 1000;
const load = () => os.loadavg().map((v) => v.toFixed(1)).join(' ');

/** Wall time of a command run to completion. */
function timeCommand(args: string[]): number {
  const started = performance.now();
  const result = spawnSync(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'], cwd: ROOT });
  if (result.status !== 0) throw new Error(`${args.join(' ')} failed: ${result.stderr}`);
  return performance.now() - started;
}

interface ServeRun {
  ms: number;
  /** CPU time (user + system) the server used until ready: what a busy neighbour cannot inflate much. */
  cpuMs: number;
  /**
   * The main thread's share: the critical path. The rest is V8's background threads, mostly TurboFan recompiling
   * PGlite's hot WebAssembly functions, which on two cores competes with the main thread but is not waited for.
   */
  mainCpuMs: number;
  /** ms from the spawn to each of the service's start-up messages (first words as the key). */
  phases: Record<string, number>;
}

/** Spawns a server and polls /readyz every 10 ms; the process is stopped with SIGTERM once it answers 200. */
async function timeServe(args: string[], env: Record<string, string>, port: number): Promise<ServeRun> {
  const started = performance.now();
  const startedAt = Date.now();
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', LOG_FORMAT: 'json' }, stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let ready = 0;
  while (!ready) {
    if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited with ${child.exitCode}: ${output}`);
    const ok = await fetch(`http://127.0.0.1:${port}/readyz`).then((r) => r.ok, () => false);
    if (ok) ready = performance.now() - started;
    else await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const cpuMs = cpuTimeMs(child.pid!);
  const mainCpuMs = cpuTimeMs(child.pid!, child.pid!);
  child.kill('SIGTERM');
  await exited;
  const phases: Record<string, number> = {};
  for (const line of output.split('\n')) {
    if (!line.startsWith('{')) continue;
    const entry = JSON.parse(line) as { time: number; msg: string };
    const key = entry.msg.split(/[\s:(]/).slice(0, 2).join(' ');
    phases[key] ??= entry.time - startedAt;
  }
  return { ms: ready, cpuMs, mainCpuMs, phases };
}

/** utime + stime of a live process (or of one of its threads) from /proc (Linux), in ms; NaN elsewhere. */
function cpuTimeMs(pid: number, thread?: number): number {
  try {
    const fields = fs.readFileSync(thread ? `/proc/${pid}/task/${thread}/stat` : `/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // Fields 14 and 15 of stat(5), counted after the command name; clock ticks are 100 per second on Linux.
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

const BARE_SERVER = `require('node:http').createServer((q, s) => s.end('ok')).listen(+process.env.PORT, process.env.HOST)`;

if (!fs.existsSync(path.join(ROOT, 'dist', 'main.js'))) throw new Error('dist/ is missing: npm run build');
console.log(`Machine: ${machineDescription()}; load average at start ${load()}`);
console.log(`${ROUNDS} alternating rounds, medians; wall time until the command exits (--help) or /readyz answers 200\n`);

const runs = {
  bareNode: [] as number[],
  help: [] as number[],
  helpSource: [] as number[],
  bareServer: [] as number[],
  bareServerCpu: [] as number[],
  fresh: [] as ServeRun[],
  restart: [] as ServeRun[],
  baselineFresh: [] as ServeRun[],
  baselineRestart: [] as ServeRun[],
};

/** A fresh start on a new DATA_DIR, then a restart on it. */
async function freshAndRestart(bin: string, port: number): Promise<[ServeRun, ServeRun]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tourbook-bench-startup-'));
  try {
    const env = { DATA_DIR: dataDir, DATABASE_URL: '' };
    return [await timeServe([bin, 'serve'], env, port), await timeServe([bin, 'serve'], env, port)];
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

for (let round = 0; round < ROUNDS; round++) {
  runs.bareNode.push(timeCommand(['-e', '0']));
  runs.help.push(timeCommand([BIN, '--help']));
  // The old way (decision 0001): the same command from the TypeScript sources through tsx.
  runs.helpSource.push(timeCommand(['--import', 'tsx', path.join(ROOT, 'src', 'main.ts'), '--help']));
  const port = await freePort();
  const bare = await timeServe(['-e', BARE_SERVER], {}, port);
  runs.bareServer.push(bare.ms);
  runs.bareServerCpu.push(bare.cpuMs);
  // Alternated, the older build first in odd rounds: a neighbour's burst then hits both about equally.
  const order = BASELINE && round % 2 ? ['baseline', 'this'] : ['this', 'baseline'];
  for (const which of order) {
    if (which === 'this') {
      const [fresh, restart] = await freshAndRestart(BIN, port);
      runs.fresh.push(fresh);
      runs.restart.push(restart);
    } else if (BASELINE) {
      const [fresh, restart] = await freshAndRestart(path.join(BASELINE, 'bin', 'tourbook.js'), port);
      runs.baselineFresh.push(fresh);
      runs.baselineRestart.push(restart);
    }
  }
}

const bareNode = median(runs.bareNode);
const bareServer = median(runs.bareServer);
const row = (label: string, ms: number, base: number, baseLabel: string, goal: number | null, cpu?: number[], mainCpu?: number[]) => ({
  measure: label,
  'median s': seconds(ms),
  'CPU s': cpu ? seconds(median(cpu)) : '',
  'main thread CPU s': mainCpu ? seconds(median(mainCpu)) : '',
  [`× bare`]: `${(ms / base).toFixed(1)} × ${baseLabel}`,
  goal: goal === null ? '' : `≤ ${goal} s ${ms / 1000 <= goal ? 'met' : 'missed'}`,
});
printTable([
  row('node -e 0 (bare)', bareNode, bareNode, 'node', null),
  row('tourbook --help', median(runs.help), bareNode, 'node', GOALS.help),
  row('--help from source via tsx', median(runs.helpSource), bareNode, 'node', null),
  row('bare http server to ready', bareServer, bareServer, 'server', null, runs.bareServerCpu),
  row('serve, fresh DATA_DIR, to /readyz', median(runs.fresh.map((r) => r.ms)), bareServer, 'server', GOALS.fresh, runs.fresh.map((r) => r.cpuMs), runs.fresh.map((r) => r.mainCpuMs)),
  row('serve, restart, to /readyz', median(runs.restart.map((r) => r.ms)), bareServer, 'server', GOALS.restart, runs.restart.map((r) => r.cpuMs), runs.restart.map((r) => r.mainCpuMs)),
  ...(BASELINE
    ? [
        row('baseline build: serve, fresh', median(runs.baselineFresh.map((r) => r.ms)), bareServer, 'server', null, runs.baselineFresh.map((r) => r.cpuMs), runs.baselineFresh.map((r) => r.mainCpuMs)),
        row('baseline build: serve, restart', median(runs.baselineRestart.map((r) => r.ms)), bareServer, 'server', null, runs.baselineRestart.map((r) => r.cpuMs), runs.baselineRestart.map((r) => r.mainCpuMs)),
      ]
    : []),
]);

const phaseTable = (label: string, serveRuns: ServeRun[]) => {
  const keys = [...new Set(serveRuns.flatMap((r) => Object.keys(r.phases)))];
  console.log(`\n${label}: ms from spawn to each start-up message (median)`);
  printTable(keys.map((key) => ({ message: key, ms: median(serveRuns.map((r) => r.phases[key]).filter((v): v is number => v !== undefined)) })));
};
phaseTable('Fresh serve', runs.fresh);
phaseTable('Restart', runs.restart);
if (BASELINE) {
  phaseTable(`Baseline build (${BASELINE}), fresh`, runs.baselineFresh);
  phaseTable('Baseline build, restart', runs.baselineRestart);
}
console.log(`\nLoad average at end ${load()} (a shared machine: compare the ratios, not the seconds)`);
