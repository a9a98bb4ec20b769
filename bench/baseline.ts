// Baseline (issue 2): a bare Fastify primary-key SELECT vs the real authenticated GET /api/places/{id}, on PGlite and
// PostgreSQL, 50 connections × 10 s per run. Goal: real/bare ≥ 0.6 on both databases.
// Runs alternate bare, real, bare, real… (BENCH_ROUNDS, default 3) and report medians, so a noisy neighbour on a
// shared machine skews both sides alike instead of one; server CPU time per request is reported beside req/s because
// it barely moves when other processes compete for the cores.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { comparedTo, finishReport, load, machineDescription, scratchDatabase, startServer, summarize, type DatabaseKind, type LoadResult } from './_harness.ts';
import type { BaselineInfo } from './_baseline-server.ts';

const SERVER = path.join(path.dirname(fileURLToPath(import.meta.url)), '_baseline-server.ts');
const DURATION = Number(process.env.BENCH_DURATION_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const kinds: DatabaseKind[] = (process.env.BENCH_DATABASES?.split(',') as DatabaseKind[] | undefined) ?? ['pglite', 'postgres'];

console.log(`Machine: ${machineDescription()}`);
console.log(`autocannon: 50 connections, ${DURATION} s per run after a 2 s warm-up, ${ROUNDS} alternating rounds, medians\n`);


const rows: Record<string, string | number>[] = [];
let failed = false;
for (const kind of kinds) {
  const database = await scratchDatabase(kind);
  let server: Awaited<ReturnType<typeof startServer<BaselineInfo>>> | null = null;
  try {
    server = await startServer<BaselineInfo>(SERVER, database);
    const bare: LoadResult[] = [];
    const real: LoadResult[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const common = { server, durationSeconds: DURATION };
      bare.push(await load({ ...common, label: `${kind} bare`, url: server.info.bareUrl }));
      real.push(await load({ ...common, label: `${kind} real`, url: server.info.realUrl, headers: { authorization: `Bearer ${server.info.token}` } }));
    }
    const bareRow = summarize(`${kind} bare`, bare);
    const realRow = summarize(`${kind} real`, real);
    rows.push(bareRow, comparedTo(bareRow, realRow, { ratio: 'real/bare', cpu: 'bare/real CPU' }));
    if ([...bare, ...real].some((r) => r.non2xx || r.errors)) failed = true;
  } finally {
    await server?.stop();
    await database.drop();
  }
}
finishReport(rows, failed);
