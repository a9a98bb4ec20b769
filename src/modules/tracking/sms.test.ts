// Recipient SMS through the Kannel adapter against a peer that answers as Kannel's sendsms documents ("0: Accepted for
// delivery" 202, refusals with their words), so refusals and timeouts can be driven: retried with the jobs' backoff,
// then failed with the gateway's reason; invalid numbers never sent; the coding per text; the callbacks' secret and
// receipts; the booking's messages list; a job taken twice sends once. The real gateway: sms-kannel.test.ts.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/app.ts';
import { createBooking, createService, createServiceArea, createUser, driveStop, expectOk, tourEnRoute } from '../../../test/factories.ts';
import { startSmtpPeer, type SmtpPeer } from '../../../test/smtp-peer.ts';
import { queryRows } from '../../db/sql.ts';
import { retryDelayMs, scheduleJob } from '../../worker/jobs.ts';
import { createWorker, type Worker } from '../../worker/loop.ts';
import { notifyRecipients } from './notify.ts';
import { SEND_MESSAGE_ATTEMPTS } from './send-message.ts';

interface Sendsms {
  query: URLSearchParams;
}
/** What the peer answers next: Kannel's acceptance, a refusal (status + words), or nothing (a hung gateway). */
type Answer = { status: number; body: string } | 'hang';

let peer: http.Server;
const received: Sendsms[] = [];
let answers: Answer[] = [];
/** While set, answers wait until the test calls it (a gateway slow to answer, for as long as the test needs). */
let held: Promise<void> | null = null;
let t: TestApp;
let smtp: SmtpPeer;
let worker: Worker;
const secret = randomBytes(18).toString('base64url');
const ACCEPTED = { status: 202, body: '0: Accepted for delivery' };

