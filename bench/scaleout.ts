// Scale-out (issue 26): the bookings read benchmark against one API process, then against two processes on the same
// PostgreSQL database, each taking half of the connections at once, alternating (BENCH_ROUNDS, medians). The ratio
// two/one says what a second process on the same machine adds: on a machine whose cores the database and the load
// generator also use, little; with a free core per process, close to 2 (an API process is one event loop).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { finishReport, load, machineDescription, median, scratchDatabase, startServer, type LoadResult } from './_harness.ts';
import type { BookingsInfo } from './_bookings-server.ts';

const SERVER = path.join(path.dirname(fileURLToPath(import.meta.url)), '_bookings-server.ts');
const DURATION = Number(process.env.BENCH_DURATION_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = 50;
// Each process seeds its own tenants; the list pair of the bookings bench is not measured here.
const SEED = { BENCH_SMALL_BOOKINGS: '1000', BENCH_LARGE_BOOKINGS: '1000' };

console.log(`Machine: ${machineDescription()}`);
console.log(`GET booking, ${CONNECTIONS} connections in all, ${DURATION} s per run, ${ROUNDS} alternating rounds, medians (PostgreSQL)\n`);

const database = await scratchDatabase('postgres');
// One after the other: the first migrates the scratch database, the second finds it migrated.
const first = await startServer<BookingsInfo>(SERVER, database, SEED);
const second = await startServer<BookingsInfo>(SERVER, database, SEED);
const read = (info: BookingsInfo, connections: number, label: string) =>
  load({ label, url: info.realShowUrl, headers: { authorization: `Bearer ${info.adminToken}` }, connections, durationSeconds: DURATION });

const one: number[] = [];
const two: number[] = [];
const runs: LoadResult[] = [];
try {
  for (let round = 0; round < ROUNDS; round++) {
    const alone = await read(first.info, CONNECTIONS, 'one process');
    const pair = await Promise.all([read(first.info, CONNECTIONS / 2, 'two processes (first)'), read(second.info, CONNECTIONS / 2, 'two processes (second)')]);
    runs.push(alone, ...pair);
    one.push(alone.requestsPerSecond);
    two.push(pair[0].requestsPerSecond + pair[1].requestsPerSecond);
    console.log(`round ${round + 1}: one ${alone.requestsPerSecond.toFixed(0)} req/s, two ${(pair[0].requestsPerSecond + pair[1].requestsPerSecond).toFixed(0)} req/s`);
  }
} finally {
  await first.stop();
  await second.stop();
  await database.drop();
}
const failed = runs.some((r) => r.non2xx || r.errors);
finishReport(
  [
    { run: 'one API process', 'req/s (median)': median(one).toFixed(0), rounds: one.map((v) => v.toFixed(0)).join(' / ') },
    { run: 'two API processes', 'req/s (median)': median(two).toFixed(0), rounds: two.map((v) => v.toFixed(0)).join(' / '), 'two/one': (median(two) / median(one)).toFixed(2) },
  ],
  failed,
);
