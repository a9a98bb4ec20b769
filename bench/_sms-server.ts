// The SMS benchmark's server process (issue 40): the real app and the real background worker in one process (as
// `serve --role all`, the only way PGlite runs), texting through the Kannel the bench started (SMS_PROVIDER=kannel in
// the environment). Before it reports ready it prepares, through the API, one tenant per phase of the bench:
// - `throughput`: BENCH_SMS_COUNT bookings, each drop-off's contact with its own phone number, already merged into
//   tours of TOUR_SIZE while their area tells no moment — enabling the area's `dispatched` moment is the trigger;
// - `latency` and `latencyWoken` (the latter with BENCH_SMS_PARTS naming `latency-woken` only): BENCH_SMS_RATE ×
//   BENCH_SMS_SECONDS bookings each, not yet on a tour, in an area that tells `dispatched`: merging one booking into a
//   tour is one moment.
// A bare Fastify beside it answers the bench's own questions (the SMS rows' states and times) and wakes the
// recipients' sweep — a dispatch change wakes it by itself (decision 1787), an area's new moments do not.
import Fastify from 'fastify';
import { sql } from 'drizzle-orm';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { queryRows } from '../src/db/sql.ts';
import { createTenant } from '../src/modules/identity/index.ts';
import { createRuntime } from '../src/runtime.ts';
import { NIL_UUID } from '../src/shared/ids.ts';
import { scheduleJob } from '../src/worker/jobs.ts';
import { startWorker } from '../src/worker/loop.ts';
import { reportReady } from './_harness.ts';

export type SmsPhase = 'throughput' | 'latency' | 'latencyWoken';

export interface SmsPhaseInfo {
  tenantId: string;
  adminToken: string;
  serviceAreaId: string;
  /** Bookings with their drop-off's phone number (E.164), not on a tour yet for the latency phases. */
  bookings: { id: string; phone: string }[];
}

export interface SmsServerInfo {
  realUrl: string;
  benchUrl: string;
  phases: Record<SmsPhase, SmsPhaseInfo>;
  setupSeconds: number;
}

/** One SMS row as the bench reads it: times in ms since the epoch (the server's clock, the same machine's). */
export type SmsRow = [to: string, status: string, createdAt: number, updatedAt: number];

const COUNT = Number(process.env.BENCH_SMS_COUNT ?? 10_000);
const LATENCY_COUNT = Number(process.env.BENCH_SMS_RATE ?? 100) * Number(process.env.BENCH_SMS_SECONDS ?? 30);
/** Bookings per tour of the throughput phase: a merge of 50 bookings is one call of a few hundred milliseconds. */
const TOUR_SIZE = 50;

const setupStarted = Date.now();
const config = loadConfig();
const runtime = await createRuntime(config, { migrate: true });
const { deps } = runtime;
const app = await buildApp(deps);