beforeAll(async () => {
  peer = http.createServer((req, res) => {
    received.push({ query: new URL(req.url ?? '/', 'http://peer').searchParams });
    const answer = answers.shift() ?? ACCEPTED;
    if (answer === 'hang') return; // never answers
    void (held ?? Promise.resolve()).then(() => res.writeHead(answer.status, { 'content-type': 'text/html' }).end(answer.body));
  });
  await new Promise<void>((resolve) => peer.listen(0, '127.0.0.1', resolve));
  smtp = await startSmtpPeer();
  t = await buildTestApp({
    publicUrl: 'https://track.example',
    reportsMasterKey: randomBytes(32).toString('base64'),
    smtpUrl: smtp.url,
    sms: {
      provider: 'kannel',
      url: `http://127.0.0.1:${(peer.address() as AddressInfo).port}/cgi-bin/sendsms`,
      username: 'tourbook',
      password: 'secret-password',
      from: 'Tourbook',
      callbackSecret: secret,
      timeoutMs: 5000,
    },
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
/** A fresh valid German mobile number per scene (a reply names only the number). */
const nextNumber = () => `+49151${String(10_000_000 + (process.pid % 1000) * 10_000 + ++numbers).padStart(8, '0')}`;

async function scene(contact: { phone_number?: string; name?: string; email?: string; locale?: 'en' | 'de' } = {}) {
  const tn = await t.createTenant();
  const area = await createServiceArea(tn.admin, { time_zone: 'Europe/Berlin', recipient_notifications: ['dispatched', 'on_its_way'] });
  const service = await createService(tn.admin, { service_area_id: area.id });
  const phone = contact.phone_number ?? nextNumber();
  const booking = await createBooking(tn.admin, {
    service_id: service.id,
    stops: [
      { type: 'pickup', location: { lat: 52.5, lng: 13.4 }, address: { street: 'Chausseestraße', number: '1', city: 'Berlin' } },
      { type: 'dropoff', location: { lat: 52.51, lng: 13.41 }, address: { street: 'Torstraße', number: '2', city: 'Berlin' }, contact: { name: 'Ada Lovelace', ...contact, phone_number: phone } },
    ],
  });
  const driver = await createUser(tn.admin, { role: 'driver', name: 'Erika Mustermann' });
  await tourEnRoute(tn.admin, [booking.id], driver.id);
  const [pickup, dropoff] = booking.stops as { id: string }[];
  return { tn, booking, driver, phone, pickup: pickup!, dropoff: dropoff! };
}
type Scene = Awaited<ReturnType<typeof scene>>;

interface MessageView {
  id: string;
  channel: string;
  to: string;
  moment: string;
  status: string;
  error: string | null;
}
const messagesOf = async (s: Scene): Promise<MessageView[]> => (await expectOk(s.tn.admin.get(`/api/hailing/bookings/${s.booking.id}/messages`))).messages;
const sentTo = (phone: string) => received.filter((r) => r.query.get('to') === phone);

async function sweep(): Promise<void> {
  await notifyRecipients(t.deps);
  await worker.drain();
}

/** Moves the clock past the send job's next retry and runs what is due. */
async function nextAttempt(attempt: number): Promise<void> {
  t.clock.advance(retryDelayMs(attempt) + 1000);
  await worker.drain();
}

describe('recipient SMS', () => {
  it("sends the moment's text with the account, the sender, GSM-7 coding and a receipt URL", async () => {
    const s = await scene();
    await sweep();
    const [request, ...more] = sentTo(s.phone);
    expect(more).toHaveLength(0);
    const q = request!.query;
    expect([q.get('username'), q.get('password'), q.get('from'), q.get('coding'), q.get('charset'), q.get('dlr-mask')]).toEqual(['tourbook', 'secret-password', 'Tourbook', '0', 'UTF-8', '31']);
    expect(q.get('text')).toMatch(/^Hello Ada Lovelace, your delivery is scheduled\. Follow it live: https:\/\/track\.example\/track\/[A-Za-z0-9_-]+ Reply STOP to opt out\.$/);
    const [message] = await messagesOf(s);
    expect(q.get('dlr-url')).toBe(`https://track.example/api/sms/kannel/status?secret=${secret}&tenant=${s.tn.tenantId}&message=${message!.id}&type=%d&answer=%A`);
    expect(message).toMatchObject({ channel: 'sms', to: s.phone, moment: 'dispatched', status: 'sent', error: null });
  });

  it('sends UCS-2 (coding 2) when the text has a character GSM-7 lacks, and GSM-7 for German umlauts and typographic dashes', async () => {
    const chinese = await scene({ name: '李雷' });
    const german = await scene({ name: 'Jürgen Groß', locale: 'de' });
    await sweep();
    expect(sentTo(chinese.phone)[0]!.query.get('coding')).toBe('2');
    const de = sentTo(german.phone)[0]!.query;
    expect(de.get('coding')).toBe('0');
    expect(de.get('text')).toMatch(/^Hallo Jürgen Groß, Ihre Lieferung ist eingeplant\. .* Antworten Sie STOPP zum Abmelden\.$/);
  });

  it('retries a refused SMS with the backoff, the reason on the queued message meanwhile, then sends it', async () => {
    const s = await scene();
    answers = [
      { status: 503, body: 'Sendsms disabled' },
      { status: 403, body: 'Authorization failed for sendsms' },
    ];
    await sweep();
    expect(await messagesOf(s)).toMatchObject([{ status: 'queued', error: 'Kannel answered 503: Sendsms disabled' }]);
    await worker.drain(); // not due yet: nothing more is sent
    expect(sentTo(s.phone)).toHaveLength(1);
    await nextAttempt(1);
    expect(await messagesOf(s)).toMatchObject([{ status: 'queued', error: 'Kannel answered 403: Authorization failed for sendsms' }]);
    await nextAttempt(2);
    expect(sentTo(s.phone)).toHaveLength(3);
    expect(await messagesOf(s)).toMatchObject([{ status: 'sent', error: null }]);
  });

  it("fails the SMS with the gateway's reason after the last attempt; a gateway that does not answer is retried alike", async () => {
    const s = await scene();
    answers = ['hang', ...Array.from({ length: SEND_MESSAGE_ATTEMPTS - 1 }, () => ({ status: 400, body: 'Missing receiver number' }))];
    await sweep();
    expect(await messagesOf(s)).toMatchObject([{ status: 'queued', error: 'Kannel did not answer within 5000 ms' }]);
    for (let attempt = 1; attempt < SEND_MESSAGE_ATTEMPTS; attempt++) await nextAttempt(attempt);
    expect(sentTo(s.phone)).toHaveLength(SEND_MESSAGE_ATTEMPTS);
    expect(await messagesOf(s)).toMatchObject([{ status: 'failed', error: 'Kannel answered 400: Missing receiver number' }]);
    await nextAttempt(SEND_MESSAGE_ATTEMPTS);
    expect(sentTo(s.phone)).toHaveLength(SEND_MESSAGE_ATTEMPTS); // failed for good
  });

  it('never sends to a number that is not E.164 (stored before the check): the message is failed with the reason', async () => {
    const s = await scene();
    await t.deps.db.execute(sql`UPDATE stops SET contact = jsonb_set(contact, '{phone_number}', '"0151 1234"') WHERE tenant_id = ${s.tn.tenantId} AND id = ${s.dropoff.id}`);
    await sweep();
    expect(sentTo('0151 1234')).toHaveLength(0);
    expect(await messagesOf(s)).toMatchObject([{ channel: 'sms', to: '0151 1234', status: 'failed', error: 'Not sent: 0151 1234 is not a valid phone number in E.164 (+ and country code).' }]);
  });

  it('lists every e-mail and SMS of the booking for whoever sees it; a driver gets 403, another tenant 404', async () => {
    const s = await scene({ email: `ada.${randomBytes(4).toString('hex')}@example.com` });
    await sweep();
    await driveStop(s.driver.client, s.pickup.id, 'completed');
    await sweep();
    const messages = await messagesOf(s);
    expect(messages.map((m) => [m.channel, m.moment, m.status])).toEqual([
      ['email', 'dispatched', 'sent'],
      ['sms', 'dispatched', 'sent'],
      ['email', 'on_its_way', 'sent'],
      ['sms', 'on_its_way', 'sent'],
    ]);
    const driver = await s.driver.client.get(`/api/hailing/bookings/${s.booking.id}/messages`);
    expect([driver.status, driver.body.error_code]).toEqual([403, 'forbidden']);
    const other = await t.createTenant();
    const foreign = await other.admin.get(`/api/hailing/bookings/${s.booking.id}/messages`);
    expect([foreign.status, foreign.body.error_code]).toEqual([404, 'not_found']);
    const bad = await s.tn.admin.get('/api/hailing/bookings/not-a-uuid/messages');
    expect(bad.status).toBeLessThan(500);
    expect(bad.headers['content-type']).toMatch(/problem\+json/);
  });
});

describe('the template preview', () => {
  it('shows the SMS a template makes, its coding and its segments', async () => {
    const tn = await t.createTenant();
    const preview = async (body: string) =>
      (await expectOk(tn.admin.post('/api/admin/recipient_templates/dispatched/de/preview', { recipient_template: { subject: 'Eingeplant', body } }))).preview.sms;
    expect(await preview('Hallo {{name}},\n\nIhre Lieferung ist eingeplant: {{tracking_url}}')).toEqual({
      text: 'Hallo Erika Mustermann, Ihre Lieferung ist eingeplant: https://track.example/track/sample Antworten Sie STOPP zum Abmelden.',
      coding: 'gsm7',
      segments: 1,
    });
    expect(await preview(`${'Sehr lange Nachricht. '.repeat(7)}{{tracking_url}}`)).toMatchObject({ coding: 'gsm7', segments: 2 });
    expect(await preview('Ihre Lieferung 🚚 {{tracking_url}}')).toMatchObject({ coding: 'ucs2', segments: 2 });
  });
});

describe("Kannel's callbacks", () => {
  const status = (query: string) => t.anonymous.get(`/api/sms/kannel/status?${query}`);

  it('refuses a missing or wrong secret with 401 problem+json before reading anything else', async () => {
    for (const query of ['', 'secret=wrong-secret-of-some-length&tenant=x', `secret=${secret}x&type=1`]) {
      const res = await status(query);
      expect([res.status, res.body.error_code]).toEqual([401, 'unauthenticated']);
      expect(res.headers['content-type']).toMatch(/problem\+json/);
    }
    const inbound = await t.anonymous.post('/api/sms/kannel/inbound?from=%2B4915112345678&text=STOP', undefined);
    expect(inbound.status).toBe(401);
  });

  it('moves a message forward only: 8 then 1 is delivered, a late 8 changes nothing; 2 fails it with the carrier’s answer', async () => {
    const a = await scene();
    const b = await scene();
    await sweep();
    const [ma] = await messagesOf(a);
    const [mb] = await messagesOf(b);
    const receipt = (s: Scene, m: MessageView, type: number, answer = '') =>
      status(`secret=${secret}&tenant=${s.tn.tenantId}&message=${m.id}&type=${type}&answer=${encodeURIComponent(answer)}`);
    expect((await receipt(a, ma!, 8, 'ACK/')).status).toBe(204);
    expect((await messagesOf(a))[0]!.status).toBe('sent');
    expect((await receipt(a, ma!, 1)).status).toBe(204);
    expect((await receipt(a, ma!, 8)).status).toBe(204);
    expect((await receipt(a, ma!, 4)).status).toBe(204);
    expect((await messagesOf(a))[0]).toMatchObject({ status: 'delivered', error: null });
    // Kannel fetches with GET; the contract's POST does the same.
    const failed = await t.anonymous.post(`/api/sms/kannel/status?secret=${secret}&tenant=${b.tn.tenantId}&message=${mb!.id}&type=2&answer=${encodeURIComponent('NACK/0x0000000b/Invalid Destination Address')}`, undefined);
    expect(failed.status).toBe(204);
    expect((await messagesOf(b))[0]).toMatchObject({ status: 'failed', error: 'Not delivered: NACK/0x0000000b/Invalid Destination Address' });
  });

  it('answers an unknown DLR type 400 and an unknown message 404, as problem+json', async () => {
    const s = await scene();
    await sweep();
    const [m] = await messagesOf(s);
    const unknownType = await status(`secret=${secret}&tenant=${s.tn.tenantId}&message=${m!.id}&type=3`);
    expect([unknownType.status, unknownType.body.error_code, unknownType.body.errors?.[0]?.pointer]).toEqual([400, 'parameter_invalid', '/type']);
    const unknown = await status(`secret=${secret}&tenant=${s.tn.tenantId}&message=${s.booking.id}&type=1`);
    expect([unknown.status, unknown.body.error_code]).toEqual([404, 'not_found']);
    const malformed = await status(`secret=${secret}&tenant=nope&message=${m!.id}&type=one`);
    expect(malformed.status).toBeGreaterThanOrEqual(400);
    expect(malformed.status).toBeLessThan(500);
  });

  it('STOP, STOPP and ABMELDEN in any case opt the number out of the tenant that texted it; other replies do not', async () => {
    const scenes = [await scene(), await scene(), await scene(), await scene()];
    await sweep();
    const replies = ['Stop', 'stopp bitte', 'ABMELDEN', 'Thanks, stopping by later'];
    for (const [i, s] of scenes.entries()) {
      const from = s.phone.slice(1); // Kannel may give the number without its "+"
      const res = await t.anonymous.get(`/api/sms/kannel/inbound?secret=${secret}&from=${from}&text=${encodeURIComponent(replies[i]!)}`);
      expect(res.status).toBe(204);
    }
    for (const s of scenes) await driveStop(s.driver.client, s.pickup.id, 'completed');
    await sweep();
    const outcomes = await Promise.all(scenes.map(async (s) => (await messagesOf(s)).map((m) => [m.moment, m.status, m.error])));
    const optedOut = ['on_its_way', 'failed', 'Not sent: the number opted out (replied STOP).'];
    expect(outcomes.map((o) => o[1])).toEqual([optedOut, optedOut, optedOut, ['on_its_way', 'sent', null]]);
    expect(scenes.map((s) => sentTo(s.phone).length)).toEqual([1, 1, 1, 2]);
  });
});

describe('sent once', () => {
  it('a send job taken again while its first run still talks to the gateway (the lease ran out) sends the SMS once', async () => {
    const second = createWorker(t.deps);
    await Promise.all([worker.drain(), second.drain()]); // their start-up (the periodic jobs) done before the race
    const s = await scene();
    let release: () => void = () => undefined;
    held = new Promise<void>((resolve) => (release = resolve));
    try {
      await notifyRecipients(t.deps);
      const first = worker.drain();
      // The first worker waits for the gateway; the job's lease runs out, and the second worker takes the job.
      while (sentTo(s.phone).length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
      t.clock.advance(61_000);
      await second.drain();
      release();
      await first;
    } finally {
      held = null;
      release();
    }
    expect(sentTo(s.phone)).toHaveLength(1);
    expect((await messagesOf(s))[0]).toMatchObject({ status: 'sent', error: null });
    // Nor later: the second run's retry finds the message sent.
    t.clock.advance(3_600_000);
    await worker.drain();
    expect(sentTo(s.phone)).toHaveLength(1);
  });

  it('two send jobs of one message run side by side in one pass (decision 1785) and send it once', async () => {
    await worker.drain();
    const s = await scene();
    await notifyRecipients(t.deps);
    // A second job for the same message, due with the first: one pass claims both and runs them at once.
    const [job] = await queryRows<{ payload: Record<string, unknown> }>(t.deps.db, sql`SELECT payload FROM jobs WHERE tenant_id = ${s.tn.tenantId} AND kind = 'tracking.send_message' AND status = 'pending'`);
    await scheduleJob(t.deps.db, { tenantId: s.tn.tenantId, kind: 'tracking.send_message', payload: job!.payload, dueAt: t.clock.now(), now: t.clock.now(), maxAttempts: SEND_MESSAGE_ATTEMPTS });
    let release: () => void = () => undefined;
    held = new Promise<void>((resolve) => (release = resolve));
    const heldBack = async () =>
      queryRows<{ n: number }>(t.deps.db, sql`SELECT count(*)::int AS n FROM jobs WHERE tenant_id = ${s.tn.tenantId} AND last_error = 'the message is being sent by another job'`);
    let sideBySide = false;
    try {
      const pass = worker.drain();
      // While the first job waits for the gateway, the other finds the message held: both are in flight at once.
      for (let tries = 0; tries < 500 && !sideBySide; tries++) {
        sideBySide = (await heldBack())[0]!.n === 1;
        if (!sideBySide) await new Promise((resolve) => setTimeout(resolve, 10));
      }
      release();
      await pass;
    } finally {
      held = null;
      release();
    }
    expect(sideBySide).toBe(true);
    expect(sentTo(s.phone)).toHaveLength(1);
    expect((await messagesOf(s))[0]).toMatchObject({ status: 'sent', error: null });
    // The held-back job's retry finds the message sent.
    t.clock.advance(retryDelayMs(1) + 1000);
    await worker.drain();
    expect(sentTo(s.phone)).toHaveLength(1);
  });
});
