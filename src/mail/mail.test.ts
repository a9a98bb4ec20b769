import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/app.ts';
import { startSmtpPeer, type SmtpPeer } from '../../test/smtp-peer.ts';
import { createWorker, type Worker } from '../worker/loop.ts';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { scheduleJob } from '../worker/jobs.ts';
import { addressProblem, adminEmails, enqueueMail, MAIL_JOB } from './index.ts';
import { createMailer } from './mailer.ts';

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

  // Issue 35, decision 1622: nothing is handed to SMTP, or written, without one valid recipient.
  it('tells a sendable address from none and from ones a header would read as more', () => {
    for (const ok of ['ada@example.com', 'a.b+tag@sub.example.de', 'juergen@bücher.de', `admin@0193b2c4-0000-7000-8000-000000000000.tourbook.local`]) expect(addressProblem(ok), ok).toBeNull();
    for (const none of [null, undefined, '', '   ']) expect(addressProblem(none)).toBe('no_address');
    for (const bad of ['ada', 'ada@', '@example.com', 'ada at example.com', 'ada@example', 'a@b@example.com', 'ada@example.com, eve@example.com', '<ada@example.com>', 'ada@example.com\r\nBcc: eve@example.com', 'ada..b@example.com', 'ada@-example.com', 'ada@example.c0m', 'jürgen@example.de']) {
      expect(addressProblem(bad), bad).toBe('invalid_address');
    }
  });

  it('queues nothing for no or only invalid recipients, and drops the invalid ones of several', async () => {
    const tenant = await t.createTenant();
    const before = smtp.messages.length;
    const queued = await t.deps.db.transaction(async (tx) => [
      await enqueueMail(tx, { tenantId: tenant.tenantId, to: [], subject: 'To no one', text: 'x', now: t.clock.now() }),
      await enqueueMail(tx, { tenantId: tenant.tenantId, to: ['not an address', 'ada@'], subject: 'To no one valid', text: 'x', now: t.clock.now() }),
      await enqueueMail(tx, { tenantId: tenant.tenantId, to: ['ada@example.com', 'eve@example.com, mallory@example.com'], subject: 'To Ada alone', text: 'x', now: t.clock.now() }),
    ]);
    expect(queued).toEqual([false, false, true]);
    await worker.drain();
    const sent = smtp.messages.slice(before);
    expect(sent.map((m) => m.to)).toEqual([['ada@example.com']]);
  });

  it('sends nothing for a queued job whose recipients are not valid (queued before the check)', async () => {
    const tenant = await t.createTenant();
    const before = smtp.messages.length;
    await scheduleJob(t.deps.db, { tenantId: tenant.tenantId, kind: MAIL_JOB, payload: { to: ['', 'bad address'], subject: 'Old job', text: 'x' }, dueAt: t.clock.now(), now: t.clock.now(), maxAttempts: 8 });
    await worker.drain();
    expect(smtp.messages.length).toBe(before);
  });

  it('refuses to write a message file without a valid recipient (no SMTP_URL)', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tourbook-mail-'));
    try {
      const mailer = createMailer({ smtpUrl: null, mailFrom: 'Tourbook <dispatch@tourbook.test>', dataDir }, pino({ level: 'silent' }));
      await expect(mailer.send({ id: 'no-to', to: [], subject: 'x', text: 'x' })).rejects.toThrow(/recipient/);
      await expect(mailer.send({ id: 'bad-to', to: ['not an address'], subject: 'x', text: 'x' })).rejects.toThrow(/recipient/);
      expect(fs.existsSync(path.join(dataDir, 'mail'))).toBe(false);
      await mailer.send({ id: 'good-to', to: ['ada@example.com'], subject: 'x', text: 'x' });
      expect(fs.readFileSync(path.join(dataDir, 'mail', 'good-to.eml'), 'utf8')).toMatch(/^To: ada@example\.com$/m);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
