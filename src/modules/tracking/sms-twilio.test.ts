// The Twilio chain (decision 1782): our real server and worker, a local Twilio peer (test/twilio-peer.ts) that answers
// the Messages resource as Twilio documents it and calls back signed as Twilio does. A dispatched booking's SMS reaches
// it with the tracking link and the sender; a signed status callback marks it delivered, an unsigned or wrongly signed
// one is 403 and changes nothing; a signed STOP opts the number out; a refusal keeps Twilio's code and words.
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/app.ts';
import { driveStop, expectOk } from '../../../test/factories.ts';
import { freePort } from '../../../test/pg-cluster.ts';
import { phoneNumbers, smsScene } from '../../../test/sms-scene.ts';
import { startTwilioPeer, TWILIO_INVALID_NUMBER, type TwilioPeer } from '../../../test/twilio-peer.ts';
import { queryRows } from '../../db/sql.ts';
import { twilioGateway } from '../../sms/twilio.ts';
import { retryDelayMs } from '../../worker/jobs.ts';
import { createWorker, type Worker } from '../../worker/loop.ts';
import { notifyRecipients } from './notify.ts';
import { SEND_MESSAGE_ATTEMPTS } from './send-message.ts';

let t: TestApp;
let twilio: TwilioPeer;
let worker: Worker;
let base: string;

beforeAll(async () => {
  twilio = await startTwilioPeer();
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  t = await buildTestApp({
    publicUrl: base,
    reportsMasterKey: randomBytes(32).toString('base64'),
    sms: { provider: 'twilio', url: twilio.url, username: twilio.accountSid, password: twilio.authToken, from: 'Tourbook', callbackSecret: null, timeoutMs: 5000 },
  });
  await t.app.listen({ port, host: '127.0.0.1' });
  worker = createWorker(t.deps);
}, 30_000);
afterAll(async () => {
  await t?.close();
  await twilio?.close();
});

const nextNumber = phoneNumbers('152', 20_000_000);
const scene = (phone = nextNumber()) => smsScene(t, { phone_number: phone });
type Scene = Awaited<ReturnType<typeof scene>>;

const messagesOf = async (s: Scene) => (await expectOk(s.tn.admin.get(`/api/hailing/bookings/${s.booking.id}/messages`))).messages as { channel: string; to: string; moment: string; status: string; error: string | null }[];
const sentTo = (phone: string) => twilio.requests.filter((r) => r.to === phone);
async function sweep(): Promise<void> {
  await notifyRecipients(t.deps);
  await worker.drain();
}

