// The OpenAPI document against real traffic: Prism's validating proxy (`prism proxy --errors`) sits in front of a live
// server and refuses any request or response the document does not describe (decision 0161).
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestTenant } from '../app.ts';

const CSV = 'tour_id,stops\n0193b2e4,12\n';
const PRISM = path.resolve(import.meta.dirname, '../../node_modules/.bin/prism');

let t: TestApp;
let tenant: TestTenant;
let prism: ChildProcess;
let proxy: string;
let dir: string;

/** Starts `prism proxy --errors` on a free port and resolves with its URL once it listens. */
async function startPrism(document: string, upstream: string): Promise<string> {
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  prism = spawn(PRISM, ['proxy', document, upstream, '--errors', '--port', String(port), '--host', '127.0.0.1'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Prism did not start:\n${output}`)), 60_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Prism is listening')) {
        clearTimeout(timer);
        resolve();
      }
    };
    prism.stdout?.on('data', read);
    prism.stderr?.on('data', read);
    prism.on('exit', (code) => reject(new Error(`Prism exited (${code}):\n${output}`)));
  });
  return `http://127.0.0.1:${port}`;
}

beforeAll(async () => {
  t = await buildTestApp();
  tenant = await t.createTenant();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const upstream = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tourbook-prism-'));
  const document = path.join(dir, 'openapi.json');
  fs.writeFileSync(document, JSON.stringify((await t.anonymous.get('/openapi.json')).body));
  proxy = await startPrism(document, upstream);
}, 90_000);
afterAll(async () => {
  prism?.kill();
  fs.rmSync(dir, { recursive: true, force: true });
  await t.close();
});

/** A request through the proxy; Prism answers 422 (request) or 500 (response) with its own problem when it refuses. */
async function through(url: string, init: RequestInit = {}): Promise<{ status: number; type: string; text: string }> {
  const res = await fetch(`${proxy}${url}`, { ...init, headers: { authorization: `Bearer ${tenant.adminToken}`, ...init.headers } });
  const text = await res.text();
  expect(text, `Prism refused ${url}`).not.toContain('stoplight.io/prism/errors');
  return { status: res.status, type: res.headers.get('content-type') ?? '', text };
}

describe('prism proxy --errors in front of the service', () => {
  it('passes the event list without filters', async () => {
    const res = await through('/api/admin/events');
    expect(res.status).toBe(200);
  });

  it('passes a multipart report upload', async () => {
    const form = new FormData();
    form.append('report', JSON.stringify({ title: 'Tours', grants: [{ type: 'all_admins' }] }));
    form.append('file', new Blob([CSV], { type: 'text/csv' }), 'tours.csv');
    const created = await through('/api/reports', { method: 'POST', body: form });
    expect(created.status, created.text).toBe(201);
    expect(JSON.parse(created.text).report).toMatchObject({ status: 'ready', file: { name: 'tours.csv', content_type: 'text/csv' } });
  });

  it('passes the download of a CSV report in its own content type', async () => {
    const body = JSON.stringify({ report: { title: 'Tours', grants: [{ type: 'all_admins' }], file: { name: 'tours.csv', content_type: 'text/csv', content_base64: Buffer.from(CSV).toString('base64') } } });
    const created = await through('/api/reports', { method: 'POST', body, headers: { 'content-type': 'application/json' } });
    const { report } = JSON.parse(created.text) as { report: { id: string } };
    const download = await through(`/api/reports/${report.id}/download`);
    expect(download).toMatchObject({ status: 200, text: CSV });
    expect(download.type).toMatch(/^text\/csv/);
  });
});
