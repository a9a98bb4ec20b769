// Reports (issue 14): GET /api/reports/{id}/download of a 20 MiB report (decrypted chunk by chunk) vs a bare route
// serving the same bytes unencrypted from disk in the same server; goal ≥ 0.5. Then the server's peak RSS growth while
// ten 20 MiB reports download at once and while ten 20 MiB multipart uploads arrive at once; goal < 64 MiB each.
// Embedded PGlite (the database is not on the byte path). BENCH_ROUNDS (default 3) alternating rounds, medians.
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { machineDescription, scratchDatabase, startServer, type ServerHandle } from './_harness.ts';
import type { ReportsInfo } from './_reports-server.ts';

const SERVER = path.join(path.dirname(fileURLToPath(import.meta.url)), '_reports-server.ts');
const DURATION = Number(process.env.BENCH_DURATION_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 4);
const MiB = 1024 * 1024;

console.log(`Machine: ${machineDescription()}`);
console.log(`${CONNECTIONS} parallel download loops, ${DURATION} s per run after one warm-up download, ${ROUNDS} alternating rounds, medians\n`);

async function rss(baseUrl: string): Promise<{ rss: number; peak: number; held: number; peakHeld: number }> {
  const res = await fetch(`${baseUrl}/bench/rss`, { method: 'POST' });
  return (await res.json()) as { rss: number; peak: number; held: number; peakHeld: number };
}

/** Downloads and discards the body; resolves with the byte count. */
function download(url: string, token: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { authorization: `Bearer ${token}` } }, (res) => {
        let bytes = 0;
        res.on('data', (chunk: Buffer) => (bytes += chunk.length));
        res.on('end', () => (res.statusCode === 200 ? resolve(bytes) : reject(new Error(`download answered ${res.statusCode}`))));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

/** Streams a 20 MiB multipart upload generated on the fly (the client holds one 64 KiB chunk at a time). */
function upload(baseUrl: string, token: string, size: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const boundary = `bench${Math.random().toString(36).slice(2)}`;
    const req = http.request(`${baseUrl}/api/reports`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}` } }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 201 ? resolve(res.statusCode) : reject(new Error(`upload answered ${res.statusCode}`))));
    });
    req.on('error', reject);
    req.write(`--${boundary}\r\nContent-Disposition: form-data; name="report"\r\n\r\n${JSON.stringify({ title: 'Upload', grants: [{ type: 'all_admins' }] })}\r\n`);
    req.write(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="u.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`);
    const chunk = Buffer.alloc(64 * 1024, 7);
    let sent = 0;
    const pump = () => {
      while (sent < size) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      req.end(`\r\n--${boundary}--\r\n`);
    };
    pump();
  });
}

/** Downloads `url` over `connections` parallel loops for `seconds`; MiB/s and the server's CPU ms per MiB. */
async function throughput(server: ServerHandle<ReportsInfo>, url: string, seconds: number, connections: number) {
  const { token } = server.info;
  await download(url, token); // warm-up
  const cpuBefore = await server.cpuMicros();
  const started = performance.now();
  const until = started + seconds * 1000;
  let bytes = 0;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < until) bytes += await download(url, token);
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const cpu = (await server.cpuMicros()) - cpuBefore;
  return { mibPerSecond: bytes / MiB / elapsed, cpuMsPerMiB: cpu / 1000 / (bytes / MiB) };
}

async function withServer<T>(work: (server: ServerHandle<ReportsInfo>) => Promise<T>): Promise<T> {
  const database = await scratchDatabase('pglite');
  const server = await startServer<ReportsInfo>(SERVER, database, { NODE_OPTIONS: '--expose-gc' });
  try {
    return await work(server);
  } finally {
    await server.stop();
    await database.drop();
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

await withServer(async (server) => {
  const { baseUrl, reportId } = server.info;
  const bare: { mibPerSecond: number; cpuMsPerMiB: number }[] = [];
  const report: { mibPerSecond: number; cpuMsPerMiB: number }[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    bare.push(await throughput(server, `${baseUrl}/bench/raw`, DURATION, CONNECTIONS));
    report.push(await throughput(server, `${baseUrl}/api/reports/${reportId}/download`, DURATION, CONNECTIONS));
  }
  const row = (label: string, runs: typeof bare) => ({
    run: label,
    'MiB/s': median(runs.map((r) => r.mibPerSecond)).toFixed(0),
    'MiB/s per round': runs.map((r) => r.mibPerSecond.toFixed(0)).join(' / '),
    'server CPU ms/MiB': median(runs.map((r) => r.cpuMsPerMiB)).toFixed(2),
  });
  const ratio = median(report.map((r) => r.mibPerSecond)) / median(bare.map((r) => r.mibPerSecond));
  const cpuRatio = median(bare.map((r) => r.cpuMsPerMiB)) / median(report.map((r) => r.cpuMsPerMiB));
  console.table([row('bare 20 MiB from disk', bare), { ...row('report download (decrypting)', report), 'report/bare': ratio.toFixed(2), 'bare/report CPU': cpuRatio.toFixed(2) }]);
  console.log(`Goal: report/bare ≥ 0.5 — ${ratio >= 0.5 ? 'met' : 'NOT met'}\n`);
});

// Peak RSS growth, each load in a fresh server so an earlier load's grown heap does not hide this one's.
const memory: Record<string, string>[] = [];
for (const [label, work] of [
  ['ten 20 MiB downloads at once', (s: ServerHandle<ReportsInfo>) => Promise.all(Array.from({ length: 10 }, () => download(`${s.info.baseUrl}/api/reports/${s.info.reportId}/download`, s.info.token)))],
  ['ten 20 MiB uploads at once', (s: ServerHandle<ReportsInfo>) => Promise.all(Array.from({ length: 10 }, () => upload(s.info.baseUrl, s.info.token, s.info.size)))],
] as const) {
  await withServer(async (server) => {
    const before = await rss(server.info.baseUrl);
    const results = await work(server);
    const after = await rss(server.info.baseUrl);
    if (label.includes('download') && results.some((bytes) => bytes !== server.info.size)) throw new Error('a download came back short');
    const growth = (after.peak - before.rss) / MiB;
    memory.push({
      load: label,
      'RSS before': `${(before.rss / MiB).toFixed(0)} MiB`,
      'peak RSS growth': `${growth.toFixed(1)} MiB`,
      'peak heap+external growth': `${((after.peakHeld - before.held) / MiB).toFixed(1)} MiB`,
      goal: growth < 64 ? '< 64 MiB: met' : '< 64 MiB: NOT met',
    });
  });
}
console.table(memory);
