// The TypeScript client as an integrator gets it: built, packed with `npm pack`, installed from the tarball into a
// scratch project, its README's examples compiled against the installed package, and a small program run against a
// live server (decision 0162).
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signatureHeader } from '../../src/modules/webhooks/signing.ts';
import { buildTestApp, type TestApp, type TestTenant } from '../app.ts';
import { createUser, expectOk } from '../factories.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const CLIENT = path.join(ROOT, 'clients', 'typescript');
const TSC = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

let t: TestApp;
let tenant: TestTenant;
let baseUrl: string;
let scratch: string;

const run = (command: string, args: string[], cwd: string) => execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000 });
/** tsc over the scratch project's files: Node.js types from the repository, the client from the installed tarball. */
const compile = (files: string[]) =>
  run(process.execPath, [TSC, '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022', '--strict', '--skipLibCheck', '--lib', 'es2023,dom', '--typeRoots', path.join(ROOT, 'node_modules', '@types'), '--types', 'node', '--outDir', 'out', ...files], scratch);

/** The small program an integrator would write first: sign in, page through a list, create idempotently, verify a delivery. */
const PROGRAM = `
import { createTourbookClient, verifyWebhook } from '@tourbook/client';

const [baseUrl, email, password, apiKey, secret, id, timestamp, body, signature] = process.argv.slice(2) as [string, string, string, string, string, string, string, string, string];
const { data: tokens, error } = await createTourbookClient({ baseUrl, token: '' }).POST('/api/signin', { body: { user: { email, password } } });
if (error) throw new Error(error.error_code);
const me = await createTourbookClient({ baseUrl, token: tokens.access_token }).GET('/api/user');

const api = createTourbookClient({ baseUrl, token: apiKey });
const place = () => api.POST('/api/places', {
  params: { header: { 'Idempotency-Key': 'package-test-place' } },
  body: { place: { name: 'Depot', location: { lat: 52.53, lng: 13.33 }, address: { street: 'Beusselstraße', city: 'Berlin' } } },
});
const first = await place();
const again = await place();

const names: string[] = [];
let cursor: string | undefined;
let pages = 0;
do {
  const { data } = await api.GET('/api/places', { params: { query: { limit: 1, cursor } } });
  if (!data) throw new Error('list failed');
  names.push(...data.places.map((p) => p.name));
  cursor = data.meta.next_cursor ?? undefined;
  pages++;
} while (cursor);

const headers = { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': signature };
console.log(JSON.stringify({
  role: me.data?.user.role,
  created: first.response.status,
  replayed: again.response.status,
  same: first.data?.place.id === again.data?.place.id,
  pages,
  names,
  verified: await verifyWebhook(secret, headers, body),
  tampered: await verifyWebhook(secret, headers, body + ' '),
}));
`;

let packed: { filename: string; version: string; files: { path: string }[] };

beforeAll(async () => {
  t = await buildTestApp();
  tenant = await t.createTenant();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'tourbook-client-'));
  // What CI does with the client: build, pack, install the tarball into an empty project (openapi-fetch from the cache).
  run(process.execPath, [path.join(CLIENT, 'build.mjs')], CLIENT);
  packed = (JSON.parse(run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', scratch], CLIENT)) as (typeof packed)[])[0]!;
  fs.writeFileSync(path.join(scratch, 'package.json'), JSON.stringify({ name: 'scratch', private: true, type: 'module' }));
  run('npm', ['install', path.join(scratch, packed.filename), '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts'], scratch);
  fs.writeFileSync(path.join(scratch, 'program.ts'), PROGRAM);
  compile(['program.ts']);
}, 180_000);
afterAll(async () => {
  fs.rmSync(scratch, { recursive: true, force: true });
  await t.close();
});

describe('the client package', () => {
  it('packs compiled JavaScript with declarations and the document, under the API version', () => {
    const files = packed.files.map((f) => f.path);
    expect(files).toEqual(expect.arrayContaining(['dist/index.js', 'dist/index.d.ts', 'dist/schema.d.ts', 'dist/webhooks.js', 'openapi.json', 'README.md', 'package.json']));
    expect(files.some((f) => f.startsWith('src/'))).toBe(false);
    const document = JSON.parse(fs.readFileSync(path.join(CLIENT, 'openapi.json'), 'utf8')) as { info: { version: string } };
    expect(packed.version).toBe(document.info.version);
    expect(fs.existsSync(path.join(scratch, 'node_modules', '@tourbook', 'client', 'dist', 'index.js'))).toBe(true);
  });

  it("compiles every example of the README against the installed package", () => {
    const readme = fs.readFileSync(path.join(CLIENT, 'README.md'), 'utf8');
    const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);
    expect(blocks.length).toBe(4);
    const names = blocks.map((code, i) => {
      fs.writeFileSync(path.join(scratch, `readme-${i}.ts`), code);
      return `readme-${i}.ts`;
    });
    compile(names);
  }, 60_000);

  it('runs a program built on the installed package against a live server', async () => {
    const email = `package-${Date.now()}@example.com`;
    await createUser(tenant.admin, { role: 'manager', email, password: 'correct horse battery' });
    await expectOk(tenant.admin.post('/api/places', { place: { name: 'Hub', location: { lat: 52.5, lng: 13.4 }, address: { street: 'Torstraße', city: 'Berlin' } } }), 201);
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const body = JSON.stringify({ type: 'booking.created', data: {} });
    const timestamp = Math.floor(Date.now() / 1000);
    const signature = signatureHeader([secret], 'msg_1', timestamp, body);
    // Asynchronously: the server answering the program runs in this process.
    const { stdout: output } = await promisify(execFile)(process.execPath, ['out/program.js', baseUrl, email, 'correct horse battery', tenant.adminToken, secret, 'msg_1', String(timestamp), body, signature], { cwd: scratch, timeout: 30_000 });
    expect(JSON.parse(output)).toEqual({ role: 'manager', created: 201, replayed: 201, same: true, pages: 2, names: expect.arrayContaining(['Hub', 'Depot']), verified: true, tampered: false });
  }, 60_000);
});
