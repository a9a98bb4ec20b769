// The driver app's performance (issue 29), in Chromium against the real app in its own process on a scratch PGlite
// database (bench/_driver-server.ts; run `npm run build` first for dist/web). Goals:
// (1) first load ≤ 150 KiB of gzipped JavaScript;
// (2) with CDP's emulation of a mid-range phone (4× CPU slowdown, "Fast 3G": 562.5 ms RTT, 1.44 Mbit/s down,
//     675 kbit/s up) the tour screen is usable — its first stop's first step button on screen — in ≤ 3 s on a first
//     visit and ≤ 1 s on a repeat visit (service worker shell, cached data);
// (3) 100 actions queued offline are all accepted by the server within ≤ 10 s of the connection returning.
//
// How each figure is taken:
// - JS bytes: the scripts the signed-in /driver/ page loads in a fresh context, fetched again from Node with
//   `accept-encoding: gzip`, counted as served. Ratio: against the goal.
// - Usable: a fresh context signed in with POST /api/session (cookie), throttled through CDP, navigates to
//   /driver/tours/{id}; the time is performance.now() when the "Approach" button is first visible (polled by the bench
//   every 20 ms, so ≤ 20 ms late). Repeat: the same context navigates again (service worker and localStorage warm).
//   BENCH_DRIVER_RUNS runs (3), the median is printed. BENCH_DRIVER_TRACE=1 adds one traced first visit, not counted:
//   its network waterfall and CPU time per script. BENCH_DRIVER_PARTS=js,usable,replay chooses the figures taken.
// - Replay: a tour of 50 stops en route; with the context offline the bench writes 100 actions (arrive, complete per
//   stop) into the outbox's IndexedDB store through the page, as the app would, then goes online and reloads; the
//   time is from the reload until the server shows every stop completed. Baseline: the same 100 requests sent one
//   after the other from Node with the driver's cookie (no browser).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { clientOf, type TestResponse } from '../test/app.ts';
import { createBooking, createOrganization, createService, createServiceArea, createUser, expectOk, tourEnRoute } from '../test/factories.ts';
import type { DriverBenchInfo } from './_driver-server.ts';
import { machineDescription, median, printTable, scratchDatabase, startServer } from './_harness.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const RUNS = Number(process.env.BENCH_DRIVER_RUNS ?? 3);
/** BENCH_DRIVER_PARTS: which of js, usable, replay run (all by default). */
const PARTS = new Set((process.env.BENCH_DRIVER_PARTS ?? 'js,usable,replay').split(','));
const PASSWORD = 'correct horse battery staple';
const FAST_3G = { offline: false, latency: 562.5, downloadThroughput: (1.6 * 1024 * 1024 * 0.9) / 8, uploadThroughput: (750 * 1024 * 0.9) / 8 };

