// SMS quiet hours per service area (contract §18, decision 1772) through the API and the worker, against a peer that
// answers as Kannel's sendsms: the setting validated, an SMS due inside them not sent until they end on the area's
// clock (across a DST change too), then sent once; e-mails are not held.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/app.ts';
import { createBooking, createService, createServiceArea, createUser, expectOk, tourEnRoute } from '../../../test/factories.ts';
import { startSmtpPeer, type SmtpPeer } from '../../../test/smtp-peer.ts';
import { queryRows } from '../../db/sql.ts';
import { createWorker, type Worker } from '../../worker/loop.ts';
import { notifyRecipients } from './notify.ts';
import { sendRecipientMessageJob, SEND_MESSAGE_JOB } from './send-message.ts';

let peer: http.Server;
const received: URLSearchParams[] = [];
let t: TestApp;
let smtp: SmtpPeer;
let worker: Worker;

beforeAll(async () => {
  peer = http.createServer((req, res) => {
    received.push(new URL(req.url ?? '/', 'http://peer').searchParams);
    res.writeHead(202, { 'content-type': 'text/html' }).end('0: Accepted for delivery');
  });
  await new Promise<void>((resolve) => peer.listen(0, '127.0.0.1', resolve));
  smtp = await startSmtpPeer();
  t = await buildTestApp({
    publicUrl: 'https://track.example',
    reportsMasterKey: randomBytes(32).toString('base64'),
    smtpUrl: smtp.url,
    sms: { provider: 'kannel', url: `http://127.0.0.1:${(peer.address() as AddressInfo).port}/cgi-bin/sendsms`, username: 'tourbook', password: 'pw', from: 'Tourbook', callbackSecret: null, timeoutMs: 5000 },
  });
  worker = createWorker(t.deps);
});
afterAll(async () => {
  await t.close();
  await smtp.close();
  peer.closeAllConnections();
  await new Promise((resolve) => peer.close(resolve));
});

let numbers = 0;
const nextNumber = () => `+49152${String(20_000_000 + (process.pid % 1000) * 10_000 + ++numbers).padStart(8, '0')}`;
const sentTo = (phone: string) => received.filter((q) => q.get('to') === phone);

/** A drop-off with a phone number and an e-mail address, dispatched at the clock's now in an area with quiet hours. */
async function scene(quiet: { from: string; to: string } | null, timeZone = 'Europe/Berlin') {
  const tn = await t.createTenant();
  const area = await createServiceArea(tn.admin, { time_zone: timeZone, recipient_notifications: ['dispatched'], sms_quiet_hours: quiet });
  const service = await createService(tn.admin, { service_area_id: area.id });
  const phone = nextNumber();
  const booking = await createBooking(tn.admin, {
    service_id: service.id,
    stops: [
      { type: 'pickup', location: { lat: 52.5, lng: 13.4 }, address: { street: 'Chausseestraße', number: '1', city: 'Berlin' } },
      { type: 'dropoff', location: { lat: 52.51, lng: 13.41 }, address: { street: 'Torstraße', number: '2', city: 'Berlin' }, contact: { name: 'Ada', email: `ada-${numbers}@example.com`, phone_number: phone } },
    ],
  });
  const driver = await createUser(tn.admin, { role: 'driver', name: 'Erika Mustermann' });
  await tourEnRoute(tn.admin, [booking.id], driver.id);
  return { tn, area, booking, phone };
}
type Scene = Awaited<ReturnType<typeof scene>>;
const messagesOf = async (s: Scene): Promise<{ channel: string; status: string }[]> => (await expectOk(s.tn.admin.get(`/api/hailing/bookings/${s.booking.id}/messages`))).messages;
const smsStatus = async (s: Scene) => (await messagesOf(s)).find((m) => m.channel === 'sms')?.status;

async function at(instant: string): Promise<void> {
  t.clock.set(instant);
  await worker.drain();
}

