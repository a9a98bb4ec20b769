// Two versions of the code in one run (issue 27: "no regression, same-run comparison with the commit before"):
// the bookings benchmark's GET and create, each with its bare route, on this checkout and on another one
// (BENCH_BEFORE, a checkout of the earlier commit with node_modules, e.g. `git worktree add /tmp/before <commit>`
// and a link to this node_modules), each on a scratch PostgreSQL database of its own, rounds alternating
// before / after so the machine's drift falls on both. Prints each version's ratios and CPU per request.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { comparedTo, finishReport, load, machineDescription, scratchDatabase, startServer, summarize, type LoadResult, type ServerHandle } from './_harness.ts';
import type { BookingsInfo } from './_bookings-server.ts';

const BEFORE = process.env.BENCH_BEFORE;
if (!BEFORE) throw new Error('BENCH_BEFORE: the path of a checkout of the earlier commit (with node_modules)');
const AFTER = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DURATION = Number(process.env.BENCH_DURATION_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

console.log(`Machine: ${machineDescription()}`);
console.log(`before: ${BEFORE}; after: ${AFTER}; autocannon: 50 connections, ${DURATION} s per run after a 2 s warm-up, ${ROUNDS} rounds, medians\n`);

const seed = { BENCH_SMALL_BOOKINGS: '2000', BENCH_LARGE_BOOKINGS: '2000' };
const versions = [
  { label: 'before', checkout: path.resolve(BEFORE) },
  { label: 'after', checkout: AFTER },
] as const;
const started: { label: string; server: ServerHandle<BookingsInfo>; drop: () => Promise<void> }[] = [];
const rows: Record<string, string | number>[] = [];
let failed = false;
try {
  for (const { label, checkout } of versions) {
    const database = await scratchDatabase('postgres');
    started.push({ label, server: await startServer<BookingsInfo>(path.join(checkout, 'bench', '_bookings-server.ts'), database, seed), drop: database.drop });
  }
  const auth = (token: string) => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json' });
  for (const what of ['GET booking', 'create booking'] as const) {
    const runs: Record<string, LoadResult[]> = {};
    for (let round = 0; round < ROUNDS; round++) {
      // before, after, after, before, … : neither version always runs first.
      const order = round % 2 ? [...started].reverse() : started;
      for (const { label, server } of order) {
        const { info } = server;
        const [bare, real] =
          what === 'GET booking'
            ? [{ url: info.bareSelectUrl }, { url: info.realShowUrl, headers: auth(info.adminToken) }]
            : [{ url: info.bareInsertUrl, method: 'POST' as const }, { url: info.realCreateUrl, method: 'POST' as const, body: info.createBody, headers: auth(info.adminToken) }];
        (runs[`${label} bare`] ??= []).push(await load({ ...bare, durationSeconds: DURATION, server, label: `${label} bare` }));
        (runs[label] ??= []).push(await load({ ...real, durationSeconds: DURATION, server, label: `${label} ${what}` }));
      }
    }
    if (Object.values(runs).flat().some((r) => r.non2xx || r.errors)) failed = true;
    for (const { label } of started) {
      const bareRow = summarize(`${label} bare ${what === 'GET booking' ? 'SELECT' : 'INSERT'}`, runs[`${label} bare`]!);
      rows.push(bareRow, comparedTo(bareRow, summarize(`${label} ${what}`, runs[label]!), { ratio: 'real/bare', cpu: 'CPU bare/real' }));
    }
  }
} finally {
  for (const { server, drop } of started) {
    await server.stop();
    await drop();
  }
}
finishReport(rows, failed);
