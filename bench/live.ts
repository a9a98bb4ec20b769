// Live tracking (issue 15), on PGlite and PostgreSQL:
// (1) POST /api/hailing/tours/{id}/driver_location with ETA recomputation over a 30-stop tour (20 tours, one
//     connection each, every fix a new current position) vs the bare one-INSERT route — goal ratio ≥ 0.5;
// (2) 1,000 open streams (managers of 10 organizations) while drivers post 100 positions/s: p99 position-to-client
//     latency ≤ 250 ms, server RSS growth ≤ 200 MiB. The tour.etas_recalculated events the fixes cause reach the
//     streams through the outbox poller: the two delivery paths (LISTEN/NOTIFY vs the shared poller, decision 0902)
//     are measured side by side.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon, { type Request } from 'autocannon';
import {
  answerOnStop,
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
  type DatabaseKind,
  type ServerHandle,
} from './_harness.ts';
import type { LiveInfo } from './_live-server.ts';

interface Received {
  /** `${tour_id}@${recorded_at}` of every position frame, with its arrival (Date.now()). */
  positions: [string, number][];
  etas: [string, number][];
  /** Streams the server ended before the run did (a slow reader is closed by design, decision 0902). */
  closed: number;
}

/** The receiver process: opens the streams it is sent, records arrivals, answers them on 'stop'. */
async function runReceiver(): Promise<never> {
  const received: Received = { positions: [], etas: [], closed: 0 };
  const { url, tokens } = await receiverInput<{ url: string; tokens: string[] }>();
  const onBlock = (block: string, now: number) => {
    const data = block.indexOf('\ndata: ');
    if (data < 0) return;
    const envelope = JSON.parse(block.slice(data + 7)) as { type: string; data: { tour_id: string; location?: { recorded_at: string } } };
    if (envelope.type === 'tour.driver_location_updated' && envelope.data.location) received.positions.push([`${envelope.data.tour_id}@${envelope.data.location.recorded_at}`, now]);
    else if (envelope.type === 'tour.etas_recalculated') received.etas.push([envelope.data.tour_id, now]);
  };
  await openSseStreams(url, tokens.map((token) => ({ path: '/api/live', headers: { authorization: `Bearer ${token}` }, onBlock })), received);
  return answerOnStop(received);
}
if (process.env.BENCH_LIVE_RECEIVER) await runReceiver();

const SERVER = path.join(path.dirname(fileURLToPath(import.meta.url)), '_live-server.ts');
const DURATION = Number(process.env.BENCH_DURATION_SECONDS ?? 10);
const STREAMS = Number(process.env.BENCH_LIVE_STREAMS ?? 1000);
const RATE = Number(process.env.BENCH_LIVE_RATE ?? 100);
/** BENCH_LIVE_PARTS=positions,streams,delivery runs only those parts (all by default). */
const parts = new Set(process.env.BENCH_LIVE_PARTS?.split(',') ?? ['positions', 'streams', 'delivery']);
/** In the streams part, one fix in this many per tour moves the ETAs (events through the outbox poller). */
const STREAM_HOP_EVERY = Number(process.env.BENCH_LIVE_HOP_EVERY ?? 10);
const kinds: DatabaseKind[] = (process.env.BENCH_DATABASES?.split(',') as DatabaseKind[] | undefined) ?? ['pglite', 'postgres'];

console.log(`Machine: ${machineDescription()}; load average ${loadAverage()}`);
console.log(`(1) autocannon one connection per tour, ${DURATION} s after a warm-up; (2) ${STREAMS} streams, ${RATE} positions/s for ${DURATION} s\n`);

const rows: Record<string, string | number>[] = [];
let failed = false;

/** Non-2xx answers by status with one body each: a run with errors is invalid, and this says why. */
const refused = new Map<number, { count: number; body: string }>();
function noteAnswer(status: number, body: string | Buffer): void {
  if (status >= 200 && status < 300) return;
  const seen = refused.get(status) ?? { count: 0, body: String(body).slice(0, 300) };
  seen.count += 1;
  refused.set(status, seen);
}

