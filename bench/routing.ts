// The road matrix bench (issue 38, docs/performance.md "Road travel times"): our one-to-many search on the Monaco
// region against a bare baseline in the same run — pgRouting's pgr_dijkstraCostMatrix on PostgreSQL over the same
// extract, imported with osm2pgrouting at our road-class speeds (test/pgrouting.ts, decision 1701) — for 200 × 200
// and 1,000 × 1,000 points. The points are pgRouting's vertices of its largest connected part, in a fixed
// pseudo-random order, kept only where they snap onto our graph (within SNAP_M of one of our roads: the same
// junction); both searches get the same points. Ours runs in this process on one core, as a request runs it; the
// baseline is one query (counted, so that shipping a million rows to the client is not charged to it). Both are
// timed by the clock and by the CPU they used (this process's; the PostgreSQL backend's from /proc, in 10 ms ticks):
// on a machine shared with other work the CPU figures are the ones that say what one core does.
//
//   npm run bench -- routing
//   BENCH_ROUNDS=5 BENCH_ROUTING_SIZES=200,1000 npm run bench -- routing
//
// Profile ours with `node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx bench/routing.ts`.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadPgRouting, pgRoutingMissing } from '../test/pgrouting.ts';
import { readOsmFile } from '../src/modules/region/index.ts';
import { decodeRoadGraph, encodeRoadGraph } from '../src/modules/region/roads/encoding.ts';
import { buildRoadGraph } from '../src/modules/region/roads/graph.ts';
import { roadNetworkOf } from '../src/modules/region/roads/network.ts';
import { roadMatrix } from '../src/modules/region/roads/search.ts';
import type { Snapped } from '../src/modules/region/roads/snap.ts';
import { CLASS_SPEED_KMH } from '../src/modules/region/roads/tags.ts';
import { BENCH_DATABASE_URL } from './_harness.ts';

const MONACO = path.resolve(import.meta.dirname, '../regions/monaco.osm.pbf');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SIZES = (process.env.BENCH_ROUTING_SIZES ?? '200,1000').split(',').map(Number);
/** A pgRouting vertex is "on our graph" when one of our roads passes this close: the same junction. */
const SNAP_M = 5;
/** Issue 38's goals, ms on one core. */
const GOAL_MS: Record<number, number> = { 200: 150, 1000: 2000 };
/** The directed edges at their travel seconds, as test/pgrouting.ts's matrix(…, 'cost_s') asks them. */
const EDGES = `SELECT gid AS id, source, target, CASE WHEN cost < 0 THEN -1 ELSE cost_s END AS cost, CASE WHEN reverse_cost < 0 THEN -1 ELSE reverse_cost_s END AS reverse_cost FROM ways`;

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const ms = (x: number): string => (x >= 100 ? x.toFixed(0) : x.toFixed(1));
const cpuMs = (start: NodeJS.CpuUsage): number => {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
};
/** CPU ms a process has used (utime + stime of /proc/<pid>/stat, in clock ticks of 10 ms). */
const procCpuMs = (pid: number): number => {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
};

const missing = await pgRoutingMissing(BENCH_DATABASE_URL);
if (missing) {
  console.error(`routing bench: the baseline needs pgRouting on ${BENCH_DATABASE_URL}: ${missing}`);
  process.exit(1);
}

// Our graph as the region import stores it and a request decodes it (roads/step.ts, roads/network.ts).
let t0 = performance.now();
const osm = await readOsmFile(MONACO);
const network = roadNetworkOf('bench', decodeRoadGraph(encodeRoadGraph(buildRoadGraph(osm))));
console.log(`our graph: ${network.graph.nodeLat.length} nodes, ${network.graph.edgeTo.length} directed edges (built in ${ms(performance.now() - t0)} ms)`);

t0 = performance.now();
const pgr = await loadPgRouting(BENCH_DATABASE_URL, MONACO, `pgr_bench_${process.pid}`, CLASS_SPEED_KMH);
console.log(`pgRouting: loaded by osm2pgrouting in ${ms(performance.now() - t0)} ms`);

