// SMS through Kannel (issue 40), on PGlite and PostgreSQL — Debian's bearerbox + smsbox with fakesmsc as the carrier
// (test/kannel.ts), our app and worker in one server process (bench/_sms-server.ts):
// (1) throughput: BENCH_SMS_COUNT (10,000) SMS made by real `dispatched` moments — bookings already on tours whose
//     area starts telling that moment (the trigger) — through the recipients' sweep, the send jobs and the Kannel
//     adapter, timed from the trigger until every SMS row is `sent`; against a bare loop of sendsms GETs one at a time
//     (the goal's baseline, set when the worker sent one SMS at a time) and one with 32 in flight (the worker's send
//     jobs' concurrency since decision 1785, and the gateway's ceiling), same gateway, same run — goal ratio ≥ 0.5;
// (2) latency: moments at BENCH_SMS_RATE (100)/s for BENCH_SMS_SECONDS (30) — each a booking merged into a tour —
//     from the merge's answer to the SMS's row `sent` (the gateway's 202) and to fakesmsc printing it — goal p99 ≤ 2 s;
//     as shipped (each dispatch change wakes its tenant's sweep, decision 1787); with BENCH_SMS_PARTS=latency-woken
//     once more with the bench also waking the sweep after each merge.
// Figures are printed, never asserted; a run with failed SMS or refused requests exits non-zero (invalid figures).
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startKannel, type KannelGateway } from '../test/kannel.ts';
import { loadAverage, machineDescription, median, printTable, processCpuMicros, quantile, scratchDatabase, startServer, type DatabaseKind, type ServerHandle } from './_harness.ts';
import type { SmsPhaseInfo, SmsRow, SmsServerInfo } from './_sms-server.ts';

const SERVER = path.join(path.dirname(fileURLToPath(import.meta.url)), '_sms-server.ts');
const COUNT = Number(process.env.BENCH_SMS_COUNT ?? 10_000);
const RATE = Number(process.env.BENCH_SMS_RATE ?? 100);
const SECONDS = Number(process.env.BENCH_SMS_SECONDS ?? 30);
/**
 * Bookings per merge in the latency part: RATE / PER_MERGE merges a second. One merge per booking at 100/s is more
 * dispatching than one PGlite process does (≈ 30–40 merges/s measured beside the worker): the trigger, not the SMS,
 * would be measured.
 */
const PER_MERGE = Number(process.env.BENCH_SMS_PER_MERGE ?? 10);
/** BENCH_SMS_PARTS=throughput,latency,latency-woken picks parts (the first two by default). */
const parts = new Set(process.env.BENCH_SMS_PARTS?.split(',') ?? ['throughput', 'latency']);
const kinds: DatabaseKind[] = (process.env.BENCH_DATABASES?.split(',') as DatabaseKind[] | undefined) ?? ['pglite', 'postgres'];
/** The goal's baseline: one sendsms in flight, the worker's concurrency when the goal was set. */
const WORKER_CONCURRENCY = 1;
/** The gateway's own ceiling, measured beside: as many in flight as a lane's send jobs run at once (worker/handlers.ts). */
const CEILING_CONCURRENCY = 32;
const FROM = 'Tourbook';

const throughputRows: Record<string, string | number>[] = [];
const latencyRows: Record<string, string | number>[] = [];
let failed = false;
const goals: string[] = [];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** fakesmsc prints the number as bearerbox hands it on; the rows hold E.164 with its "+". */
const plain = (to: string) => to.replace(/^\+/, '');

/** Every SMS the carrier printed, by number: the first arrival (Date.now() in this process). */
const carriedAt = new Map<string, number>();

async function untilCarried(numbers: readonly string[], ms: number): Promise<number | null> {
  const deadline = Date.now() + ms;
  while (numbers.some((n) => !carriedAt.has(plain(n)))) {
    if (Date.now() > deadline) return null;
    await sleep(20);
  }
  return Math.max(...numbers.map((n) => carriedAt.get(plain(n))!));
}

/** A text shaped as ours is: the dispatched template on one line, a tracking link, the opt-out hint (≈ 150 characters). */
const textFor = (n: number, base: string) =>
  `Hello Recipient ${n}, your delivery is scheduled. Follow it live: ${base}/track/${randomBytes(32).toString('base64url')} Reply STOP to opt out.`;

/**
 * The bare loop: `concurrency` loops GET smsbox's sendsms with what the Kannel adapter sends (account, sender, number,
 * UTF-8 text, coding 0), each waiting for its 202 before the next, with the same client (Node's fetch, kept alive).
 */
