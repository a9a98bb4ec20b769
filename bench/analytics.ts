// npm run bench -- analytics: delivery analytics over a year of data (issue 36). PostgreSQL: 1,000,000 completed stops
// over a year; PGlite: 100,000. Rows are generated with SQL (generate_series) straight into the tables; the figures are
// read through the real route (app.inject) and set against a bare count(*) of the same finished stops in the same run.
import { sql } from 'drizzle-orm';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { createTenant } from '../src/modules/identity/index.ts';
import { createRuntime } from '../src/runtime.ts';
import { ManualClock } from '../src/shared/clock.ts';
import { finishReport, machineDescription, scratchDatabase, type DatabaseKind } from './_harness.ts';

const END = '2026-12-01T00:00:00.000Z';
const DAY = 86_400_000;
const DRIVERS = 40;
const RUNS = 5;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function run(kind: DatabaseKind, stops: number): Promise<Record<string, string | number>[]> {
  const database = await scratchDatabase(kind);
  const clock = new ManualClock(END);
  const config = loadConfig({ ...process.env, DATA_DIR: database.dataDir, DATABASE_URL: database.url ?? '', LOG_LEVEL: 'warn' }, { rateLimit: { perSecond: 1e6, burst: 1e6 } });
  const runtime = await createRuntime(config, { migrate: true, clock });
  try {
    const { admin_token: token, tenant } = await createTenant(runtime.deps, { name: 'Analytics' });
    const app = await buildApp(runtime.deps);
    const call = async (url: string, method: 'GET' | 'POST' = 'GET', body?: unknown) => {
      const res = await app.inject({ method, url, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, ...(body ? { payload: JSON.stringify(body) } : {}) });
      if (res.statusCode >= 300) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
      return res.json() as Record<string, Record<string, string>>;
    };
    const area = (await call('/api/admin/service_areas', 'POST', { service_area: { name: 'Berlin', currency: 'EUR', time_zone: 'Europe/Berlin' } })).service_area!;
    const service = (await call('/api/admin/hailing/services', 'POST', { service: { name: 'Parcels', service_area_id: area.id } })).service!;
    const t0 = performance.now();
    const tenantId = tenant.id;
    const days = 365;
    const perTour = Math.ceil(stops / (days * DRIVERS));
    // One tour per driver and day, 08:00–16:00 UTC; its stops every few minutes, a window on two of three, one in 25 failed.
    await runtime.deps.db.execute(sql`
      INSERT INTO tours (tenant_id, id, service_id, service_area_id, status, driver_id, created_at, updated_at, started_at, completed_at)
      SELECT ${tenantId}::uuid, md5('tour' || d || '-' || k)::uuid, ${service.id}::uuid, ${area.id}::uuid, 'completed', md5('driver' || k)::uuid,
             ${END}::timestamptz - (d || ' days')::interval + interval '8 hours', ${END}::timestamptz - (d || ' days')::interval + interval '16 hours',
             ${END}::timestamptz - (d || ' days')::interval + interval '8 hours', ${END}::timestamptz - (d || ' days')::interval + interval '16 hours'
        FROM generate_series(1, ${days}) d, generate_series(1, ${DRIVERS}) k`);
    // In 15-day slices: each statement stays inside the pool's query timeout.
    for (let lo = 1; lo <= days; lo += 15) await runtime.deps.db.execute(sql`
      INSERT INTO stops (tenant_id, id, tour_id, type, status, position, tour_position, lat, lng, address, service_duration_seconds,
                         time_window_ends_at, arrived_at, completed_at, failed_at, failure, created_at, updated_at)
      SELECT ${tenantId}::uuid, md5('stop' || n)::uuid, md5('tour' || d || '-' || k)::uuid, CASE WHEN n % 5 = 0 THEN 'pickup' ELSE 'dropoff' END,
             CASE WHEN n % 25 = 0 THEN 'failed' ELSE 'completed' END, 0, i, 52.5, 13.4, '{}'::jsonb, 120,
             CASE WHEN n % 3 <> 0 THEN at + interval '20 minutes' - ((n % 7) * interval '5 minutes') END,
             at, CASE WHEN n % 25 <> 0 THEN at END, CASE WHEN n % 25 = 0 THEN at END,
             CASE WHEN n % 25 = 0 THEN '{"outcome":"skip_recovery","reason_key":"customer_absent","note":null}'::jsonb END, at, at
        FROM (SELECT d, k, i, (d * ${DRIVERS} + k) * ${perTour} + i AS n,
                     ${END}::timestamptz - (d || ' days')::interval + interval '8 hours' + i * (interval '8 hours' / ${perTour}) AS at
                FROM generate_series(${lo}::int, ${Math.min(lo + 14, days)}::int) d, generate_series(1, ${DRIVERS}) k, generate_series(0, ${perTour - 1}) i) g`);
    // A year of stops written over a year has been vacuumed many times over (autovacuum): the visibility map is set,
    // as it would be in production, rather than every page looked at once for the first time.
    await runtime.deps.db.execute(sql`VACUUM (ANALYZE) stops`);
    await runtime.deps.db.execute(sql`VACUUM (ANALYZE) tours`);
    const generated = ((performance.now() - t0) / 1000).toFixed(0);
    const rows: Record<string, string | number>[] = [];
    for (const [label, periodDays] of [['last 7 days', 7], ['a year', 365]] as const) {
      const from = new Date(Date.parse(END) - periodDays * DAY).toISOString();
      const url = `/api/analytics/deliveries?from=${from}&to=${END}`;
      const figures = await call(url);
      const bare: number[] = [];
      const full: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        let s = performance.now();
        await runtime.deps.db.execute(sql`SELECT count(*) FROM stops WHERE tenant_id = ${tenantId}::uuid AND completed_at >= ${from}::timestamptz AND completed_at < ${END}::timestamptz AND status = 'completed'`);
        bare.push(performance.now() - s);
        s = performance.now();
        await call(url);
        full.push(performance.now() - s);
      }
      const ms = median(full);
      rows.push({
        database: kind,
        stops: (days * DRIVERS * perTour).toLocaleString('en'),
        period: label,
        'stops counted': Number((figures.analytics as unknown as { stops: { completed: number } }).stops.completed),
        'figures ms (median of 5)': Math.round(ms),
        'bare count(*) ms': Math.round(median(bare)),
        'ratio to count(*)': (ms / median(bare)).toFixed(1),
        'generated in s': generated,
      });
    }
    await app.close();
    return rows;
  } finally {
    await runtime.close();
    await database.drop();
  }
}

console.log(`Delivery analytics on ${machineDescription()}`);
const only = process.env.BENCH_DATABASE as DatabaseKind | undefined;
const rows = [...(only !== 'postgres' ? await run('pglite', 100_000) : []), ...(only !== 'pglite' ? await run('postgres', 1_000_000) : [])];
finishReport(rows, false);
