// Reports end to end over HTTP: files in and out, the state machine, tags, e-mail, encryption at rest, tampering,
// expiry under the manual clock.
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestTenant } from '../../../test/app.ts';
import { createOrganization, createUser, expectOk } from '../../../test/factories.ts';
import { startSmtpPeer, type SmtpPeer } from '../../../test/smtp-peer.ts';
import { queryRows } from '../../db/sql.ts';
import { createWorker, type Worker } from '../../worker/loop.ts';
import { multipart, reportBody } from './test-helpers.ts';

let t: TestApp;
let tenant: TestTenant;
let smtp: SmtpPeer;
let worker: Worker;

beforeAll(async () => {
  smtp = await startSmtpPeer();
  t = await buildTestApp({ smtpUrl: smtp.url, publicUrl: 'https://tourbook.example' });
  tenant = await t.createTenant();
  worker = createWorker(t.deps);
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

const inline = (content: Buffer | string, name = 'report.txt', contentType = 'text/plain') => ({
  name,
  content_type: contentType,
  content_base64: Buffer.from(content).toString('base64'),
});

async function createReady(content: Buffer | string, overrides: Record<string, unknown> = {}) {
  return (await expectOk(tenant.admin.post('/api/reports', reportBody({ file: inline(content), ...overrides })), 201)).report;
}

/** The one encrypted blob of a report in the local store. */
function blobFile(reportId: string): string {
  const dir = path.join(t.config.dataDir, 'blobs', 'reports', tenant.tenantId, reportId);
  const files = fs.existsSync(dir) ? fs.readdirSync(dir) : [];
  return files.length ? path.join(dir, files[0]!) : '';
}

describe('files in and out', () => {
  it('creates a ready report with an inline file and downloads it decrypted with its headers (RFC 6266, non-ASCII name)', async () => {
    const content = Buffer.from('route,stops\nA,12\nB,7\n');
    const created = await expectOk(tenant.admin.post('/api/reports', reportBody({ file: inline(content, 'Übersicht März.csv', 'text/csv') })), 201);
    expect(created.report).toMatchObject({
      status: 'ready',
      grants: [{ type: 'all_admins' }],
      file: { name: 'Übersicht März.csv', content_type: 'text/csv', size_bytes: content.length, sha256: createHash('sha256').update(content).digest('hex') },
      created_by_id: tenant.adminUserId,
      failure_reason: null,
      ready_at: t.clock.now().toISOString(),
      expires_at: new Date(t.clock.now().getTime() + 30 * 86_400_000).toISOString(),
    });
    const res = await tenant.admin.get(`/api/reports/${created.report.id}/download`);
    expect(res.status).toBe(200);
    expect(res.text).toBe(content.toString());
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['content-length']).toBe(String(content.length));
    expect(res.headers['content-disposition']).toBe(`attachment; filename="_bersicht M_rz.csv"; filename*=UTF-8''%C3%9Cbersicht%20M%C3%A4rz.csv`);
  });

  it('downloads an empty file', async () => {
    const report = await createReady('');
    const res = await tenant.admin.get(`/api/reports/${report.id}/download`);
    expect([res.status, res.text, res.headers['content-length']]).toEqual([200, '', '0']);
  });

  it('accepts a 20 MiB multipart upload (report part, then file part) and gives back the same bytes', async () => {
    const content = randomBytes(20 * 1024 * 1024);
    const { payload, headers } = multipart({ report: { title: 'Multipart', grants: [{ type: 'all_admins' }], tags: ['big'] } }, { name: 'big.bin', contentType: 'application/octet-stream', data: content });
    const created = await expectOk(tenant.admin.post('/api/reports', undefined, { raw: payload, headers }), 201);
    expect(created.report).toMatchObject({ title: 'Multipart', tags: ['big'], file: { name: 'big.bin', size_bytes: content.length, sha256: createHash('sha256').update(content).digest('hex') } });
    const res = await t.app.inject({ method: 'GET', url: `/api/reports/${created.report.id}/download`, headers: { authorization: `Bearer ${tenant.adminToken}` } });
    expect(res.rawPayload.equals(content)).toBe(true);
  });

  it('completes a pending report with a multipart file part', async () => {
    const pending = (await expectOk(tenant.admin.post('/api/reports', reportBody()), 201)).report;
    const { payload, headers } = multipart(null, { name: 'late.txt', contentType: 'text/plain', data: Buffer.from('arrived later') });
    const done = await expectOk(tenant.admin.post(`/api/reports/${pending.id}/complete`, undefined, { raw: payload, headers }));
    expect(done.report).toMatchObject({ status: 'ready', file: { name: 'late.txt', size_bytes: 13 } });
    expect((await tenant.admin.get(`/api/reports/${pending.id}/download`)).text).toBe('arrived later');
  });

  it('refuses malformed multipart and base64 bodies with problem+json', async () => {
    const noReport = multipart(null, { name: 'x.txt', contentType: 'text/plain', data: Buffer.from('x') });
    const a = await tenant.admin.post('/api/reports', undefined, { raw: noReport.payload, headers: noReport.headers });
    expect([a.status, a.body.errors[0].pointer]).toEqual([422, '/report']);
    const badReport = multipart({ report: { title: 'x' } }, { name: 'x.txt', contentType: 'text/plain', data: Buffer.from('x') });
    const b = await tenant.admin.post('/api/reports', undefined, { raw: badReport.payload, headers: badReport.headers });
    expect([b.status, b.body.errors[0].pointer]).toEqual([422, '/report/grants']);
    const boundary = 'b0undary';
    const badJson = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="report"\r\nContent-Type: application/json\r\n\r\n{not json\r\n--${boundary}--\r\n`);
    const e = await tenant.admin.post('/api/reports', undefined, { raw: badJson, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
    expect([e.status, e.body.error_code]).toEqual([400, 'malformed_request']);
    const whole = multipart({ report: { title: 'Cut', grants: [{ type: 'all_admins' }] } }, { name: 'x.bin', contentType: 'application/octet-stream', data: Buffer.alloc(100_000) });
    const cut = await tenant.admin.post('/api/reports', undefined, { raw: whole.payload.subarray(0, 50_000), headers: whole.headers });
    expect([cut.status, cut.body.error_code]).toEqual([400, 'malformed_request']);
    const c = await tenant.admin.post('/api/reports', reportBody({ file: { name: 'x', content_type: 'text/plain', content_base64: 'abc' } }));
    expect([c.status, c.body.errors[0].pointer]).toEqual([422, '/file/content_base64']);
    const d = await tenant.admin.post('/api/reports', reportBody({ file: { name: '../etc/passwd', content_type: 'text/plain', content_base64: '' } }));
    expect([d.status, d.body.errors[0].pointer]).toEqual([422, '/report/file/name']);
  });
});

describe('the state machine', () => {
  it('pending → ready by complete; then neither complete nor fail (409 invalid_transition)', async () => {
    const pending = (await expectOk(tenant.admin.post('/api/reports', reportBody()), 201)).report;
    expect(pending).toMatchObject({ status: 'pending', file: null, ready_at: null });
    expect((await tenant.admin.get(`/api/reports/${pending.id}/download`)).body).toMatchObject({ status: 409, error_code: 'report_not_ready' });
    expect((await expectOk(tenant.admin.post(`/api/reports/${pending.id}/complete`, { file: inline('done') }))).report.status).toBe('ready');
    for (const [action, body] of [['complete', { file: inline('again') }], ['fail', {}]] as const) {
      const res = await tenant.admin.post(`/api/reports/${pending.id}/${action}`, body);
      expect([res.status, res.body.error_code]).toEqual([409, 'invalid_transition']);
    }
    expect((await tenant.admin.get(`/api/reports/${pending.id}/download`)).text).toBe('done');
  });

  it('pending → failed with its reason; a failed report neither completes nor downloads', async () => {
    const pending = (await expectOk(tenant.admin.post('/api/reports', reportBody()), 201)).report;
    const failed = (await expectOk(tenant.admin.post(`/api/reports/${pending.id}/fail`, { reason: 'source system down' }))).report;
    expect(failed).toMatchObject({ status: 'failed', failure_reason: 'source system down' });
    expect((await tenant.admin.post(`/api/reports/${pending.id}/complete`, { file: inline('x') })).status).toBe(409);
    expect((await tenant.admin.post(`/api/reports/${pending.id}/fail`)).status).toBe(409);
    expect((await tenant.admin.get(`/api/reports/${pending.id}/download`)).body.error_code).toBe('report_not_ready');
    const withoutReason = (await expectOk(tenant.admin.post('/api/reports', reportBody()), 201)).report;
    expect((await expectOk(tenant.admin.post(`/api/reports/${withoutReason.id}/fail`))).report.failure_reason).toBeNull();
  });

  it('a ready report cannot be failed, and an unknown report is 404', async () => {
    const ready = await createReady('x');
    expect((await tenant.admin.post(`/api/reports/${ready.id}/fail`, {})).status).toBe(409);
    expect((await tenant.admin.post(`/api/reports/01900000-0000-7000-8000-000000000000/fail`, {})).status).toBe(404);
  });
});

describe('tag filters', () => {
  it('narrows with each tag (all must match), newest first, with cursor pagination', async () => {
    const own = await createTenantWithTags();
    const ids = async (query: string) => (await expectOk(own.get(`/api/reports${query}`))).reports.map((r: { title: string }) => r.title);
    expect(await ids('')).toEqual(['abc', 'ab', 'a', 'none']);
    expect(await ids('?filters[tags][]=a')).toEqual(['abc', 'ab', 'a']);
    expect(await ids('?filters[tags][]=a&filters[tags][]=b')).toEqual(['abc', 'ab']);
    expect(await ids('?filters[tags][]=a&filters[tags][]=b&filters[tags][]=c')).toEqual(['abc']);
    expect(await ids('?filters[tags][]=c&filters[tags][]=zzz')).toEqual([]);
    const first = await expectOk(own.get('/api/reports?limit=3'));
    expect(first.meta.has_more).toBe(true);
    const second = await expectOk(own.get(`/api/reports?limit=3&cursor=${first.meta.next_cursor}`));
    expect(second.reports.map((r: { title: string }) => r.title)).toEqual(['none']);
    expect((await own.get('/api/reports?filters[owner]=x')).status).toBe(400);
  });
});

async function createTenantWithTags() {
  const other = await t.createTenant();
  for (const [title, tags] of [['none', []], ['a', ['a']], ['ab', ['a', 'b']], ['abc', ['a', 'b', 'c']]] as const) {
    await expectOk(other.admin.post('/api/reports', reportBody({ title, tags })), 201);
  }
  return other.admin;
}

describe('e-mail when ready', () => {
  it('sends one message to each distinct person the grants reach at that moment, with the title and a link, never the file', async () => {
    const org = await createOrganization(tenant.admin);
    const manager = await createUser(tenant.admin, { role: 'manager', organization_ids: [org.id] });
    const driver = await createUser(tenant.admin, { role: 'driver', organization_ids: [org.id] });
    const pending = (
      await expectOk(
        tenant.admin.post(
          '/api/reports',
          reportBody({
            title: 'Fleet KPIs week 12',
            notify_by_email: true,
            grants: [{ type: 'organization_managers', organization_id: org.id }, { type: 'user', user_id: manager.id }, { type: 'user', user_id: driver.id }],
          }),
        ),
        201,
      )
    ).report;
    await worker.drain();
    expect(smtp.messages.filter((m) => m.raw.includes('Fleet KPIs week 12'))).toHaveLength(0); // pending: nothing yet
    await expectOk(tenant.admin.post(`/api/reports/${pending.id}/complete`, { file: inline('SECRET-KPI-CONTENT') }));
    await worker.drain();
    const sent = smtp.messages.filter((m) => m.raw.includes('Fleet KPIs week 12'));
    expect(sent.map((m) => m.to).sort()).toEqual([[driver.user.email], [manager.user.email]].sort());
    for (const message of sent) {
      // Quoted-printable folds long lines with a trailing "=".
      const text = message.raw.replace(/=\r?\n/g, '');
      expect(text).toContain(`https://tourbook.example/api/reports/${pending.id}/download`);
      expect(text).not.toContain('SECRET-KPI-CONTENT');
    }
  });

  it('sends nothing without notify_by_email', async () => {
    await createReady('quiet', { title: 'Quiet report 77' });
    await worker.drain();
    expect(smtp.messages.some((m) => m.raw.includes('Quiet report 77'))).toBe(false);
  });
});

describe('encryption at rest', () => {
  it('keeps the plaintext out of the raw blob and the raw database rows', async () => {
    const secret = `PAYROLL-${randomBytes(8).toString('hex')}-`.repeat(40);
    const report = await createReady(secret, { title: 'Payroll' });
    const raw = fs.readFileSync(blobFile(report.id));
    expect(raw.includes(Buffer.from(secret.slice(0, 24)))).toBe(false);
    const rows = await queryRows<{ row: string }>(t.deps.db, sql`SELECT row_to_json(r)::text AS row FROM reports r WHERE id = ${report.id}`);
    expect(rows[0]!.row).toContain('tbk1.');
    expect(rows[0]!.row).not.toContain(secret.slice(0, 24));
    expect(rows[0]!.row).not.toContain(Buffer.from(secret).toString('base64').slice(0, 24));
    const every = await queryRows<{ row: string }>(t.deps.db, sql`SELECT string_agg(row_to_json(j)::text, '') AS row FROM jobs j WHERE tenant_id = ${tenant.tenantId}`);
    expect(every[0]!.row ?? '').not.toContain(secret.slice(0, 24));
  });

  it('answers report_corrupt (problem+json) when the first chunk was tampered with, and logs it in the activity', async () => {
    const report = await createReady(randomBytes(1000));
    const file = blobFile(report.id);
    const bytes = fs.readFileSync(file);
    bytes[10]! ^= 0xff;
    fs.writeFileSync(file, bytes);
    const res = await tenant.admin.get(`/api/reports/${report.id}/download`);
    expect(res.status).toBe(500);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(res.body.error_code).toBe('report_corrupt');
    const activity = (await expectOk(tenant.admin.get(`/api/reports/${report.id}/activity`))).activity;
    expect(activity[0].outcome).toBe('corrupt');
  });

  it('cuts the transfer off when a later chunk was tampered with: the client gets fewer bytes than announced, none unauthenticated', async () => {
    const content = randomBytes(1024 * 1024);
    const report = await createReady(content);
    const file = blobFile(report.id);
    const bytes = fs.readFileSync(file);
    // Inside chunk 10, past the store's first 256 KiB read: by then the headers and earlier chunks are on their way.
    bytes[4 + (64 * 1024 + 16) * 10 + 100]! ^= 0x01;
    fs.writeFileSync(file, bytes);
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (t.app.server.address() as AddressInfo).port;
    expect(address).toContain(String(port));
    const received = await new Promise<{ status: number; length: string | undefined; body: Buffer; aborted: boolean }>((resolve) => {
      http.get(`http://127.0.0.1:${port}/api/reports/${report.id}/download`, { headers: { authorization: `Bearer ${tenant.adminToken}` } }, (res) => {
        const chunks: Buffer[] = [];
        let aborted = false;
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('aborted', () => (aborted = true));
        res.on('error', () => (aborted = true));
        res.on('close', () => resolve({ status: res.statusCode ?? 0, length: res.headers['content-length'], body: Buffer.concat(chunks), aborted }));
      });
    });
    expect(received.status).toBe(200);
    expect(received.length).toBe(String(content.length));
    expect(received.aborted).toBe(true);
    expect(received.body.length).toBeLessThanOrEqual(10 * 64 * 1024);
    expect(received.body.equals(content.subarray(0, received.body.length))).toBe(true);
  });
});

describe('expiry', () => {
  it('deletes the file and its key and marks the report expired within one worker pass after expires_at', async () => {
    const expiresAt = new Date(t.clock.now().getTime() + 3_600_000);
    const report = await createReady('short-lived', { expires_at: expiresAt.toISOString() });
    const pending = (await expectOk(tenant.admin.post('/api/reports', reportBody({ expires_at: expiresAt.toISOString() })), 201)).report;
    expect(blobFile(report.id)).not.toBe('');
    t.clock.advanceSeconds(3599);
    await worker.drain();
    expect((await expectOk(tenant.admin.get(`/api/reports/${report.id}`))).report.status).toBe('ready');
    t.clock.advanceSeconds(1);
    // Past expires_at the API already refuses, before the worker's pass.
    expect((await tenant.admin.get(`/api/reports/${report.id}/download`)).body).toMatchObject({ status: 410, error_code: 'report_expired' });
    await worker.drain();
    expect(blobFile(report.id)).toBe('');
    const rows = await queryRows<{ status: string; wrapped_key: string | null; blob_key: string | null }>(
      t.deps.db,
      sql`SELECT status, wrapped_key, blob_key FROM reports WHERE tenant_id = ${tenant.tenantId} AND id IN (${report.id}, ${pending.id}) ORDER BY id`,
    );
    expect(rows).toEqual([
      { status: 'expired', wrapped_key: null, blob_key: null },
      { status: 'expired', wrapped_key: null, blob_key: null },
    ]);
    expect((await expectOk(tenant.admin.get(`/api/reports/${report.id}`))).report.status).toBe('expired');
    expect((await tenant.admin.get(`/api/reports/${report.id}/download`)).status).toBe(410);
    expect((await tenant.admin.post(`/api/reports/${pending.id}/complete`, { file: inline('late') })).status).toBe(409);
  });
});