const database = await scratchDatabase('pglite');
const server = await startServer<DriverBenchInfo>(path.join(path.dirname(fileURLToPath(import.meta.url)), '_driver-server.ts'), database);
const { url, token } = server.info;
const admin = clientOf(token, async (method, pathname, body, options = {}): Promise<TestResponse> => {
  const response = await fetch(`${url}${pathname}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(options.headers ?? {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, text, body: text ? (JSON.parse(text) as unknown) : null, headers: Object.fromEntries(response.headers) };
});
const area = await createServiceArea(admin, { name: 'Bench' });
const service = await createService(admin, { service_area_id: area.id, max_stops_per_tour: 200 });
const org = await createOrganization(admin, { name: 'Bench Kurier' });

async function driverWithTour(bookings: number) {
  const email = `bench-${Math.random().toString(36).slice(2)}@example.com`;
  const driver = await createUser(admin, { role: 'driver', email, password: PASSWORD, name: 'Bench Driver', organization_ids: [org.id] });
  const ids = [];
  for (let i = 0; i < bookings; i++) ids.push((await createBooking(admin, { service_id: service.id, managing_organization_ids: [org.id] })).id);
  const tour = await tourEnRoute(admin, ids, driver.id);
  return { email, tour };
}

const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-dev-shm-usage'] });
const rows: Record<string, string | number>[] = [];
const GOALS = { js: 150, first: 3000, repeat: 1000, replay: 10_000 };

try {
  // (1) JavaScript of the first load.
  if (PARTS.has('js')) {
    const { email } = await driverWithTour(1);
    const context = await browser.newContext();
    await context.request.post(`${url}/api/session`, { data: { user: { email, password: PASSWORD } }, headers: { origin: url } });
    const page = await context.newPage();
    const scripts = new Set<string>();
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.add(request.url());
    });
    await page.goto(`${url}/driver/`);
    await page.getByRole('heading', { name: 'My tours' }).waitFor();
    let bytes = 0;
    // As served: the length of the gzip copy (fetch() would decode it before counting).
    for (const script of scripts) bytes += Number((await fetch(script, { headers: { 'accept-encoding': 'gzip' } })).headers.get('content-length'));
    rows.push({ figure: 'first-load JS (gzip)', value: `${(bytes / 1024).toFixed(1)} KiB`, goal: `≤ ${GOALS.js} KiB`, ratio: (bytes / 1024 / GOALS.js).toFixed(2) });
    await context.close();
  }

  // (2) Tour screen usable, first and repeat visit, phone emulation.
  if (PARTS.has('usable')) {
    const first: number[] = [];
    const repeat: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const { email, tour } = await driverWithTour(5);
      const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
      await context.request.post(`${url}/api/session`, { data: { user: { email, password: PASSWORD } }, headers: { origin: url } });
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', FAST_3G);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
      const usable = async () => {
        await page.goto(`${url}/driver/tours/${tour.id}`, { waitUntil: 'commit' });
        const button = page.getByRole('button', { name: 'Approach', exact: true }).first();
        await button.waitFor({ state: 'visible', timeout: 60_000 });
        return (await page.evaluate('performance.now()')) as number;
      };
      first.push(await usable());
      // The service worker takes over once installed; the repeat visit is what the driver sees on every later start.
      await page.waitForFunction('navigator.serviceWorker.controller !== null', undefined, { timeout: 60_000 }).catch(() => undefined);
      repeat.push(await usable());
      await context.close();
    }
    rows.push({ figure: 'tour screen usable, first visit (4× CPU, Fast 3G)', value: `${Math.round(median(first))} ms`, goal: `≤ ${GOALS.first} ms`, ratio: (median(first) / GOALS.first).toFixed(2) });
    rows.push({ figure: 'tour screen usable, repeat visit (4× CPU, Fast 3G)', value: `${Math.round(median(repeat))} ms`, goal: `≤ ${GOALS.repeat} ms`, ratio: (median(repeat) / GOALS.repeat).toFixed(2) });
  }

  // (2b) BENCH_DRIVER_TRACE=1: one more first visit, not counted (the profiler slows it), printed as its network
  // waterfall (ms after the page's request: sent, first byte, done; bytes as transferred) and the CPU profile's time
  // per script (self time, throttled), up to the tour screen being usable: where a first visit's time goes.
  if (process.env.BENCH_DRIVER_TRACE) {
    const { email, tour } = await driverWithTour(5);
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await context.request.post(`${url}/api/session`, { data: { user: { email, password: PASSWORD } }, headers: { origin: url } });
    const page = await context.newPage();
    // A page of the origin first, so the profiled navigation stays in this renderer process (not a driver page: no
    // asset is cached by it).
    await page.goto(`${url}/healthz`);
    const cdp = await context.newCDPSession(page);
    const requests = new Map<string, { url: string; sent: number; firstByte?: number; done?: number; bytes?: number }>();
    cdp.on('Network.requestWillBeSent', (e) => void requests.set(e.requestId, { url: e.request.url, sent: e.timestamp }));
    cdp.on('Network.responseReceived', (e) => void Object.assign(requests.get(e.requestId) ?? {}, { firstByte: e.timestamp }));
    cdp.on('Network.loadingFinished', (e) => void Object.assign(requests.get(e.requestId) ?? {}, { done: e.timestamp, bytes: e.encodedDataLength }));
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', FAST_3G);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 250 });
    await cdp.send('Profiler.start');
    await page.goto(`${url}/driver/tours/${tour.id}`, { waitUntil: 'commit' });
    await page.getByRole('button', { name: 'Approach', exact: true }).first().waitFor({ state: 'visible', timeout: 60_000 });
    const usableAt = (await page.evaluate('performance.now()')) as number;
    const { profile } = await cdp.send('Profiler.stop');
    await context.close();
    const all = [...requests.values()].sort((a, b) => a.sent - b.sent);
    const origin = all.find((r) => r.url.includes('/driver/tours/'))?.sent ?? all[0]!.sent;
    const ms = (t: number | undefined) => (t === undefined ? '—' : String(Math.round((t - origin) * 1000)));
    console.log(`first visit traced: usable at ${Math.round(usableAt)} ms (profiler on)`);
    for (const r of all.filter((r) => r.sent >= origin)) console.log(`  ${ms(r.sent).padStart(6)} ${ms(r.firstByte).padStart(6)} ${ms(r.done).padStart(6)} ${String(r.bytes ?? '—').padStart(7)}  ${r.url.replace(url, '')}`);
    const byScript = new Map<string, number>();
    const nodes = new Map(profile.nodes.map((node) => [node.id, node] as const));
    profile.samples?.forEach((id, i) => {
      const node = nodes.get(id)!;
      const key = node.callFrame.url ? node.callFrame.url.replace(url, '') : `(${node.callFrame.functionName || 'native'})`;
      byScript.set(key, (byScript.get(key) ?? 0) + (profile.timeDeltas?.[i] ?? 0) / 1000);
    });
    for (const [script, time] of [...byScript].sort((a, b) => b[1] - a[1]).slice(0, 12)) console.log(`  ${String(Math.round(time)).padStart(6)} ms  ${script}`);
  }

  // (3) Replay of 100 queued actions.
  if (PARTS.has('replay')) {
    const { email, tour } = await driverWithTour(25);
    const stops = [...(tour.stops as { id: string; tour_position: number }[])].sort((a, b) => a.tour_position - b.tour_position);
    const context = await browser.newContext();
    await context.request.post(`${url}/api/session`, { data: { user: { email, password: PASSWORD } }, headers: { origin: url } });
    const page = await context.newPage();
    await page.goto(`${url}/driver/tours/${tour.id}`);
    await page.getByRole('button', { name: 'Approach', exact: true }).first().waitFor();
    await context.setOffline(true);
    const now = Date.now();
    const actions = stops.flatMap((stop, i) =>
      (['arrive', 'complete'] as const).map((kind, k) => ({
        key: `bench-${crypto.randomUUID()}`,
        seq: now + i * 2 + k,
        kind,
        tourId: tour.id,
        stopId: stop.id,
        method: 'POST',
        path: `/api/stops/${stop.id}/${kind}`,
        body: {},
        takenAt: now,
        attempts: 0,
        notBefore: 0,
        state: 'waiting',
        problem: null,
      })),
    );
    await page.evaluate(
      `new Promise((resolve, reject) => { const open = indexedDB.open('tourbook-driver', 1); open.onsuccess = () => { const tx = open.result.transaction('actions', 'readwrite'); for (const a of ${JSON.stringify(actions)}) tx.objectStore('actions').put(a); tx.oncomplete = () => { open.result.close(); resolve(null); }; tx.onerror = () => reject(tx.error); }; open.onerror = () => reject(open.error); })`,
    );
    await context.setOffline(false);
    const started = performance.now();
    await page.reload();
    for (;;) {
      const body = await expectOk(admin.get(`/api/hailing/tours/${tour.id}`));
      if ((body.tour.stops as { status: string }[]).every((s) => s.status === 'completed')) break;
      if (performance.now() - started > 120_000) throw new Error('replay did not finish in 120 s');
      // Not more often: each poll reads the 50-stop tour on the same (single-threaded PGlite) server.
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const replay = performance.now() - started;
    await context.close();

    // Baseline: the same 100 requests from Node, one after the other, with a driver cookie.
    const other = await driverWithTour(25);
    const session = await fetch(`${url}/api/session`, { method: 'POST', headers: { 'content-type': 'application/json', origin: url }, body: JSON.stringify({ user: { email: other.email, password: PASSWORD } }) });
    const cookie = session.headers.get('set-cookie')!.split(';')[0]!;
    const otherStops = [...(other.tour.stops as { id: string; tour_position: number }[])].sort((a, b) => a.tour_position - b.tour_position);
    const baseStarted = performance.now();
    for (const stop of otherStops)
      for (const kind of ['arrive', 'complete']) {
        const response = await fetch(`${url}/api/stops/${stop.id}/${kind}`, { method: 'POST', headers: { 'content-type': 'application/json', cookie, origin: url, 'idempotency-key': crypto.randomUUID() }, body: '{}' });
        if (!response.ok) throw new Error(`baseline ${kind}: ${response.status} ${await response.text()}`);
      }
    const baseline = performance.now() - baseStarted;
    rows.push({ figure: `replay of ${actions.length} queued actions`, value: `${Math.round(replay)} ms`, goal: `≤ ${GOALS.replay} ms`, ratio: (replay / GOALS.replay).toFixed(2) });
    rows.push({ figure: `baseline: the same ${actions.length} requests from Node`, value: `${Math.round(baseline)} ms`, goal: '—', ratio: (replay / baseline).toFixed(2) });
  }
} finally {
  await browser.close();
  await server.stop();
  await database.drop();
}

console.log(`driver app bench — ${machineDescription()}`);
printTable(rows);
