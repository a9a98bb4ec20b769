// The reports benchmark's server process: one ready 20 MiB report, a bare route serving the same bytes unencrypted
// from a file on disk, and a route reporting the process's peak RSS since the last reset (sampled every 5 ms).
// The report is created from a file streamed through the API, so setting up leaves no 20 MiB buffer behind.
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { createTenant } from '../src/modules/identity/index.ts';
import { createRuntime } from '../src/runtime.ts';
import { reportReady } from './_harness.ts';

export interface ReportsInfo {
  baseUrl: string;
  token: string;
  reportId: string;
  size: number;
}

const SIZE = 20 * 1024 * 1024;
const config = loadConfig();
const runtime = await createRuntime(config, { migrate: true });
const { admin_token: token } = await createTenant(runtime.deps, { name: 'Bench' });
const app = await buildApp(runtime.deps);

const rawFile = path.join(config.dataDir, 'raw-20mib.bin');
const out = fs.openSync(rawFile, 'w');
for (let written = 0; written < SIZE; written += 1024 * 1024) fs.writeSync(out, randomBytes(1024 * 1024));
fs.closeSync(out);

// RSS, and what JavaScript holds (heap + external: Buffers live in `external`) — RSS alone can hide growth in memory
// the process freed earlier and reuses.
const held = (): number => {
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.external;
};
let peak = 0;
let peakHeld = 0;
setInterval(() => {
  peak = Math.max(peak, process.memoryUsage().rss);
  peakHeld = Math.max(peakHeld, held());
}, 5).unref();

app.get('/bench/raw', { config: { auth: 'public' }, schema: { hide: true } }, async (_request, reply) =>
  reply.header('content-type', 'application/octet-stream').header('content-length', String(SIZE)).send(fs.createReadStream(rawFile)),
);
app.post('/bench/rss', { config: { auth: 'public' }, schema: { hide: true } }, async () => {
  global.gc?.();
  const rss = process.memoryUsage().rss;
  const now = held();
  const result = { rss, peak: Math.max(peak, rss), held: now, peakHeld: Math.max(peakHeld, now) };
  peak = rss;
  peakHeld = now;
  return result;
});

const boundary = 'benchboundary';
async function* multipartBody() {
  yield Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="report"\r\n\r\n${JSON.stringify({ title: 'Bench', grants: [{ type: 'all_admins' }] })}\r\n`);
  yield Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bench.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`);
  for await (const chunk of fs.createReadStream(rawFile)) yield chunk as Buffer;
  yield Buffer.from(`\r\n--${boundary}--\r\n`);
}
const created = await app.inject({
  method: 'POST',
  url: '/api/reports',
  headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
  payload: Readable.from(multipartBody()),
});
if (created.statusCode !== 201) throw new Error(`creating the bench report: ${created.statusCode} ${created.body}`);

const address = await app.listen({ port: 0, host: '127.0.0.1' });
reportReady({ baseUrl: address, token, reportId: (created.json() as { report: { id: string } }).report.id, size: SIZE } satisfies ReportsInfo);