async function bareLoop(kannel: KannelGateway, label: string, prefix: string, concurrency: number, base: string) {
  const numbers = Array.from({ length: COUNT }, (_, i) => `+4917${prefix}${String(i).padStart(7, '0')}`);
  let next = 0;
  let refused = 0;
  const started = Date.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < numbers.length) {
        const n = next++;
        const url = new URL(kannel.sendsmsUrl);
        const params = url.searchParams;
        params.set('username', kannel.username);
        params.set('password', kannel.password);
        params.set('from', FROM);
        params.set('to', numbers[n]!);
        params.set('text', textFor(n, base));
        params.set('charset', 'UTF-8');
        params.set('coding', '0');
        const res = await fetch(url, { signal: AbortSignal.timeout(10_000) });
        const body = await res.text();
        if (res.status !== 202 || !/^[03]:/.test(body)) refused++;
      }
    }),
  );
  const accepted = Date.now();
  const carried = await untilCarried(numbers, 120_000);
  if (refused || carried === null) failed = true;
  const seconds = (accepted - started) / 1000;
  return {
    label,
    rate: COUNT / seconds,
    row: {
      run: label,
      SMS: COUNT,
      'accepted in s': seconds.toFixed(1),
      'accepted SMS/s': Math.round(COUNT / seconds),
      'all at the carrier in s': carried === null ? 'not all' : ((carried - started) / 1000).toFixed(1),
      'carrier SMS/s': carried === null ? '—' : Math.round(COUNT / ((carried - started) / 1000)),
      refused,
    },
  };
}

async function benchGet<T>(info: SmsServerInfo, url: string): Promise<T> {
  const res = await fetch(`${info.benchUrl}${url}`);
  if (!res.ok) throw new Error(`${url}: ${res.status}`);
  return (await res.json()) as T;
}
const wake = async (info: SmsServerInfo) => void (await (await fetch(`${info.benchUrl}/bench/wake`, { method: 'POST' })).text());

