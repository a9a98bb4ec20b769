// Reports on the S3-compatible blob store (s3rver on loopback), the upload size limit, and a server deployment
// without a master key.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestTenant } from '../../../test/app.ts';
import { expectOk } from '../../../test/factories.ts';
import { startS3Peer, type S3Peer } from '../../../test/s3-server.ts';
import { createWorker } from '../../worker/loop.ts';
import { multipart, reportBody } from './test-helpers.ts';

let s3: S3Peer;
let t: TestApp;
let tenant: TestTenant;
const LIMIT = 256 * 1024;

beforeAll(async () => {
  s3 = await startS3Peer();
  t = await buildTestApp({ s3: s3.config, reportMaxBytes: LIMIT });
  tenant = await t.createTenant();
});
afterAll(async () => {
  await t?.close();
  await s3?.close();
});

/** Every object file s3rver holds (its directory layout: bucket/key…/object data). */
function objectFiles(dir = s3.directory): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? objectFiles(full) : [full];
  });
}

describe('reports on an S3-compatible store', () => {
  it('stores the encrypted file in the bucket (no plaintext), streams it back, and deletes it at expiry', async () => {
    const secret = 'S3-PLAINTEXT-MARKER-'.repeat(1000);
    const expiresAt = new Date(t.clock.now().getTime() + 60_000).toISOString();
    const { payload, headers } = multipart({ report: { title: 'On S3', grants: [{ type: 'all_admins' }], expires_at: expiresAt } }, { name: 's3.txt', contentType: 'text/plain', data: Buffer.from(secret) });
    const report = (await expectOk(tenant.admin.post('/api/reports', undefined, { raw: payload, headers }), 201)).report;
    const stored = objectFiles().filter((f) => f.includes(report.id));
    expect(stored.length).toBeGreaterThan(0);
    for (const file of stored) expect(fs.readFileSync(file).includes(Buffer.from('S3-PLAINTEXT-MARKER'))).toBe(false);
    expect(fs.existsSync(path.join(t.config.dataDir, 'blobs'))).toBe(false); // nothing went to the local store
    expect((await tenant.admin.get(`/api/reports/${report.id}/download`)).text).toBe(secret);

    t.clock.advanceSeconds(60);
    await createWorker(t.deps).drain();
    expect(objectFiles().filter((f) => f.includes(report.id) && !f.endsWith('.json'))).toEqual([]);
    expect((await tenant.admin.get(`/api/reports/${report.id}/download`)).status).toBe(410);
  });
});

describe('REPORT_MAX_BYTES', () => {
  it('answers 413 problem+json for a multipart file beyond the limit and keeps nothing', async () => {
    const { payload, headers } = multipart({ report: { title: 'Too big', grants: [{ type: 'all_admins' }] } }, { name: 'big.bin', contentType: 'application/octet-stream', data: Buffer.alloc(LIMIT + 1) });
    const res = await tenant.admin.post('/api/reports', undefined, { raw: payload, headers });
    expect([res.status, res.body.error_code]).toEqual([413, 'payload_too_large']);
    expect((await expectOk(tenant.admin.get('/api/reports'))).reports.some((r: { title: string }) => r.title === 'Too big')).toBe(false);
  });

  it('answers 413 for an inline file beyond the limit, and accepts one exactly at it', async () => {
    const over = await tenant.admin.post('/api/reports', reportBody({ file: { name: 'a', content_type: 'text/plain', content_base64: Buffer.alloc(LIMIT + 3).toString('base64') } }));
    expect([over.status, over.body.error_code]).toEqual([413, 'payload_too_large']);
    const at = await tenant.admin.post('/api/reports', reportBody({ file: { name: 'a', content_type: 'text/plain', content_base64: Buffer.alloc(LIMIT).toString('base64') } }));
    expect(at.status).toBe(201);
  });
});

describe('a server deployment without REPORTS_MASTER_KEY', () => {
  it('refuses every reports route with 503 reports_unavailable naming the variable', async () => {
    const server = await buildTestApp({ databaseUrl: 'postgres://configured.example/tourbook', reportsMasterKey: null });
    try {
      const other = await server.createTenant();
      for (const res of [await other.admin.get('/api/reports'), await other.admin.post('/api/reports', reportBody())]) {
        expect(res.status).toBe(503);
        expect(res.body.error_code).toBe('reports_unavailable');
        expect(res.body.detail).toContain('REPORTS_MASTER_KEY');
      }
    } finally {
      await server.close();
    }
  });
});
