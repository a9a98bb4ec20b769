import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/app.ts';
import { startSmtpPeer, type SmtpPeer } from '../../test/smtp-peer.ts';
import { createWorker, type Worker } from '../worker/loop.ts';
import { adminEmails, enqueueMail } from './index.ts';

let t: TestApp;
let smtp: SmtpPeer;
let worker: Worker;

beforeAll(async () => {
  smtp = await startSmtpPeer();
  t = await buildTestApp({ smtpUrl: smtp.url, mailFrom: 'Tourbook <dispatch@tourbook.test>' });
  worker = createWorker(t.deps);
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

async function mailAdmins(tenantId: string, subject: string): Promise<void> {
  await t.deps.db.transaction(async (tx) =>
    enqueueMail(tx, { tenantId, to: await adminEmails(tx, tenantId), subject, text: 'Tips for tour 42 are paused.', now: t.clock.now() }),
  );
}

describe('e-mail', () => {
  it("sends a queued message over SMTP to the tenant's admins, from MAIL_FROM", async () => {
    const tenant = await t.createTenant();
    await mailAdmins(tenant.tenantId, 'Tip distribution paused');
    expect(smtp.messages.filter((m) => m.raw.includes('Tip distribution paused'))).toHaveLength(0); // only after commit, by the worker
    await worker.drain();
    const [message] = smtp.messages.filter((m) => m.raw.includes('Subject: Tip distribution paused'));
    expect(message).toBeDefined();
    expect(message!.from).toBe('dispatch@tourbook.test');
    expect(message!.to).toEqual([`admin@${tenant.tenantId}.tourbook.local`]);
    expect(message!.raw).toContain('Tips for tour 42 are paused.');
  });

  it('retries with backoff when the SMTP server refuses, and sends exactly once', async () => {
    const tenant = await t.createTenant();
    smtp.refuseNext(1);
    await mailAdmins(tenant.tenantId, 'Report ready');
    await worker.drain();
    const sent = () => smtp.messages.filter((m) => m.raw.includes('Subject: Report ready'));
    expect(sent()).toHaveLength(0);
    t.clock.advanceSeconds(4);
    await worker.drain();
    expect(sent()).toHaveLength(0);
    t.clock.advanceSeconds(1);
    await worker.drain();
    expect(sent()).toHaveLength(1);
    t.clock.advanceSeconds(3600);
    await worker.drain();
    expect(sent()).toHaveLength(1);
  });

  it('does not queue a message when the transaction rolls back', async () => {
    const tenant = await t.createTenant();
    await expect(
      t.deps.db.transaction(async (tx) => {
        await enqueueMail(tx, { tenantId: tenant.tenantId, to: ['ops@example.com'], subject: 'Never sent', text: 'x', now: t.clock.now() });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    await worker.drain();
    expect(smtp.messages.some((m) => m.raw.includes('Never sent'))).toBe(false);
  });
});