/**
 * The drivers' fixes, one counter per tour for the whole run (every fix is newer than the last, so every post is a
 * current position). Fixes are 20 s apart in recorded time. A driver in slow traffic moves 40 m back and forth: its
 * ETAs are recomputed on every fix but stay within 60 s of what was last told (no events: the common case). With
 * `hopEvery` > 0 the driver hops 1 km away or back every `hopEvery` fixes (180 km/h: under the jump filter), which
 * moves the ETAs by minutes and records tour.etas_recalculated plus one booking.etas_recalculated per booking (16
 * events); with 1, every fix does (the worst case).
 */
function fixGenerator(info: LiveInfo) {
  const counters = info.tours.map(() => 0);
  const base = Date.now() - 30 * 86_400_000;
  return (tour: number, hopEvery: number) => {
    const n = counters[tour]!++;
    const hopped = hopEvery > 0 && Math.floor(n / hopEvery) % 2 === 1;
    const lat = 52.45 + (n % 2) * 0.00036 + (hopped ? 0.009 : 0);
    const movesEtas = hopEvery > 0 && n % hopEvery === 0;
    return { location: { lat, lng: 13.3 + tour * 1e-4, recorded_at: new Date(base + n * 20_000).toISOString() }, movesEtas };
  };
}
let next: ReturnType<typeof fixGenerator>;

async function positionsVsBare(info: LiveInfo, kind: DatabaseKind, server: Awaited<ReturnType<typeof startServer<LiveInfo>>>) {
  // One connection per tour: a tour's positions serialize on its tracking row, as one phone's do.
  const connections = info.tours.length;
  const bare = await load({ label: `${kind} bare INSERT`, url: info.bareInsertUrl, method: 'POST', durationSeconds: DURATION, server, connections });
  if (bare.non2xx || bare.errors) failed = true;
  rows.push({ run: bare.label, 'req/s': Math.round(bare.requestsPerSecond), 'p50 ms': bare.p50Ms, 'p99 ms': bare.p99Ms, 'server CPU µs/req': Math.round(bare.cpuMicrosPerRequest ?? 0) });
  await positionRun(info, kind, server, bare, 0, `${kind} position, ETAs recomputed (30 stops), no event`);
  await positionRun(info, kind, server, bare, 1, `${kind} position, ETAs moved: 16 events each`);
}

async function positionRun(info: LiveInfo, kind: DatabaseKind, server: Awaited<ReturnType<typeof startServer<LiveInfo>>>, bare: Awaited<ReturnType<typeof load>>, hopEvery: number, label: string) {
  const connections = info.tours.length;
  // A tour is never posted twice at once, as one phone's positions follow each other: autocannon hands a connection
  // no identity, so each request takes the next tour with none in flight (there is always one: connections = tours)
  // and frees it with its answer (a connection builds its next request only after its answer). Round-robin turns
  // alone let two connections post one tour together.
  let turn = 0;
  const inFlight = new Set<number>();
  const requests: Request[] = [
    {
      method: 'POST',
      setupRequest: (req, context) => {
        let t = turn++ % info.tours.length;
        for (let tries = 1; inFlight.has(t) && tries < info.tours.length; tries++) t = turn++ % info.tours.length;
        inFlight.add(t);
        (context as { tour?: number }).tour = t;
        const tour = info.tours[t]!;
        return { ...req, path: `/api/hailing/tours/${tour.id}/driver_location`, headers: { authorization: `Bearer ${tour.driverToken}`, 'content-type': 'application/json' }, body: JSON.stringify({ location: next(t, hopEvery).location }) };
      },
      onResponse: (status, body, context) => {
        inFlight.delete((context as { tour?: number }).tour ?? -1);
        noteAnswer(status, body);
      },
    },
  ];
  await autocannon({ url: info.realUrl, connections: 10, duration: 2, requests });
  inFlight.clear(); // what the warm-up left unanswered
  const cpuBefore = await server.cpuMicros();
  const result = await autocannon({ url: info.realUrl, connections, duration: DURATION, requests });
  const cpuAfter = await server.cpuMicros();
  if (result.non2xx || result.errors || result.timeouts) failed = true;
  const cpu = (cpuAfter - cpuBefore) / Math.max(1, result.requests.total);
  rows.push({
    run: label,
    'req/s': Math.round(result.requests.average),
    'p50 ms': result.latency.p50,
    'p99 ms': result.latency.p99,
    'server CPU µs/req': Math.round(cpu),
    'position/bare': (result.requests.average / bare.requestsPerSecond).toFixed(2),
    'CPU bare/position': ((bare.cpuMicrosPerRequest ?? 0) / cpu).toFixed(2),
  });
}

