// The recipient's tracking link (issue 24), on PGlite and PostgreSQL:
// (1) GET /api/tracking/{token} (no credential; the booking, its stops, its tour, ETAs, the driver) vs a bare
//     one-SELECT route in the same process, 50 connections, alternating rounds, medians — goal ratio ≥ 0.6;
// (2) BENCH_TRACKING_STREAMS (5,000) open GET /api/tracking/{token}/live streams on one API process while drivers post
//     BENCH_TRACKING_RATE (100) positions/s: p99 position-to-page (a fix posted → the frame showing it at a recipient
//     whose booking the driver heads to) ≤ 500 ms, RSS growth ≤ 300 MiB;
// (3) the page's first load in Chromium: the gzipped JavaScript it fetches before the load event ≤ 80 KiB.
// BENCH_TRACKING_PARTS=read,streams,page picks parts; BENCH_DATABASES=pglite,postgres picks databases.
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  answerOnStop,
  comparedTo,
  finishReport,
  load,
  loadAverage,
  machineDescription,
  median,
  openSseStreams,
  quantile,
  receiverInput,
  scratchDatabase,
  startReceiver,
  startServer,
  summarize,
  type DatabaseKind,
  type LoadResult,
  type ServerHandle,
} from './_harness.ts';
import type { TrackingInfo } from './_tracking-server.ts';

interface Received {
  /** `${token}@${recorded_at}` of every frame that shows a position, with its arrival (Date.now()). */
  positions: [string, number][];
  frames: number;
  closed: number;
}

/** The receiver process: opens the streams it is sent, records position frames, answers them on 'stop'. */
async function runReceiver(): Promise<never> {
  const received: Received = { positions: [], frames: 0, closed: 0 };
  const { url, tokens } = await receiverInput<{ url: string; tokens: string[] }>();
  const streamOf = (token: string) => {
    let last = '';
    const onBlock = (block: string, now: number) => {
      const data = block.indexOf('data: ');
      if (!block.includes('event: tracking') || data < 0) return;
      received.frames++;
      const view = (JSON.parse(block.slice(data + 6)) as { tracking: { driver: { position: { recorded_at: string } | null } | null } }).tracking;
      const at = view.driver?.position?.recorded_at;
      if (at && at !== last) received.positions.push([`${token}@${at}`, now]);
      if (at) last = at;
    };
    return { path: `/api/tracking/${token}/live`, onBlock };
  };
  // Opened 100 at a time: thousands of simultaneous connects overflow the listen backlog (connection resets).
  await openSseStreams(url, tokens.map(streamOf), received, 100);
  return answerOnStop(received);
}
if (process.env.BENCH_TRACKING_RECEIVER) await runReceiver();