async function api(info: SmsServerInfo, phase: SmsPhaseInfo, method: 'POST' | 'PATCH', url: string, body: unknown): Promise<number> {
  const res = await fetch(`${info.realUrl}${url}`, { method, headers: { authorization: `Bearer ${phase.adminToken}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  await res.text();
  return res.status;
}

/** Waits until every SMS row of the phase's tenant is past `queued` (and there are `count`); answers the rows. */
async function untilAllSent(info: SmsServerInfo, phase: SmsPhaseInfo, count: number, ms: number): Promise<SmsRow[]> {
  const deadline = Date.now() + ms;
  for (;;) {
    const counts = await benchGet<Record<string, number>>(info, `/bench/sms/counts?tenant=${phase.tenantId}`);
    const done = (counts.sent ?? 0) + (counts.failed ?? 0) + (counts.delivered ?? 0);
    if (done >= count) break;
    if (Date.now() > deadline) {
      console.error(`only ${done} of ${count} SMS left the queue within ${ms / 1000} s: ${JSON.stringify(counts)}`);
      failed = true;
      break;
    }
    // The figures come from the rows' own times; the count reads every row of the tenant, in the server's process.
    await sleep(500);
  }
  return benchGet<SmsRow[]>(info, `/bench/sms/rows?tenant=${phase.tenantId}`);
}

async function throughput(info: SmsServerInfo, kind: DatabaseKind, server: ServerHandle<SmsServerInfo>, bareRate: number, ceilingRate: number) {
  const phase = info.phases.throughput;
  const cpuBefore = await server.cpuMicros();
  const pgBefore = processCpuMicros(['postgres']);
  const started = Date.now();
  // The trigger: the area starts telling `dispatched`; its 10,000 drop-offs on tours are all due at once.
  const status = await api(info, phase, 'PATCH', `/api/admin/service_areas/${phase.serviceAreaId}`, { service_area: { recipient_notifications: ['dispatched'] } });
  if (status !== 200) throw new Error(`enabling the area's moments answered ${status}`);
  await wake(info);
  const rows = await untilAllSent(info, phase, COUNT, Math.max(180_000, COUNT * 100));
  const carried = await untilCarried(phase.bookings.map((b) => b.phone), 60_000);
  const cpu = ((await server.cpuMicros()) - cpuBefore) / 1000;
  const pg = (processCpuMicros(['postgres']).postgres! - pgBefore.postgres!) / 1000;
  const sent = rows.filter((r) => r[1] === 'sent');
  if (sent.length !== COUNT || carried === null) failed = true;
  const firstSent = Math.min(...sent.map((r) => r[3]));
  const lastSent = Math.max(...sent.map((r) => r[3]));
  const seconds = (lastSent - started) / 1000;
  const rate = sent.length / seconds;
  const sendRate = (sent.length - 1) / ((lastSent - firstSent) / 1000);
  throughputRows.push({
    run: `${kind} Tourbook: moments → sweep → send jobs → Kannel`,
    SMS: sent.length,
    'accepted in s': seconds.toFixed(1),
    'accepted SMS/s': Math.round(rate),
    'all at the carrier in s': carried === null ? 'not all' : ((carried - started) / 1000).toFixed(1),
    'carrier SMS/s': carried === null ? '—' : Math.round(sent.length / ((carried - started) / 1000)),
    refused: rows.length - sent.length,
    'Tourbook/bare': (rate / bareRate).toFixed(2),
    'Tourbook/bare 32': (rate / ceilingRate).toFixed(2),
    'sweep (trigger → first sent) s': ((firstSent - started) / 1000).toFixed(1),
    'send jobs alone SMS/s': Math.round(sendRate),
    'send jobs/bare': (sendRate / bareRate).toFixed(2),
    'server CPU ms/SMS': (cpu / sent.length).toFixed(2),
    ...(kind === 'postgres' ? { 'postgres CPU ms/SMS': (pg / sent.length).toFixed(2) } : {}),
  });
  goals.push(`${kind}: Tourbook/bare ${(rate / bareRate).toFixed(2)} (goal ≥ 0.5: ${rate / bareRate >= 0.5 ? 'met' : 'NOT met'}); against 32 in flight ${(rate / ceilingRate).toFixed(2)}`);
}

async function latency(info: SmsServerInfo, kind: DatabaseKind, server: ServerHandle<SmsServerInfo>, woken: boolean) {
  const phase = woken ? info.phases.latencyWoken : info.phases.latency;
  const count = Math.min(phase.bookings.length, RATE * SECONDS);
  const triggeredAt = new Map<string, number>();
  let refused = 0;
  // With `woken`, one wake-up in flight at a time and one more after it when merges answered meanwhile.
  let waking: Promise<void> | null = null;
  let again = false;
  const wakeSoon = () => {
    if (waking) return void (again = true);
    waking = (async () => {
      do {
        again = false;
        await wake(info);
      } while (again);
      waking = null;
    })();
  };
  const cpuBefore = await server.cpuMicros();
  const started = Date.now();
  const inflight: Promise<void>[] = [];
  for (let n = 0; n < count; n += PER_MERGE) {
    const wait = started + (n * 1000) / RATE - Date.now();
    if (wait > 0) await sleep(wait);
    const merged = phase.bookings.slice(n, Math.min(count, n + PER_MERGE));
    inflight.push(
      (async () => {
        const status = await api(info, phase, 'POST', '/api/hailing/bookings/merge', { booking_ids: merged.map((b) => b.id) });
        // The moments exist from the merge's commit: its answer is the first this process can know of them.
        const at = Date.now();
        for (const b of merged) triggeredAt.set(b.phone, at);
        if (status !== 201) refused++;
        if (woken) wakeSoon();
      })(),
    );
  }
  await Promise.all(inflight);
  const lastTrigger = Math.max(...triggeredAt.values());
  const rows = await untilAllSent(info, phase, count, 120_000);
  await untilCarried(phase.bookings.slice(0, count).map((b) => b.phone), 30_000);
  const cpu = ((await server.cpuMicros()) - cpuBefore) / 1000;
  if (refused) failed = true;
  const sent = rows.filter((r) => r[1] === 'sent' && triggeredAt.has(r[0]));
  const toGateway = sent.map((r) => r[3] - triggeredAt.get(r[0])!);
  const toCarrier = sent.flatMap((r) => (carriedAt.has(plain(r[0])) ? [carriedAt.get(plain(r[0]))! - triggeredAt.get(r[0])!] : []));
  const queuedToSent = sent.map((r) => r[3] - r[2]);
  const ms = (v: number) => v.toFixed(0);
  latencyRows.push({
    run: `${kind} ${woken ? 'as shipped + the bench waking the sweep after each merge' : 'as shipped (each dispatch wakes its sweep)'}`,
    moments: count,
    'moments/s achieved': ((count - PER_MERGE) / ((lastTrigger - started) / 1000)).toFixed(1),
    'sent SMS': sent.length,
    'moment → gateway p50 ms': ms(median(toGateway)),
    'p95 ms': ms(quantile(toGateway, 0.95)),
    'p99 ms': ms(quantile(toGateway, 0.99)),
    'max ms': ms(Math.max(...toGateway)),
    'moment → carrier p99 ms': ms(quantile(toCarrier, 0.99)),
    'sweep start → gateway p50 / p99 ms': `${ms(median(queuedToSent))} / ${ms(quantile(queuedToSent, 0.99))}`,
    'refused merges': refused,
    'server CPU ms/s': ((cpu / (Date.now() - started)) * 1000).toFixed(0),
  });
  const p99 = quantile(toGateway, 0.99);
  goals.push(`${kind} ${woken ? 'woken by the bench too' : 'as shipped'}: moment → gateway p99 ${ms(p99)} ms (goal ≤ 2,000 ms: ${p99 <= 2000 ? 'met' : 'NOT met'})`);
}

console.log(`Machine: ${machineDescription()}; load average ${loadAverage()}`);
console.log(`(1) ${COUNT} SMS, bare sendsms loop with ${WORKER_CONCURRENCY} in flight (the goal's baseline) and ${CEILING_CONCURRENCY} (the send jobs' concurrency, the gateway's ceiling); (2) ${RATE} moments/s for ${SECONDS} s, ${PER_MERGE} bookings per merge`);
console.log(
  'Gateway: bearerbox + smsbox (log level 2), fake SMSC with no throughput limit, no DLRs asked for (no SMS_CALLBACK_SECRET: a row stays `sent`, its updated_at the gateway\'s 202), fakesmsc printing every SMS\n',
);

for (const kind of kinds) {
  // Each database's run texts the same numbers: the carrier's arrivals are per run.
  carriedAt.clear();
  const database = await scratchDatabase(kind);
  let kannel: KannelGateway | null = null;
  let server: ServerHandle<SmsServerInfo> | null = null;
  try {
    // inboundUrl: replies are not part of this bench (nothing listens there).
    kannel = await startKannel({ inboundUrl: 'http://127.0.0.1:9/inbound?from=%p&text=%a', logLevel: 2, onCarried: (sms, at) => carriedAt.has(plain(sms.to)) || carriedAt.set(plain(sms.to), at) });
    server = await startServer<SmsServerInfo>(SERVER, database, {
      REPORTS_MASTER_KEY: randomBytes(32).toString('base64'),
      SMS_PROVIDER: 'kannel',
      SMS_URL: kannel.sendsmsUrl,
      SMS_USERNAME: kannel.username,
      SMS_PASSWORD: kannel.password,
      SMS_FROM: FROM,
      SMS_TIMEOUT_MS: '10000',
      BENCH_SMS_COUNT: String(COUNT),
      BENCH_SMS_RATE: String(RATE),
      BENCH_SMS_SECONDS: String(SECONDS),
    });
    const info = server.info;
    console.log(`${kind}: set-up ${info.setupSeconds.toFixed(0)} s (${COUNT} bookings on tours, 2 × ${RATE * SECONDS} waiting)`);
    if (parts.has('throughput')) {
      const bare = await bareLoop(kannel, `${kind} bare sendsms loop, ${WORKER_CONCURRENCY} in flight (before)`, '1', WORKER_CONCURRENCY, info.realUrl);
      const ceiling = await bareLoop(kannel, `${kind} bare sendsms loop, ${CEILING_CONCURRENCY} in flight (the gateway's ceiling)`, '2', CEILING_CONCURRENCY, info.realUrl);
      throughputRows.push(bare.row, ceiling.row);
      await throughput(info, kind, server, bare.rate, ceiling.rate);
      const after = await bareLoop(kannel, `${kind} bare sendsms loop, ${WORKER_CONCURRENCY} in flight (after)`, '3', WORKER_CONCURRENCY, info.realUrl);
      throughputRows.push(after.row);
    }
    if (parts.has('latency')) await latency(info, kind, server, false);
    if (parts.has('latency-woken')) await latency(info, kind, server, true);
  } finally {
    await server?.stop();
    await kannel?.close();
    await database.drop();
  }
  // Each database's figures as soon as they are in: a full run takes a quarter of an hour or more.
  if (throughputRows.length) printTable(throughputRows.splice(0));
  if (latencyRows.length) printTable(latencyRows.splice(0));
  console.log(`Load average after ${kind}: ${loadAverage()}`);
  for (const goal of goals.splice(0)) console.log(goal);
}

if (failed) {
  console.error('Some SMS or requests failed: the figures above are not valid.');
  process.exitCode = 1;
}