interface StreamRun {
  label: string;
  /** Where the streams are held (another process than the one posting, for the delivery part). */
  streamUrl: string;
  rssUrl: string;
  streams: number;
  rate: number;
  hopEvery: number;
  /** The process holding the streams, for its CPU time per position. */
  server: ServerHandle<LiveInfo>;
}

async function streams(info: LiveInfo, run: StreamRun) {
  const rss = async () => ((await (await fetch(run.rssUrl)).json()) as { rss: number }).rss;
  const tokens = Array.from({ length: run.streams }, (_, i) => {
    const org = info.managerTokens[i % info.managerTokens.length]!;
    return org[Math.floor(i / info.managerTokens.length) % org.length]!;
  });
  // The stream clients run in a child process (this file with BENCH_LIVE_RECEIVER set), so parsing 10,000 frames/s does
  // not delay the posts, nor the clock they are timed with (Date.now(), one clock for both processes).
  const receiver = await startReceiver<Received>(fileURLToPath(import.meta.url), 'BENCH_LIVE_RECEIVER', { url: run.streamUrl, tokens });
  const sentAt = new Map<string, number>();
  /** Send times of the fixes that moved a tour's ETAs (an etas_recalculated frame is timed from the last one). */
  const moves = new Map<string, number[]>();
  let errors = 0;
  const postLatency: number[] = [];
  /** When each post's answer arrived: a frame's arrival minus it is the delivery alone (NOTIFY, fan-out, client). */
  const answeredAt = new Map<string, number>();
  const total = run.rate * DURATION;
  const inflight: Promise<void>[] = [];
  // A tour's fixes are posted one after the other, as a phone's are: a fix due while the tour's previous post is in
  // flight goes when it is answered. Overlapping posts of one tour can commit out of order, and a fix older than the
  // tour's current position moves nothing and reaches no stream (it would count as a lost frame).
  const previous = info.tours.map((): Promise<void> => Promise.resolve());
  /** `count` fixes at the run's rate; only measured ones are timed (a frame is matched to its fix by sentAt). */
  const postFixes = async (count: number, measured: boolean) => {
    const started = Date.now();
    for (let n = 0; n < count; n++) {
      const wait = started + (n * 1000) / run.rate - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const t = n % info.tours.length;
      const tour = info.tours[t]!;
      const fix = next(t, run.hopEvery);
      const post = previous[t]!.then(async () => {
        const at = Date.now();
        if (measured) sentAt.set(`${tour.id}@${fix.location.recorded_at}`, at);
        if (measured && fix.movesEtas) (moves.get(tour.id) ?? moves.set(tour.id, []).get(tour.id))?.push(at);
        const res = await fetch(`${info.realUrl}/api/hailing/tours/${tour.id}/driver_location`, {
          method: 'POST',
          headers: { authorization: `Bearer ${tour.driverToken}`, 'content-type': 'application/json' },
          body: JSON.stringify({ location: fix.location }),
        });
        const body = await res.text();
        if (measured) postLatency.push(Date.now() - at);
        if (measured) answeredAt.set(`${tour.id}@${fix.location.recorded_at}`, Date.now());
        if (res.status !== 200) errors += 1;
        noteAnswer(res.status, body);
      });
      previous[t] = post.catch(() => undefined);
      inflight.push(post);
    }
    await Promise.allSettled(inflight);
  };
  // Two seconds unmeasured first: run alone (BENCH_LIVE_PARTS=streams), the part would otherwise time a cold server's
  // first requests (code paths compiled on first use), 300–550 ms at p99 against ~200 ms warm.
  await postFixes(run.rate * 2, false);
  await new Promise((resolve) => setTimeout(resolve, 500));
  const rssBefore = await rss();
  const cpuBefore = await run.server.cpuMicros();
  await postFixes(total, true);
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  const rssAfter = await rss();
  const cpuAfter = await run.server.cpuMicros();
  const received = await receiver.stop();
  if (errors) failed = true;
  const positionLatency = received.positions.flatMap(([key, at]) => (sentAt.has(key) ? [at - sentAt.get(key)!] : []));
  const afterAnswer = received.positions.flatMap(([key, at]) => (answeredAt.has(key) ? [at - answeredAt.get(key)!] : []));
  const outboxLatency = received.etas.flatMap(([tourId, at]) => {
    const sent = (moves.get(tourId) ?? []).filter((s) => s <= at).pop();
    return sent === undefined ? [] : [at - sent];
  });
  const expected = total * (run.streams / info.managerTokens.length);
  rows.push({
    run: run.label,
    'frames received': positionLatency.length,
    'frames expected': expected,
    'streams closed early': received.closed,
    'position p50 ms': median(positionLatency).toFixed(1),
    'position p99 ms': quantile(positionLatency, 0.99).toFixed(1),
    'position max ms': quantile(positionLatency, 1).toFixed(1),
    'post p50 / p99 ms': `${median(postLatency).toFixed(0)} / ${quantile(postLatency, 0.99).toFixed(0)}`,
    'frame after answer p50 / p99 ms': `${median(afterAnswer).toFixed(0)} / ${quantile(afterAnswer, 0.99).toFixed(0)}`,
    'outbox event p50 ms': median(outboxLatency).toFixed(1),
    'outbox event p99 ms': quantile(outboxLatency, 0.99).toFixed(1),
    'outbox event max ms': quantile(outboxLatency, 1).toFixed(1),
    'outbox frames': outboxLatency.length,
    'stream server CPU ms/s': ((cpuAfter - cpuBefore) / 1000 / (DURATION + 1.5)).toFixed(0),
    'RSS growth MiB': ((rssAfter - rssBefore) / 2 ** 20).toFixed(1),
    'post errors': errors,
  });
}