const SERVER = path.join(path.dirname(fileURLToPath(import.meta.url)), '_tracking-server.ts');
const DURATION = Number(process.env.BENCH_DURATION_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const STREAMS = Number(process.env.BENCH_TRACKING_STREAMS ?? 5000);
const RATE = Number(process.env.BENCH_TRACKING_RATE ?? 100);
const parts = new Set(process.env.BENCH_TRACKING_PARTS?.split(',') ?? ['read', 'streams', 'page']);
const kinds: DatabaseKind[] = (process.env.BENCH_DATABASES?.split(',') as DatabaseKind[] | undefined) ?? ['pglite', 'postgres'];
const ENV = { REPORTS_MASTER_KEY: randomBytes(32).toString('base64') };

console.log(`Machine: ${machineDescription()}; load average ${loadAverage()}`);
console.log(`(1) autocannon 50 connections, ${DURATION} s × ${ROUNDS} alternating rounds; (2) ${STREAMS} streams, ${RATE} positions/s for ${DURATION} s; (3) Chromium first load\n`);

const rows: Record<string, string | number>[] = [];
let failed = false;

async function readVsBare(info: TrackingInfo, kind: DatabaseKind, server: ServerHandle<TrackingInfo>) {
  const bare: LoadResult[] = [];
  const real: LoadResult[] = [];
  const token = info.tours[0]!.headingToken;
  for (let round = 0; round < ROUNDS; round++) {
    bare.push(await load({ label: `${kind} bare`, url: info.bareUrl, server, durationSeconds: DURATION }));
    real.push(await load({ label: `${kind} tracking`, url: `${info.realUrl}/api/tracking/${token}`, server, durationSeconds: DURATION }));
  }
  const bareRow = summarize(`${kind} bare one-SELECT`, bare);
  const realRow = summarize(`${kind} GET /api/tracking/{token}`, real);
  rows.push(bareRow, comparedTo(bareRow, realRow, { ratio: 'tracking/bare', cpu: 'bare/tracking CPU' }));
  if ([...bare, ...real].some((r) => r.non2xx || r.errors)) failed = true;
}

async function streams(info: TrackingInfo, kind: DatabaseKind, server: ServerHandle<TrackingInfo>) {
  const rss = async () => ((await (await fetch(info.rssUrl)).json()) as { rss: number }).rss;
  // Streams spread over every booking's link: each tour's heading booking gets its share, the rest see counts only.
  const all = info.tours.flatMap((t) => t.tokens);
  const tokens = Array.from({ length: STREAMS }, (_, i) => all[i % all.length]!);
  const rssBefore = await rss();
  const opened = Date.now();
  // The stream clients in a child process (this file with BENCH_TRACKING_RECEIVER set), so parsing does not delay posts.
  const receiver = await startReceiver<Received>(fileURLToPath(import.meta.url), 'BENCH_TRACKING_RECEIVER', { url: info.realUrl, tokens });
  const openSeconds = (Date.now() - opened) / 1000;
  const rssOpen = await rss();
  const counters = info.tours.map(() => 0);
  const base = Date.now() - 30 * 86_400_000;
  const sentAt = new Map<string, number>();
  const previous = info.tours.map((): Promise<void> => Promise.resolve());
  let errors = 0;
  const post = async (count: number, measured: boolean) => {
    const started = Date.now();
    const inflight: Promise<void>[] = [];
    for (let n = 0; n < count; n++) {
      const wait = started + (n * 1000) / RATE - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const t = n % info.tours.length;
      const tour = info.tours[t]!;
      const k = counters[t]!++;
      const location = { lat: 52.45 + (k % 2) * 0.00036, lng: 13.3 + t * 1e-4, recorded_at: new Date(base + k * 20_000).toISOString() };
      // One tour's fixes follow each other, as one phone's do.
      const p = previous[t]!.then(async () => {
        if (measured) sentAt.set(`${tour.headingToken}@${location.recorded_at}`, Date.now());
        const res = await fetch(`${info.realUrl}/api/hailing/tours/${tour.id}/driver_location`, {
          method: 'POST',
          headers: { authorization: `Bearer ${tour.driverToken}`, 'content-type': 'application/json' },
          body: JSON.stringify({ location }),
        });
        await res.text();
        if (res.status !== 200) errors++;
      });
      previous[t] = p.catch(() => undefined);
      inflight.push(p);
    }
    await Promise.allSettled(inflight);
  };
  await post(RATE * 2, false);
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const rssWarm = await rss();
  const cpuBefore = await server.cpuMicros();
  await post(RATE * DURATION, true);
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const cpuAfter = await server.cpuMicros();
  const rssAfter = await rss();
  const received = await receiver.stop();
  if (errors) failed = true;
  const latency = received.positions.flatMap(([key, at]) => (sentAt.has(key) ? [at - sentAt.get(key)!] : []));
  const headingStreams = tokens.filter((token) => info.tours.some((t) => t.headingToken === token)).length;
  rows.push({
    run: `${kind} ${STREAMS} streams, ${RATE} positions/s`,
    'streams opened in s': openSeconds.toFixed(1),
    'streams seeing the position': headingStreams,
    'position frames received': latency.length,
    'position frames expected': (RATE * DURATION * headingStreams) / info.tours.length,
    'position-to-page p50 ms': median(latency).toFixed(0),
    'position-to-page p99 ms': quantile(latency, 0.99).toFixed(0),
    'streams closed early': received.closed,
    'server CPU ms/s': ((cpuAfter - cpuBefore) / 1000 / (DURATION + 2)).toFixed(0),
    'RSS MiB: before / streams open / after': `${(rssBefore / 2 ** 20).toFixed(0)} / ${(rssOpen / 2 ** 20).toFixed(0)} / ${(rssAfter / 2 ** 20).toFixed(0)}`,
    'RSS growth MiB (streams + run)': ((rssAfter - rssBefore) / 2 ** 20).toFixed(1),
    'RSS growth MiB (run only)': ((rssAfter - rssWarm) / 2 ** 20).toFixed(1),
    'post errors': errors,
    'load average at the end': loadAverage(),
  });
}

/** The page's first load in Chromium: every script fetched until the load event, its bytes on the wire (gzipped). */
async function page(info: TrackingInfo) {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
  try {
    const context = await browser.newContext();
    const tab = await context.newPage();
    const cdp = await context.newCDPSession(tab);
    await cdp.send('Network.enable');
    const scripts = new Map<string, { url: string; bytes: number }>();
    const urls = new Map<string, string>();
    cdp.on('Network.responseReceived', (e: { requestId: string; type: string; response: { url: string } }) => {
      if (e.type === 'Script') urls.set(e.requestId, e.response.url);
    });
    cdp.on('Network.loadingFinished', (e: { requestId: string; encodedDataLength: number }) => {
      const url = urls.get(e.requestId);
      if (url) scripts.set(e.requestId, { url, bytes: e.encodedDataLength });
    });
    await tab.goto(`${info.realUrl}/track/${info.tours[0]!.headingToken}`, { waitUntil: 'load' });
    await tab.waitForTimeout(1000);
    const total = [...scripts.values()].reduce((sum, s) => sum + s.bytes, 0);
    rows.push({
      run: 'tracking page first load (Chromium)',
      'scripts fetched': scripts.size,
      'JavaScript on the wire KiB (gzip, headers included)': (total / 1024).toFixed(1),
      goal: '≤ 80 KiB',
    });
    if (total > 80 * 1024) failed = true;
  } finally {
    await browser.close();
  }
}

for (const kind of kinds) {
  const database = await scratchDatabase(kind);
  const server = await startServer<TrackingInfo>(SERVER, database, ENV);
  try {
    if (parts.has('read')) await readVsBare(server.info, kind, server);
    if (parts.has('streams')) await streams(server.info, kind, server);
    if (parts.has('page') && kind === kinds[0]) await page(server.info);
  } finally {
    await server.stop();
    await database.drop();
  }
}
finishReport(rows, failed);