async function call<T>(token: string, method: 'POST' | 'PATCH', url: string, body: unknown, status: number): Promise<T> {
  const res = await app.inject({ method, url, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
  if (res.statusCode !== status) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body.slice(0, 500)}`);
  return res.json() as T;
}

type Id = { id: string };
let phoneSerial = 0;

async function preparePhase(name: SmsPhase, count: number, merged: boolean): Promise<SmsPhaseInfo> {
  const { tenant, admin_token: token } = await createTenant(deps, { name: `bench-sms-${name}` });
  const area = (
    await call<{ service_area: Id }>(token, 'POST', '/api/admin/service_areas', {
      service_area: { name: 'Berlin', currency: 'EUR', time_zone: 'Europe/Berlin', recipient_notifications: merged ? [] : ['dispatched'], sms_quiet_hours: null },
    }, 201)
  ).service_area;
  const service = (await call<{ service: Id }>(token, 'POST', '/api/admin/hailing/services', { service: { name: 'Parcels', service_area_id: area.id, max_stops_per_tour: 2 * TOUR_SIZE } }, 201)).service;
  const bookings: SmsPhaseInfo['bookings'] = [];
  for (let i = 0; i < count; i += 100) {
    const items = Array.from({ length: Math.min(100, count - i) }, (_, j) => {
      const n = i + j;
      // Mobile numbers of Germany, one per recipient: +49 151 then eight digits.
      const phone = `+49151${String(10_000_000 + phoneSerial++).slice(-8)}`;
      return {
        phone,
        item: {
          idempotency_key: `${name}-${n}`,
          booking: {
            service_id: service.id,
            stops: [
              { type: 'pickup', location: { lat: 52.5, lng: 13.4 }, address: { street: 'Chausseestraße', number: '1', city: 'Berlin' } },
              {
                type: 'dropoff',
                location: { lat: 52.51 + (n % 100) * 1e-4, lng: 13.41 },
                address: { street: 'Torstraße', number: String(1 + (n % 200)), city: 'Berlin' },
                contact: { name: `Recipient ${n}`, phone_number: phone },
              },
            ],
            packages: [{ pickup_stop_index: 0, dropoff_stop_index: 1 }],
          },
        },
      };
    });
    const { results } = await call<{ results: { status: number; booking?: Id }[] }>(token, 'POST', '/api/hailing/bookings/bulk', { bookings: items.map((x) => x.item) }, 200);
    results.forEach((r, j) => {
      if (r.status !== 201 || !r.booking) throw new Error(`bulk create: item ${i + j} answered ${r.status}`);
      bookings.push({ id: r.booking.id, phone: items[j]!.phone });
    });
  }
  if (merged) for (let i = 0; i < bookings.length; i += TOUR_SIZE) await call(token, 'POST', '/api/hailing/bookings/merge', { booking_ids: bookings.slice(i, i + TOUR_SIZE).map((b) => b.id) }, 201);
  return { tenantId: tenant.id, adminToken: token, serviceAreaId: area.id, bookings };
}

const parts = new Set(process.env.BENCH_SMS_PARTS?.split(',') ?? ['throughput', 'latency']);
const phases: Record<SmsPhase, SmsPhaseInfo> = {
  throughput: await preparePhase('throughput', parts.has('throughput') ? COUNT : 0, true),
  latency: await preparePhase('latency', parts.has('latency') ? LATENCY_COUNT : 0, false),
  latencyWoken: await preparePhase('latencyWoken', parts.has('latency-woken') ? LATENCY_COUNT : 0, false),
};
const realUrl = await app.listen({ port: 0, host: '127.0.0.1' });
// The worker exactly as `serve` starts it (default poll, batch and lease), after the set-up: nothing is due before.
startWorker(deps); // stopped with the process (SIGTERM, reportReady): the bench's database is dropped after it

const bench = Fastify();
/**
 * Moves the recipients' sweep (a job that reschedules itself 30 s on, notify.ts) to now, as scheduling it again with
 * its dedupe key does: the jobs lane takes it at its next poll (≤ 100 ms). The trigger of the throughput part (an area
 * starting to tell a moment) is no dispatch change, so nothing else wakes it.
 */
bench.post('/bench/wake', async () => {
  const now = deps.clock.now();
  await scheduleJob(deps.db, { tenantId: NIL_UUID, kind: 'tracking.notify_recipients', dedupeKey: 'notify-recipients', payload: {}, dueAt: now, now });
  return { ok: true };
});
bench.get<{ Querystring: { tenant: string } }>('/bench/sms/counts', async (request) => {
  const rows = await queryRows<{ status: string; n: number }>(
    deps.db,
    sql`SELECT status, count(*)::int AS n FROM recipient_messages WHERE tenant_id = ${request.query.tenant} AND channel = 'sms' GROUP BY status`,
  );
  return Object.fromEntries(rows.map((r) => [r.status, r.n]));
});
bench.get<{ Querystring: { tenant: string } }>('/bench/sms/rows', async (request) => {
  const rows = await queryRows<{ to: string; status: string; created_at: Date | string; updated_at: Date | string }>(
    deps.db,
    sql`SELECT "to", status, created_at, updated_at FROM recipient_messages WHERE tenant_id = ${request.query.tenant} AND channel = 'sms'`,
  );
  return rows.map((r): SmsRow => [r.to, r.status, new Date(r.created_at).getTime(), new Date(r.updated_at).getTime()]);
});
const benchUrl = await bench.listen({ port: 0, host: '127.0.0.1' });

reportReady({ realUrl, benchUrl, phases, setupSeconds: (Date.now() - setupStarted) / 1000 } satisfies SmsServerInfo);