describe('SMS quiet hours', () => {
  it('keeps sms_quiet_hours on the service area: HH:MM, from and to differ, null for none; bad input is 422 at its pointer', async () => {
    const tn = await t.createTenant();
    const area = await createServiceArea(tn.admin);
    expect(area.sms_quiet_hours).toBeNull();
    const set = await expectOk(tn.admin.patch(`/api/admin/service_areas/${area.id}`, { service_area: { sms_quiet_hours: { from: '22:30', to: '06:45' } } }));
    expect(set.service_area.sms_quiet_hours).toEqual({ from: '22:30', to: '06:45' });
    expect((await expectOk(tn.admin.get(`/api/admin/service_areas/${area.id}`))).service_area.sms_quiet_hours).toEqual({ from: '22:30', to: '06:45' });
    for (const [hours, pointer] of [
      [{ from: '21:00', to: '21:00' }, '/service_area/sms_quiet_hours/to'],
      [{ from: '24:00', to: '07:00' }, '/service_area/sms_quiet_hours/from'],
      [{ from: '21:00', to: '7:00' }, '/service_area/sms_quiet_hours/to'],
      [{ from: '21:00' }, '/service_area/sms_quiet_hours/to'],
    ] as const) {
      const res = await tn.admin.patch(`/api/admin/service_areas/${area.id}`, { service_area: { sms_quiet_hours: hours } });
      expect(res.status, JSON.stringify(hours)).toBe(422);
      expect(res.body.error_code).toBe('validation_failed');
      expect(res.body.errors.map((e: { pointer: string }) => e.pointer)).toContain(pointer);
    }
    const cleared = await expectOk(tn.admin.patch(`/api/admin/service_areas/${area.id}`, { service_area: { sms_quiet_hours: null } }));
    expect(cleared.service_area.sms_quiet_hours).toBeNull();
  });

  it('holds an SMS due at 21:30 with quiet hours 21:00-07:00 until 07:00 on the area’s clock, then sends it once; the e-mail goes at once', async () => {
    t.clock.set('2026-06-01T19:30:00Z'); // 21:30 in Berlin (CEST)
    const s = await scene({ from: '21:00', to: '07:00' });
    await notifyRecipients(t.deps);
    await worker.drain();
    expect(sentTo(s.phone)).toHaveLength(0);
    expect(await smsStatus(s)).toBe('queued');
    expect((await messagesOf(s)).find((m) => m.channel === 'email')?.status).toBe('sent');
    await at('2026-06-02T01:00:00Z'); // 03:00
    await at('2026-06-02T04:59:00Z'); // 06:59
    expect(sentTo(s.phone)).toHaveLength(0);
    await at('2026-06-02T05:00:00Z'); // 07:00
    expect(sentTo(s.phone)).toHaveLength(1);
    expect(await smsStatus(s)).toBe('sent');
    await at('2026-06-02T09:00:00Z');
    expect(sentTo(s.phone)).toHaveLength(1);
  });

  it('ends the quiet hours at 07:00 local across the autumn DST change (06:00 UTC, not 05:00)', async () => {
    t.clock.set('2026-10-24T19:30:00Z'); // Saturday 21:30 CEST; the clocks go back at 03:00 that night
    const s = await scene({ from: '21:00', to: '07:00' });
    await notifyRecipients(t.deps);
    await worker.drain();
    await at('2026-10-25T05:00:00Z'); // 06:00 CET: yesterday's 07:00 in UTC, still quiet
    expect(sentTo(s.phone)).toHaveLength(0);
    await at('2026-10-25T06:00:00Z'); // 07:00 CET
    expect(sentTo(s.phone)).toHaveLength(1);
  });

  it("reads the quiet hours in the area's zone and sends at once outside them or without any", async () => {
    t.clock.set('2026-06-01T19:30:00Z'); // 15:30 in New York
    const ny = await scene({ from: '21:00', to: '07:00' }, 'America/New_York');
    const none = await scene(null);
    await notifyRecipients(t.deps);
    await worker.drain();
    expect(sentTo(ny.phone)).toHaveLength(1);
    expect(sentTo(none.phone)).toHaveLength(1);
  });

  it('a send job run twice inside the quiet hours leaves one waiting job, and the SMS is sent once when they end', async () => {
    t.clock.set('2026-06-03T20:00:00Z'); // 22:00
    const s = await scene({ from: '21:00', to: '07:00' });
    await notifyRecipients(t.deps);
    const [job] = await queryRows<{ id: string; payload: Record<string, unknown>; max_attempts: number }>(
      t.deps.db,
      sql`SELECT id, payload, max_attempts FROM jobs WHERE tenant_id = ${s.tn.tenantId} AND kind = ${SEND_MESSAGE_JOB} AND payload ? 'service_area_id'`,
    );
    const context = { tenantId: s.tn.tenantId, jobId: job!.id, attempt: 1, maxAttempts: job!.max_attempts, payload: job!.payload };
    await Promise.all([sendRecipientMessageJob(t.deps, context), sendRecipientMessageJob(t.deps, context)]);
    const waiting = await queryRows<{ due_at: Date }>(
      t.deps.db,
      sql`SELECT due_at FROM jobs WHERE tenant_id = ${s.tn.tenantId} AND kind = ${SEND_MESSAGE_JOB} AND status = 'pending' AND dedupe_key IS NOT NULL`,
    );
    expect(waiting.map((w) => new Date(w.due_at).toISOString())).toEqual(['2026-06-04T05:00:00.000Z']);
    await at('2026-06-04T05:00:00Z');
    expect(sentTo(s.phone)).toHaveLength(1);
  });
});