describe('SMS through Twilio', () => {
  it('posts the SMS with the tracking link, the sender and our status callback; a signed callback marks it delivered', async () => {
    const s = await scene();
    await sweep();
    const [request, ...more] = sentTo(s.phone);
    expect(more).toHaveLength(0);
    expect(request!.from).toBe('Tourbook');
    expect(request!.body).toMatch(/^Hello Ada Lovelace, your delivery is scheduled\. /);
    expect(request!.body).toContain(`Follow it live: ${s.trackingUrl}`);
    expect(request!.body).toContain('Reply STOP to opt out.');
    expect(request!.statusCallback).toBe(`${base}/api/sms/twilio/status`);
    expect(request!.sid).toMatch(/^SM[0-9a-f]{32}$/);
    expect((await messagesOf(s)).map((m) => [m.channel, m.to, m.status])).toEqual([['sms', s.phone, 'sent']]);

    expect((await twilio.statusCallback(request!.sid!, 'sent')).status).toBe(204);
    expect((await twilio.statusCallback(request!.sid!, 'delivered')).status).toBe(204);
    expect((await messagesOf(s))[0]).toMatchObject({ status: 'delivered', error: null });
    // A late "sent" does not take it back.
    expect((await twilio.statusCallback(request!.sid!, 'sent')).status).toBe(204);
    expect((await messagesOf(s))[0]!.status).toBe('delivered');
  });

  it('refuses an unsigned or wrongly signed callback with 403 problem+json and changes nothing', async () => {
    const s = await scene();
    await sweep();
    const [request] = sentTo(s.phone);
    for (const signing of ['none', 'wrong'] as const) {
      const res = await twilio.statusCallback(request!.sid!, 'failed', { errorCode: '30003', signing });
      expect(res.status).toBe(403);
      expect(JSON.parse(res.body)).toMatchObject({ status: 403, error_code: 'forbidden' });
    }
    // A body the schema would refuse gets 403 all the same: the signature comes first.
    const garbage = await fetch(`${base}/api/sms/twilio/status`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'MessageStatus=' });
    expect([garbage.status, garbage.headers.get('content-type')]).toEqual([403, expect.stringMatching(/problem\+json/)]);
    expect((await messagesOf(s))[0]).toMatchObject({ status: 'sent', error: null });
  });

  it('fails a message on an undelivered callback with Twilio’s error code; an unknown SID is 404', async () => {
    const s = await scene();
    await sweep();
    const [request] = sentTo(s.phone);
    expect((await twilio.statusCallback(request!.sid!, 'undelivered', { errorCode: '30003' })).status).toBe(204);
    expect((await messagesOf(s))[0]).toMatchObject({ status: 'failed', error: 'Not delivered (undelivered): Twilio error 30003' });
    const unknownStatus = await twilio.statusCallback(request!.sid!, 'exploded');
    expect([unknownStatus.status, JSON.parse(unknownStatus.body).error_code]).toEqual([400, 'parameter_invalid']);
  });

  it('a signed STOP opts the number out (empty TwiML back): the next moment sends nothing; an unsigned STOP does nothing', async () => {
    const s = await scene();
    await sweep();
    const unsigned = await twilio.inbound(`${base}/api/sms/twilio/inbound`, s.phone, 'STOP', { signing: 'none' });
    expect(unsigned.status).toBe(403);
    const optedOut = async () => (await queryRows<{ n: number }>(t.deps.db, sql`SELECT count(*)::int AS n FROM recipient_phones WHERE tenant_id = ${s.tn.tenantId} AND phone_number = ${s.phone}`))[0]!.n;
    expect(await optedOut()).toBe(0);

    const reply = await twilio.inbound(`${base}/api/sms/twilio/inbound`, s.phone, 'Stop');
    expect([reply.status, reply.contentType, reply.body]).toEqual([200, expect.stringMatching(/^text\/xml/), '<?xml version="1.0" encoding="UTF-8"?><Response/>']);
    expect(await optedOut()).toBe(1);

    await driveStop(s.driver.client, s.pickup.id, 'completed');
    await sweep();
    expect((await messagesOf(s)).map((m) => [m.moment, m.status, m.error])).toEqual([
      ['dispatched', 'sent', null],
      ['on_its_way', 'failed', 'Not sent: the number opted out (replied STOP).'],
    ]);
    expect(sentTo(s.phone)).toHaveLength(1);
  });

  it("records a refusal with Twilio's code and words, retried with the backoff, then failed", async () => {
    const s = await scene(TWILIO_INVALID_NUMBER);
    await sweep();
    const reason = `Twilio refused it (400, error 21211): The 'To' number ${TWILIO_INVALID_NUMBER} is not a valid phone number.`;
    expect(await messagesOf(s)).toMatchObject([{ status: 'queued', error: reason }]);
    for (let attempt = 1; attempt < SEND_MESSAGE_ATTEMPTS; attempt++) {
      t.clock.advance(retryDelayMs(attempt) + 1000);
      await worker.drain();
    }
    expect(sentTo(s.phone)).toHaveLength(SEND_MESSAGE_ATTEMPTS);
    expect(await messagesOf(s)).toMatchObject([{ status: 'failed', error: reason }]);
  });
});

describe('the Twilio adapter', () => {
  const outgoing = { id: 'm1', tenantId: 't1', to: '+4915112345678', from: 'Tourbook', text: 'Hello', statusUrl: null };

  it('refuses with 20003 for a wrong Auth Token, and in words when Twilio cannot be reached', async () => {
    const wrong = twilioGateway({ url: twilio.url, accountSid: twilio.accountSid, authToken: 'not-the-token', timeoutMs: 2000 });
    expect(await wrong.send(outgoing)).toEqual({ accepted: false, reason: 'Twilio refused it (401, error 20003): Authenticate' });
    const gone = twilioGateway({ url: `http://127.0.0.1:${await freePort()}`, accountSid: twilio.accountSid, authToken: twilio.authToken, timeoutMs: 2000 });
    expect(await gone.send(outgoing)).toEqual({ accepted: false, reason: 'Twilio unreachable: ECONNREFUSED' });
  });
});
