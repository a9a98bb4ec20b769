import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestTenant } from '../../../test/app.ts';
import { createOrganization, createUser, expectOk } from '../../../test/factories.ts';
import { multipart, reportBody } from './test-helpers.ts';

let t: TestApp;
let tenant: TestTenant;

beforeAll(async () => {
  t = await buildTestApp();
  tenant = await t.createTenant();
});
afterAll(async () => t?.close());

describe('reports', () => {
  it('creates a ready report with an inline file and downloads it decrypted with its headers', async () => {
    const content = Buffer.from('route,stops\nA,12\nB,7\n');
    const created = await expectOk(tenant.admin.post('/api/reports', reportBody({ file: { name: 'Übersicht März.csv', content_type: 'text/csv', content_base64: content.toString('base64') } })), 201);
    expect(created.report).toMatchObject({
      status: 'ready',
      grants: [{ type: 'all_admins' }],
      file: { name: 'Übersicht März.csv', content_type: 'text/csv', size_bytes: content.length, sha256: createHash('sha256').update(content).digest('hex') },
      created_by_id: tenant.adminUserId,
      failure_reason: null,
    });
    const res = await tenant.admin.get(`/api/reports/${created.report.id}/download`);
    expect(res.status).toBe(200);
    expect(res.text).toBe(content.toString());
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['content-length']).toBe(String(content.length));
    expect(res.headers['content-disposition']).toBe(`attachment; filename="_bersicht M_rz.csv"; filename*=UTF-8''%C3%9Cbersicht%20M%C3%A4rz.csv`);
  });

  it('accepts a multipart upload: the report part, then the file part', async () => {
    const content = Buffer.alloc(200_000, 'x');
    const { payload, headers } = multipart({ report: { title: 'Multipart', grants: [{ type: 'all_admins' }] } }, { name: 'big.bin', contentType: 'application/octet-stream', data: content });
    const created = await expectOk(tenant.admin.post('/api/reports', undefined, { raw: payload, headers }), 201);
    expect(created.report.file.size_bytes).toBe(content.length);
    const res = await tenant.admin.get(`/api/reports/${created.report.id}/download`);
    expect(res.text.length).toBe(content.length);
  });

  it('stores no plaintext in the blob store', async () => {
    const secret = 'TOP-SECRET-PAYROLL-LINE-' + 'x'.repeat(100);
    const created = await expectOk(tenant.admin.post('/api/reports', reportBody({ file: { name: 'p.txt', content_type: 'text/plain', content_base64: Buffer.from(secret).toString('base64') } })), 201);
    const dir = path.join(t.config.dataDir, 'blobs', 'reports', tenant.tenantId, created.report.id);
    const [file] = fs.readdirSync(dir);
    const raw = fs.readFileSync(path.join(dir, file!));
    expect(raw.includes(Buffer.from('TOP-SECRET'))).toBe(false);
  });
});
