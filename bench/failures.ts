// Failures (issue 4): GET /api/hailing/bookings/{id} of a 20-stop booking read by the tour's driver (failure_options on
// 19 arrived stops) vs the same booking read by its customer (none), on PGlite and PostgreSQL. Goal: driver/customer
// ≥ 0.8 — computing failure options must not add queries per stop.
// Runs alternate customer, driver, … (BENCH_ROUNDS, default 3) and report medians with the server's CPU time per
// request, as the baseline does. 10 connections (BENCH_CONNECTIONS): this read issues ~12 queries, and on PGlite's
// single session 50 connections only queue requests past autocannon's timeout without adding throughput.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { comparedTo, finishReport, load, machineDescription, scratchDatabase, startServer, summarize, type DatabaseKind, type LoadResult } from './_harness.ts';
import type { FailuresInfo } from './_failures-server.ts';

const SERVER = path.join(path.dirname(fileURLToPath(import.meta.url)), '_failures-server.ts');
const DURATION = Number(process.env.BENCH_DURATION_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const kinds: DatabaseKind[] = (process.env.BENCH_DATABASES?.split(',') as DatabaseKind[] | undefined) ?? ['pglite', 'postgres'];

console.log(`Machine: ${machineDescription()}`);
console.log(`autocannon: ${CONNECTIONS} connections, ${DURATION} s per run after a 2 s warm-up, ${ROUNDS} alternating rounds, medians\n`);


const rows: Record<string, string | number>[] = [];
let failed = false;
for (const kind of kinds) {
  const database = await scratchDatabase(kind);
  let server: Awaited<ReturnType<typeof startServer<FailuresInfo>>> | null = null;
  try {
    const running = await startServer<FailuresInfo>(SERVER, database);
    server = running;
    const info = running.info;
    const read = (who: 'customer' | 'driver') =>
      load({
        server: running,
        connections: CONNECTIONS,
        durationSeconds: DURATION,
        label: `${kind} ${who}`,
        url: info.bookingUrl,
        headers: { authorization: `Bearer ${who === 'driver' ? info.driverToken : info.customerToken}` },
      });
    const customer: LoadResult[] = [];
    const driver: LoadResult[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      customer.push(await read('customer'));
      driver.push(await read('driver'));
    }
    const customerRow = summarize(`${kind} customer`, customer);
    const driverRow = summarize(`${kind} driver`, driver);
    rows.push(customerRow, comparedTo(customerRow, driverRow, { ratio: 'driver/customer', cpu: 'customer/driver CPU' }));
    if ([...customer, ...driver].some((r) => r.non2xx || r.errors)) failed = true;
  } finally {
    await server?.stop();
    await database.drop();
  }
}
finishReport(rows, failed);