/**
 * Two API processes on one PostgreSQL (decision 0902): streams held by a second process, positions posted to the
 * first, one fix in 4 moving the ETAs. A position reaches the other process by NOTIFY, its tour.etas_recalculated by
 * that process's outbox poller (LIVE_POLL_MS): the two paths side by side, against the 1 s.
 */
async function delivery(info: LiveInfo, database: Awaited<ReturnType<typeof scratchDatabase>>) {
  const other = await startServer<LiveInfo>(SERVER, database, { BENCH_LIVE_ROLE: 'listener' });
  try {
    const label = `postgres, 2 processes: ${DELIVERY_STREAMS} streams on one, ${DELIVERY_RATE} positions/s to the other, 1 in 4 moving ETAs`;
    await streams(info, { label, streamUrl: other.info.realUrl, rssUrl: other.info.rssUrl, server: other, streams: DELIVERY_STREAMS, rate: DELIVERY_RATE, hopEvery: 4 });
  } finally {
    await other.stop();
  }
}
const DELIVERY_STREAMS = Number(process.env.BENCH_LIVE_DELIVERY_STREAMS ?? 100);
const DELIVERY_RATE = Number(process.env.BENCH_LIVE_DELIVERY_RATE ?? 20);

for (const kind of kinds) {
  const database = await scratchDatabase(kind);
  const server = await startServer<LiveInfo>(SERVER, database);
  try {
    const info = server.info;
    next = fixGenerator(info);
    if (parts.has('positions')) await positionsVsBare(info, kind, server);
    if (parts.has('streams')) {
      const label = `${kind} ${STREAMS} streams, ${RATE} positions/s, 1 in ${STREAM_HOP_EVERY} moves ETAs`;
      await streams(info, { label, streamUrl: info.realUrl, rssUrl: info.rssUrl, server, streams: STREAMS, rate: RATE, hopEvery: STREAM_HOP_EVERY });
    }
    if (parts.has('delivery') && kind === 'postgres') await delivery(info, database);
  } finally {
    await server.stop();
    await database.drop();
  }
}
for (const [status, { count, body }] of refused) console.error(`${count} × ${status}: ${body}`);
finishReport(rows, failed);
