// Maps (issue 38; docs/performance.md "Maps"), with the built CLI (npm run build first):
// (1) tiles: GET /tiles/{z}/{x}/{y}.pbf of the demo region (Monaco, z11–16, each tile in turn, BENCH_MAPS_TILE_ROUNDS
//     rounds) from `tourbook serve` on PGlite and on PostgreSQL: p50/p95 against GET /healthz from the same process in
//     the same run — goal p95 ≤ 5 ms — and the first pass's, each tile read from the database (cold);
// (2) import: the generated grid city (bench/grid-city.ts) at BENCH_MAPS_NODES road nodes (10000,30000,100000) into a
//     fresh PGlite DATA_DIR with `tourbook region import`: wall time, peak RSS (/usr/bin/time -v), the data directory's
//     growth per road node — how it scales.
// The map page's frames/s with 500 drivers against the blank style is bench/console.ts's map part (?map=blank there).
// BENCH_MAPS_PARTS=tiles,import picks parts; BENCH_DATABASES=pglite,postgres picks databases for (1).
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { finishReport, loadAverage, machineDescription, quantile, scratchDatabase, type DatabaseKind } from './_harness.ts';
import { writeGridCity } from './grid-city.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CLI = path.join(root, 'dist', 'main.js');
const DEMO = path.join(root, 'regions', 'monaco.osm.pbf');
const PARTS = (process.env.BENCH_MAPS_PARTS ?? 'tiles,import').split(',');
const DATABASES = (process.env.BENCH_DATABASES ?? 'pglite,postgres').split(',') as DatabaseKind[];
const ROUNDS = Number(process.env.BENCH_MAPS_TILE_ROUNDS ?? 5);
const NODES = (process.env.BENCH_MAPS_NODES ?? '10000,30000,100000').split(',').map(Number);

const cli = (args: string[], env: Record<string, string>) =>
  execFileSync(process.execPath, [CLI, ...args], { env: { ...process.env, LOG_LEVEL: 'warn', ...env }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

function serve(env: Record<string, string>, port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, [CLI, 'serve'], { env: { ...process.env, LOG_LEVEL: 'warn', PORT: String(port), RATE_LIMIT_PER_SECOND: '1000000', RATE_LIMIT_BURST: '1000000', ...env }, stdio: 'inherit' });
  return new Promise((resolve, reject) => {
    const started = Date.now();
    child.once('exit', (code) => reject(new Error(`server exited (${code}) before it answered /healthz`)));
    const poll = () =>
      fetch(`http://127.0.0.1:${port}/healthz`)
        .then((res) => (res.ok ? resolve(child) : setTimeout(poll, 500)))
        .catch(() => (Date.now() - started > 120_000 ? reject(new Error('server did not start')) : setTimeout(poll, 500)));
    poll();
  });
}

async function timeGets(base: string, paths: string[]): Promise<number[]> {
  const times: number[] = [];
  for (const p of paths) {
    const t0 = performance.now();
    const res = await fetch(base + p, { headers: { 'accept-encoding': 'gzip' } });
    await res.arrayBuffer();
    times.push(performance.now() - t0);
    if (!res.ok) throw new Error(`${p}: ${res.status}`);
  }
  return times;
}

async function tilesPart(kind: DatabaseKind): Promise<Record<string, string | number>> {
  const database = await scratchDatabase(kind);
  // A server on PostgreSQL needs a master key and a blob store, as a deployment has (docs/operations.md): one process here.
  const env: Record<string, string> = { DATA_DIR: database.dataDir, DATABASE_URL: database.url ?? '', REPORTS_MASTER_KEY: Buffer.alloc(32, 7).toString('base64'), BLOB_DIR_SHARED: 'true' };
  // PGlite starts from the embedded seed (the demo region in it); PostgreSQL gets it imported.
  if (kind === 'postgres') {
    cli(['migrate'], env);
    cli(['region', 'import', DEMO, '--name', 'monaco'], env);
  }
  const port = 39000 + Math.floor(Math.random() * 1000);
  const server = await serve(env, port);
  try {
    const base = `http://127.0.0.1:${port}`;
    const coverage = (await (await fetch(`${base}/tiles/tiles.json`)).json()) as { bounds: [number, number, number, number]; minzoom: number; maxzoom: number };
    const [w, s, e, n] = coverage.bounds;
    const tiles: string[] = [];
    for (let z = coverage.minzoom; z <= coverage.maxzoom; z++) {
      const x = (lng: number) => Math.floor(((lng + 180) / 360) * 2 ** z);
      const y = (lat: number) => Math.floor(((1 - Math.log(Math.tan((lat * Math.PI) / 180) + 1 / Math.cos((lat * Math.PI) / 180)) / Math.PI) / 2) * 2 ** z);
      for (let i = x(w); i <= x(e); i++) for (let j = y(n); j <= y(s); j++) tiles.push(`/tiles/${z}/${i}/${j}.pbf`);
    }
    // The first pass reads each tile from the database (cold); the rounds after it are answered from the process's
    // tile cache as a busy server's are (decision 1780).
    const held = [];
    const cold: number[] = [];
    for (const t of tiles) {
      const t0 = performance.now();
      const res = await fetch(base + t, { headers: { 'accept-encoding': 'gzip' } });
      await res.arrayBuffer();
      if (!res.ok) continue;
      held.push(t);
      cold.push(performance.now() - t0);
    }
    await timeGets(base, held.slice(0, 50)); // warm-up
    const tile: number[] = [];
    const bare: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      bare.push(...(await timeGets(base, held.map(() => '/healthz'))));
      tile.push(...(await timeGets(base, held)));
    }
    const [p50, p95, b50, b95] = [quantile(tile, 0.5), quantile(tile, 0.95), quantile(bare, 0.5), quantile(bare, 0.95)];
    const coldFigure = `cold p50 ${quantile(cold, 0.5).toFixed(2)} / p95 ${quantile(cold, 0.95).toFixed(2)} ms`;
    return { part: `tiles (${kind})`, figure: `p50 ${p50.toFixed(2)} / p95 ${p95.toFixed(2)} ms (${tile.length} GETs of ${held.length} tiles; ${coldFigure})`, baseline: `/healthz p50 ${b50.toFixed(2)} / p95 ${b95.toFixed(2)} ms`, ratio: (p95 / b95).toFixed(2), met: String(p95 <= 5) };
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    await database.drop();
  }
}

