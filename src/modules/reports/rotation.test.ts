// Master key rotation (`tourbook keys rotate`): file keys and webhook secrets re-sealed under the new key, file bytes
// untouched, resumable after an interruption; plain webhook secrets from before decision 0702 keep working and get sealed.
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestTenant } from '../../../test/app.ts';
import { createWebhook, expectOk } from '../../../test/factories.ts';
import { startWebhookReceiver, verifyWebhook, type WebhookReceiver } from '../../../test/webhook-receiver.ts';
import { masterKeyOf } from '../../crypto/key-wrap.ts';
import { decodeMasterKey, masterKeyFile, masterKeyFor } from '../../crypto/master-key.ts';
import { queryRows } from '../../db/sql.ts';
import { rotateMasterKey } from '../../keys-command.ts';
import { createWorker, type Worker } from '../../worker/loop.ts';
import { reportBody } from './test-helpers.ts';

let t: TestApp;
let tenant: TestTenant;
let receiver: WebhookReceiver;
let worker: Worker;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  t = await buildTestApp();
  tenant = await t.createTenant();
  worker = createWorker(t.deps);
});
afterAll(async () => {
  await t?.close();
  await receiver?.close();
});

const sha = (file: string) => createHash('sha256').update(fs.readFileSync(file)).digest('hex');
const blobsOf = (id: string) => {
  const dir = path.join(t.config.dataDir, 'blobs', 'reports', tenant.tenantId, id);
  return fs.readdirSync(dir).map((f) => path.join(dir, f));
};
const keyIds = async () =>
  (await queryRows<{ k: string }>(t.deps.db, sql`SELECT split_part(wrapped_key, '.', 2) AS k FROM reports WHERE tenant_id = ${tenant.tenantId} ORDER BY id`)).map((r) => r.k);

async function pingVerifies(webhookId: string, secret: string): Promise<boolean> {
  const before = receiver.received.length;
  await expectOk(tenant.admin.post(`/api/admin/webhooks/${webhookId}/test`), 202);
  await worker.drain();
  await receiver.waitFor(before + 1);
  return Boolean(verifyWebhook(secret, receiver.received[before]!, t.clock.now()));
}

describe('keys rotate', () => {
  it('re-seals every file key under the new key without touching file bytes, resuming after an interruption', async () => {
    const contents = [randomBytes(100_000), randomBytes(10), Buffer.from('third')];
    const ids: string[] = [];
    for (const content of contents) {
      const body = reportBody({ file: { name: 'f.bin', content_type: 'application/octet-stream', content_base64: content.toString('base64') } });
      ids.push((await expectOk(tenant.admin.post('/api/reports', body), 201)).report.id);
    }
    const old = masterKeyFor(t.config)!;
    const hashes = ids.map((id) => sha(blobsOf(id)[0]!));
    const webhook = await createWebhook(tenant.admin, receiver.url);
    // A subscription stored before decision 0702: its secret in plain text.
    const legacy = await createWebhook(tenant.admin, receiver.url);
    await t.deps.db.execute(sql`UPDATE webhook_subscriptions SET secret = ${legacy.secret} WHERE id = ${legacy.id}`);
    expect(await pingVerifies(legacy.id, legacy.secret)).toBe(true);

    const next = masterKeyOf(randomBytes(32));
    const interrupted = await rotateMasterKey(t.deps, next, { stopAfter: 1 });
    expect(interrupted).toMatchObject({ reports: 1, finished: false });
    expect((await keyIds()).sort()).toEqual([next.id, old.id, old.id].sort());
    // Mid-rotation every report still opens (the new key is on the ring until the rotation ends).
    for (const [i, id] of ids.entries()) {
      const res = await t.app.inject({ url: `/api/reports/${id}/download`, headers: { authorization: `Bearer ${tenant.adminToken}` } });
      expect(res.rawPayload.equals(contents[i]!)).toBe(true);
    }

    const resumed = await rotateMasterKey(t.deps, next);
    expect(resumed).toMatchObject({ reports: 2, finished: true });
    expect(await keyIds()).toEqual([next.id, next.id, next.id]);
    expect(ids.map((id) => sha(blobsOf(id)[0]!))).toEqual(hashes);
    expect(decodeMasterKey(fs.readFileSync(masterKeyFile(t.config.dataDir), 'utf8')).id).toBe(next.id);
    for (const [i, id] of ids.entries()) {
      const res = await t.app.inject({ url: `/api/reports/${id}/download`, headers: { authorization: `Bearer ${tenant.adminToken}` } });
      expect(res.rawPayload.equals(contents[i]!)).toBe(true);
    }

    const secrets = await queryRows<{ id: string; secret: string }>(t.deps.db, sql`SELECT id, secret FROM webhook_subscriptions WHERE tenant_id = ${tenant.tenantId}`);
    for (const row of secrets) {
      expect(row.secret.startsWith(`tbk1.${next.id}.`)).toBe(true);
      expect(row.secret).not.toContain('whsec_');
    }
    expect(await pingVerifies(webhook.id, webhook.secret)).toBe(true);
    expect(await pingVerifies(legacy.id, legacy.secret)).toBe(true);
    expect(await rotateMasterKey(t.deps, next)).toMatchObject({ reports: 0, webhooks: 0, finished: true });
  });

  it('stores new webhook secrets sealed, and a worker start seals plain ones from before', async () => {
    const created = await createWebhook(tenant.admin, receiver.url);
    const [row] = await queryRows<{ secret: string }>(t.deps.db, sql`SELECT secret FROM webhook_subscriptions WHERE id = ${created.id}`);
    expect(row!.secret).toMatch(/^tbk1\./);
    await t.deps.db.execute(sql`UPDATE webhook_subscriptions SET secret = ${created.secret} WHERE id = ${created.id}`);
    await createWorker(t.deps).drain(); // a worker starting
    const [after] = await queryRows<{ secret: string }>(t.deps.db, sql`SELECT secret FROM webhook_subscriptions WHERE id = ${created.id}`);
    expect(after!.secret).toMatch(/^tbk1\./);
    expect(await pingVerifies(created.id, created.secret)).toBe(true);
  });

  // Decision 0207: secrets are never stored in plain text, the previous one after a rotation neither.
  it('keeps neither the current nor the previous secret in plain text anywhere in the row, and seals both plain columns at a worker start', async () => {
    const created = await createWebhook(tenant.admin, receiver.url);
    const rotated = (await expectOk(tenant.admin.post(`/api/admin/webhooks/${created.id}/rotate_secret`))).webhook.secret as string;
    const rawRow = async () =>
      (await queryRows<{ secret: string; previous_secret: string; raw: string }>(
        t.deps.db,
        sql`SELECT secret, previous_secret, row_to_json(s)::text AS raw FROM webhook_subscriptions s WHERE tenant_id = ${tenant.tenantId} AND id = ${created.id}`,
      ))[0]!;
    const sealed = async () => {
      const row = await rawRow();
      expect(row.secret).toMatch(/^tbk1\./);
      expect(row.previous_secret).toMatch(/^tbk1\./);
      for (const secret of [created.secret, rotated]) {
        expect(row.raw).not.toContain(secret);
        expect(row.raw).not.toContain(secret.slice('whsec_'.length));
      }
    };
    await sealed();
    // Rows written in plain text by an older version: the next worker start seals both columns.
    await t.deps.db.execute(sql`UPDATE webhook_subscriptions SET secret = ${rotated}, previous_secret = ${created.secret} WHERE id = ${created.id}`);
    await createWorker(t.deps).drain();
    await sealed();
    expect(await pingVerifies(created.id, rotated)).toBe(true);
  });

});
