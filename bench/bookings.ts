// Bookings (issue 3), on PGlite and PostgreSQL, 50 connections × 10 s per run:
// (1) POST /api/hailing/bookings (2 stops from places, 1 package, its events) vs a bare single-row INSERT
//     transaction route — goal ratio ≥ 0.5;
// (2) GET /api/hailing/bookings/{id} vs a bare primary-key SELECT route — goal ratio ≥ 0.5, p99 ≤ 50 ms;
// (3) the first page of GET /api/hailing/bookings as a manager with 10,000 vs 200,000 bookings — goal ≤ 1.5× slower.
// Each comparison alternates bare, real, bare, real… (BENCH_ROUNDS, default 3) and reports medians, so a noisy
// neighbour on a shared machine skews both sides alike; the server's CPU time per request is reported beside req/s.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { comparedTo, finishReport, load, machineDescription, scratchDatabase, startServer, summarize, type DatabaseKind, type LoadOptions, type LoadResult } from './_harness.ts';
import type { BookingsInfo } from './_bookings-server.ts';

const SERVER = path.join(path.dirname(fileURLToPath(import.meta.url)), '_bookings-server.ts');
const DURATION = Number(process.env.BENCH_DURATION_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const kinds: DatabaseKind[] = (process.env.BENCH_DATABASES?.split(',') as DatabaseKind[] | undefined) ?? ['pglite', 'postgres'];

console.log(`Machine: ${machineDescription()}`);
console.log(`autocannon: 50 connections, ${DURATION} s per run after a 2 s warm-up, ${ROUNDS} alternating rounds, medians\n`);

const rows: Record<string, string | number>[] = [];
let failed = false;
const check = (runs: LoadResult[]) => {
  if (runs.some((r) => r.non2xx || r.errors)) failed = true;
};

for (const kind of kinds) {
  const database = await scratchDatabase(kind);
  const server = await startServer<BookingsInfo>(SERVER, database);
  const { info } = server;
  const auth = (token: string) => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json' });
  /** Alternating rounds of a bare route and the real one; medians of each, with the real/bare ratios. */
  const compare = async (name: string, ratio: string, bare: Omit<LoadOptions, 'label'>, real: Omit<LoadOptions, 'label'>) => {
    const bareRuns: LoadResult[] = [];
    const realRuns: LoadResult[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      bareRuns.push(await load({ ...bare, label: `${kind} bare` }));
      realRuns.push(await load({ ...real, label: `${kind} ${name}` }));
    }
    check([...bareRuns, ...realRuns]);
    const bareRow = summarize(`${kind} bare ${name === 'create booking' ? 'INSERT' : 'SELECT'}`, bareRuns);
    rows.push(bareRow, comparedTo(bareRow, summarize(`${kind} ${name}`, realRuns), { ratio, cpu: 'CPU bare/real' }));
  };
  try {
    const common = { durationSeconds: DURATION, server };
    await compare('GET booking', 'GET/bare', { ...common, url: info.bareSelectUrl }, { ...common, url: info.realShowUrl, headers: auth(info.adminToken) });
    const small = await load({ ...common, label: `${kind} list, 10k bookings`, url: info.listUrl, headers: auth(info.smallManagerToken) });
    const large = await load({ ...common, label: `${kind} list, 200k bookings`, url: info.listUrl, headers: auth(info.largeManagerToken) });
    check([small, large]);
    rows.push(summarize(small.label, [small]), { ...summarize(large.label, [large]), 'slowdown 200k/10k': (small.requestsPerSecond / large.requestsPerSecond).toFixed(2) });
    // Writes last: the hundreds of thousands of rows they add keep autovacuum and the checkpointer busy for a while.
    await compare(
      'create booking',
      'create/bare',
      { ...common, url: info.bareInsertUrl, method: 'POST' },
      { ...common, url: info.realCreateUrl, method: 'POST', body: info.createBody, headers: auth(info.adminToken) },
    );
  } finally {
    await server.stop();
    await database.drop();
  }
}
finishReport(rows, failed);