const du = (dir: string) => Number(execFileSync('du', ['-sb', dir], { encoding: 'utf8' }).split('\t')[0]);

function importPart(nodes: number): Record<string, string | number> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tourbook-grid-'));
  try {
    const file = path.join(dir, 'grid.osm.pbf');
    const city = writeGridCity(nodes, file);
    const dataDir = path.join(dir, 'data');
    fs.mkdirSync(dataDir);
    const env = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'warn' };
    execFileSync(process.execPath, [CLI, 'migrate'], { env, stdio: 'ignore' });
    const before = du(dataDir);
    const started = performance.now();
    // /usr/bin/time -v reports the import's peak resident memory on stderr.
    const run = spawnSync('/usr/bin/time', ['-v', process.execPath, CLI, 'region', 'import', file, '--name', 'grid', '--json'], { env, encoding: 'utf8', maxBuffer: 1 << 26 });
    const seconds = (performance.now() - started) / 1000;
    if (run.status !== 0) throw new Error(`region import failed: ${run.stderr.slice(-2000)}`);
    const report = JSON.parse(run.stdout.trim().split('\n').pop()!) as { counts: Record<string, number>; seconds: number };
    const peakKiB = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(run.stderr)?.[1] ?? NaN);
    const growth = du(dataDir) - before;
    return {
      part: `import ${city.nodes} nodes`,
      figure: `${seconds.toFixed(1)} s wall (import's own ${report.seconds} s), peak RSS ${(peakKiB / 1024).toFixed(0)} MiB; ${report.counts.road_edges} edges, ${report.counts.addresses} addresses, ${report.counts.tiles} tiles`,
      baseline: `${(growth / 2 ** 20).toFixed(1)} MiB data dir growth, ${Math.round(growth / city.nodes)} B per node`,
      ratio: (seconds / city.nodes * 1e6).toFixed(0) + ' µs/node',
      met: 'n/a',
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (!fs.existsSync(CLI)) throw new Error('npm run build first: bench/maps.ts runs the built CLI');
console.log(`Maps bench on ${machineDescription()}; load average ${loadAverage()}`);
const rows: Record<string, string | number>[] = [];
if (PARTS.includes('tiles')) for (const kind of DATABASES) rows.push(await tilesPart(kind));
if (PARTS.includes('import')) for (const n of NODES) rows.push(importPart(n));
finishReport(rows, false);