try {
  const { rows: candidates } = await pgr.client.query<{ id: string; lat: string; lon: string }>('SELECT id, lat, lon FROM main_vertices ORDER BY md5(id::text)');
  const kept: { id: number; snapped: Snapped }[] = [];
  let dropped = 0;
  for (const v of candidates) {
    const snapped = network.snap.snap(Number(v.lat), Number(v.lon));
    if (snapped && snapped.offRoadM <= SNAP_M) kept.push({ id: Number(v.id), snapped });
    else dropped++;
  }
  console.log(`points: ${candidates.length} pgRouting vertices, ${kept.length} on our graph, ${dropped} dropped (farther than ${SNAP_M} m from our roads)`);

  const backend = Number((await pgr.client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid);
  const rows: string[] = [];
  for (const size of SIZES) {
    if (kept.length < size) {
      console.log(`${size} × ${size}: only ${kept.length} points on both graphs, skipped`);
      continue;
    }
    const points = kept.slice(0, size);
    const snapped = points.map((p) => p.snapped);
    const ids = points.map((p) => p.id);
    // Warm: the first search JIT-compiles, and the first pgRouting query reads the ways into the cache.
    const answer = roadMatrix(network.workspace, snapped, snapped);
    await pgr.client.query('SELECT count(*) FROM pgr_dijkstraCostMatrix($1, $2::bigint[], directed := true)', [EDGES, ids]);
    const ours: number[] = [];
    const theirs: number[] = [];
    const oursCpu: number[] = [];
    const theirsCpu: number[] = [];
    // Alternating, so that a busy machine moves both sides.
    for (let round = 0; round < ROUNDS; round++) {
      let start = performance.now();
      const cpu = process.cpuUsage();
      roadMatrix(network.workspace, snapped, snapped);
      oursCpu.push(cpuMs(cpu));
      ours.push(performance.now() - start);
      start = performance.now();
      const before = procCpuMs(backend);
      await pgr.client.query('SELECT count(*) FROM pgr_dijkstraCostMatrix($1, $2::bigint[], directed := true)', [EDGES, ids]);
      theirsCpu.push(procCpuMs(backend) - before);
      theirs.push(performance.now() - start);
    }
    // The two agree (decision 1701 measures it; here only as a check that both searched the same graph).
    const theirMatrix = size <= 200 ? await pgr.matrix(ids, 'cost_s') : null;
    let agreement = '';
    if (theirMatrix) {
      const diffs: number[] = [];
      for (let c = 0; c < size * size; c++) if (c % (size + 1) !== 0 && Number.isFinite(theirMatrix[c]!) && theirMatrix[c]! > 0) diffs.push(Math.abs(answer.seconds[c]! - theirMatrix[c]!) / theirMatrix[c]!);
      agreement = `, seconds vs pgRouting: median ${(median(diffs) * 100).toFixed(2)} %`;
    }
    const unreachable = answer.seconds.reduce((n, s) => n + (Number.isFinite(s) ? 0 : 1), 0);
    const line =
      `${size} × ${size}: ours ${ms(median(ours))} ms (min ${ms(Math.min(...ours))}; CPU ${ms(median(oursCpu))} ms), ` +
      `pgr_dijkstraCostMatrix ${ms(median(theirs))} ms (min ${ms(Math.min(...theirs))}; CPU ${ms(median(theirsCpu))} ms), ` +
      `ratio pgRouting/ours ${(median(theirs) / median(ours)).toFixed(1)} (CPU ${(median(theirsCpu) / median(oursCpu)).toFixed(1)}) — goal ≤ ${GOAL_MS[size] ?? '?'} ms and ≥ 1.0${agreement}; ${unreachable} cells unreachable`;
    console.log(line);
    rows.push(line);
  }
  console.log(`\nrouting bench (${ROUNDS} rounds, medians; load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')} on ${os.cpus().length} cores):\n${rows.join('\n')}`);
} finally {
  await pgr.drop();
}
