// Bookings (issue 3), on PGlite and PostgreSQL, 50 connections × 10 s per run:
// (1) POST /api/hailing/bookings (2 stops from places, 1 package, its events) vs a bare single-row INSERT
//     transaction route — goal ratio ≥ 0.5;
// (2) GET /api/hailing/bookings/{id} vs a bare primary-key SELECT route — goal ratio ≥ 0.5, p99 ≤ 50 ms;
// (3) the first page of GET /api/hailing/bookings as a manager with 10,000 vs 200,000 bookings — goal ≤ 1.5× slower.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { load, machineDescription, printTable, scratchDatabase, startServer, type DatabaseKind, type LoadResult } from './_harness.ts';
import type { BookingsInfo } from './_bookings-server.ts';

const SERVER = path.join(path.dirname(fileURLToPath(import.meta.url)), '_bookings-server.ts');
const DURATION = Number(process.env.BENCH_DURATION_SECONDS ?? 10);
const kinds: DatabaseKind[] = (process.env.BENCH_DATABASES?.split(',') as DatabaseKind[] | undefined) ?? ['pglite', 'postgres'];

console.log(`Machine: ${machineDescription()}`);
console.log(`autocannon: 50 connections, ${DURATION} s per run (after a 2 s warm-up)\n`);

const row = (r: LoadResult, ratio?: { name: string; value: number }) => ({
  run: r.label,
  'req/s': Math.round(r.requestsPerSecond),
  'p50 ms': r.p50Ms,
  'p99 ms': r.p99Ms,
  // The steadier measure on a busy machine: the server's CPU time per request.
  'server CPU µs/req': Math.round(r.cpuMicrosPerRequest ?? 0),
  'non-2xx': r.non2xx,
  'errors/timeouts': r.errors,
  ...(ratio ? { ratio: `${ratio.name} ${ratio.value.toFixed(2)}` } : {}),
});

const rows: Record<string, string | number>[] = [];
let failed = false;
for (const kind of kinds) {
  const database = await scratchDatabase(kind);
  const server = await startServer<BookingsInfo>(SERVER, database);
  const { info } = server;
  const auth = (token: string) => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json' });
  try {
    const bareInsert = await load({ label: `${kind} bare INSERT`, url: info.bareInsertUrl, method: 'POST', durationSeconds: DURATION, server });
    const create = await load({ label: `${kind} create booking`, url: info.realCreateUrl, method: 'POST', body: info.createBody, headers: auth(info.adminToken), durationSeconds: DURATION, server });
    const bareSelect = await load({ label: `${kind} bare SELECT`, url: info.bareSelectUrl, durationSeconds: DURATION, server });
    const show = await load({ label: `${kind} GET booking`, url: info.realShowUrl, headers: auth(info.adminToken), durationSeconds: DURATION, server });
    const small = await load({ label: `${kind} list, 10k bookings`, url: info.listUrl, headers: auth(info.smallManagerToken), durationSeconds: DURATION, server });
    const large = await load({ label: `${kind} list, 200k bookings`, url: info.listUrl, headers: auth(info.largeManagerToken), durationSeconds: DURATION, server });
    rows.push(
      row(bareInsert),
      row(create, { name: 'create/bare', value: create.requestsPerSecond / bareInsert.requestsPerSecond }),
      row(bareSelect),
      row(show, { name: 'GET/bare', value: show.requestsPerSecond / bareSelect.requestsPerSecond }),
      row(small),
      row(large, { name: 'slowdown 200k/10k', value: small.requestsPerSecond / large.requestsPerSecond }),
    );
    for (const r of [bareInsert, create, bareSelect, show, small, large]) if (r.non2xx || r.errors) failed = true;
  } finally {
    await server.stop();
    await database.drop();
  }
}
printTable(rows);
if (failed) {
  console.error('Some requests failed: the figures above are not valid.');
  process.exitCode = 1;
}
