// The SMPP chain (decision 1783): our real server and worker, the `smpp` library's own server as the SMSC
// (test/smpp-peer.ts). A dispatched booking's SMS is one submit_sm with the sender, the number and the tracking link; the
// SMSC's receipt over the session marks it delivered through the bridge route; a reply STOP opts the number out; a
// refused submit is failed with the SMPP status name; a dropped session is bound again and the next SMS goes.
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import smpp from 'smpp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/app.ts';
import { driveStop, expectOk } from '../../../test/factories.ts';
import { freePort } from '../../../test/pg-cluster.ts';
import { phoneNumbers, smsScene } from '../../../test/sms-scene.ts';
import { startSmppPeer, type SmppPeer } from '../../../test/smpp-peer.ts';
import { queryRows } from '../../db/sql.ts';
import { closeSmsGateways } from '../../sms/index.ts';
import { smppGateway } from '../../sms/smpp.ts';
import { retryDelayMs } from '../../worker/jobs.ts';
import { createWorker, type Worker } from '../../worker/loop.ts';
import { notifyRecipients } from './notify.ts';
import { SEND_MESSAGE_ATTEMPTS } from './send-message.ts';

let t: TestApp;
let peer: SmppPeer;
let worker: Worker;
let base: string;
const secret = randomBytes(18).toString('base64url');

beforeAll(async () => {
  peer = await startSmppPeer();
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  t = await buildTestApp({
    publicUrl: base,
    reportsMasterKey: randomBytes(32).toString('base64'),
    sms: { provider: 'smpp', url: peer.url, username: peer.systemId, password: peer.password, from: 'Tourbook', callbackSecret: secret, timeoutMs: 5000 },
  });
  await t.app.listen({ port, host: '127.0.0.1' });
  worker = createWorker(t.deps);
}, 30_000);
afterAll(async () => {
  await closeSmsGateways();
  await t?.close();
  await peer?.close();
});

const nextNumber = phoneNumbers('153', 30_000_000);
const scene = (contact: { name?: string } = {}) => smsScene(t, { ...contact, phone_number: nextNumber() });
type Scene = Awaited<ReturnType<typeof scene>>;

const messagesOf = async (s: Scene) => (await expectOk(s.tn.admin.get(`/api/hailing/bookings/${s.booking.id}/messages`))).messages as { moment: string; status: string; error: string | null }[];
const sentTo = (phone: string) => peer.submitted.filter((m) => m.destinationAddr === phone.slice(1));
async function sweep(): Promise<void> {
  await notifyRecipients(t.deps);
  await worker.drain();
}

describe('SMS through SMPP', () => {
  it('submits the SMS with the sender and the tracking link; the receipt marks it delivered; a reply STOP stops the next', async () => {
    const s = await scene();
    await sweep();
    const [sms, ...more] = sentTo(s.phone);
    expect(more).toHaveLength(0);
    expect(sms).toMatchObject({ sourceAddr: 'Tourbook', sourceTon: 5, sourceNpi: 0, destTon: 1, destNpi: 1, dataCoding: 0, registeredDelivery: 1, field: 'short_message' });
    expect(sms!.text).toMatch(/^Hello Ada Lovelace, your delivery is scheduled\. /);
    expect(sms!.text).toContain(`Follow it live: ${s.trackingUrl}`);
    expect((await messagesOf(s))[0]).toMatchObject({ status: 'sent', error: null });

    expect(await peer.receipt(sms!.messageId!, 'ACCEPTD')).toBe(smpp.ESME_ROK);
    expect(await peer.receipt(sms!.messageId!, 'DELIVRD')).toBe(smpp.ESME_ROK);
    expect((await messagesOf(s))[0]).toMatchObject({ status: 'delivered', error: null });

    expect(await peer.reply(s.phone, 'stopp')).toBe(smpp.ESME_ROK);
    const optedOut = await queryRows<{ n: number }>(t.deps.db, sql`SELECT count(*)::int AS n FROM recipient_phones WHERE tenant_id = ${s.tn.tenantId} AND phone_number = ${s.phone}`);
    expect(optedOut[0]!.n).toBe(1);
    await driveStop(s.driver.client, s.pickup.id, 'completed');
    await sweep();
    expect((await messagesOf(s)).map((m) => [m.moment, m.status, m.error])).toEqual([
      ['dispatched', 'delivered', null],
      ['on_its_way', 'failed', 'Not sent: the number opted out (replied STOP).'],
    ]);
    expect(sentTo(s.phone)).toHaveLength(1);
  });

  it('sends a text GSM-7 cannot carry as UCS-2 (data_coding 8), past one segment in message_payload', async () => {
    const s = await scene({ name: '李雷' });
    await sweep();
    const [sms] = sentTo(s.phone);
    expect(sms).toMatchObject({ dataCoding: 8, field: 'message_payload' });
    expect(sms!.text).toMatch(/^Hello 李雷, your delivery is scheduled\. /);
  });

  it('fails a message on an UNDELIV receipt (TLVs: receipted_message_id, message_state); an unknown id is acknowledged', async () => {
    const s = await scene();
    await sweep();
    const [sms] = sentTo(s.phone);
    expect(await peer.receipt(sms!.messageId!, 'UNDELIV', { tlvs: true })).toBe(smpp.ESME_ROK);
    expect((await messagesOf(s))[0]).toMatchObject({ status: 'failed', error: 'Not delivered: UNDELIV' });
    // Not ours (404 at the bridge): acknowledged, so the SMSC does not deliver it again and again.
    expect(await peer.receipt('ffffffffffffffff', 'DELIVRD')).toBe(smpp.ESME_ROK);
  });

  it('records a refused submit_sm with the SMPP status name, retried with the backoff, then failed', async () => {
    const s = await scene();
    peer.refuseNext.push(...Array.from({ length: SEND_MESSAGE_ATTEMPTS }, () => smpp.ESME_RINVDSTADR));
    await sweep();
    const reason = 'SMSC refused it: ESME_RINVDSTADR (0x0000000B)';
    expect(await messagesOf(s)).toMatchObject([{ status: 'queued', error: reason }]);
    for (let attempt = 1; attempt < SEND_MESSAGE_ATTEMPTS; attempt++) {
      t.clock.advance(retryDelayMs(attempt) + 1000);
      await worker.drain();
    }
    expect(sentTo(s.phone)).toHaveLength(SEND_MESSAGE_ATTEMPTS);
    expect(await messagesOf(s)).toMatchObject([{ status: 'failed', error: reason }]);
  });

  it('binds again after the SMSC drops the session, and the next SMS goes', async () => {
    const first = await scene();
    await sweep();
    expect(sentTo(first.phone)).toHaveLength(1);
    const binds = peer.binds.filter((b) => b === 'ok').length;
    peer.drop();
    await expect.poll(() => peer.binds.filter((b) => b === 'ok').length).toBeGreaterThan(binds);
    const second = await scene();
    await sweep();
    expect(sentTo(second.phone)).toHaveLength(1);
    expect((await messagesOf(second))[0]).toMatchObject({ status: 'sent', error: null });
    // Receipts come over the new session too.
    expect(await peer.receipt(sentTo(second.phone)[0]!.messageId!, 'DELIVRD')).toBe(smpp.ESME_ROK);
    expect((await messagesOf(second))[0]!.status).toBe('delivered');
  });

  it('a send right after a drop waits for the re-bind instead of failing', async () => {
    const s = await scene();
    peer.drop();
    await expect.poll(() => peer.bound()).toBe(0);
    await sweep();
    expect(sentTo(s.phone)).toHaveLength(1);
    expect((await messagesOf(s))[0]).toMatchObject({ status: 'sent', error: null });
  });
});

describe('the SMPP adapter', () => {
  // Its sessions are the process's (the chain's too): closed after each, the chain binds its own again at its next SMS.
  afterEach(closeSmsGateways);
  const outgoing = { id: 'm1', tenantId: 't1', to: '+4915112345678', from: '+4930123456', text: 'Hello', statusUrl: null };

  it('refuses in words, never throws: a bind with the wrong password (ESME_RBINDFAIL), an SMSC that is not there', async () => {
    const wrong = smppGateway({ url: peer.url, systemId: peer.systemId, password: 'wrong', timeoutMs: 2000, bridge: null });
    expect(await wrong.send(outgoing)).toEqual({ accepted: false, reason: 'SMPP: bind_transceiver refused: ESME_RBINDFAIL (0x0000000D)' });
    const gone = smppGateway({ url: `smpp://127.0.0.1:${await freePort()}`, systemId: 'x', password: 'y', timeoutMs: 2000, bridge: null });
    expect(await gone.send(outgoing)).toEqual({ accepted: false, reason: 'SMPP: SMSC unreachable: ECONNREFUSED' });
  });

  it('sends a number sender as TON 1 / NPI 1 without its plus, and asks for no receipt without a status URL', async () => {
    const gateway = smppGateway({ url: peer.url, systemId: peer.systemId, password: peer.password, timeoutMs: 2000, bridge: null });
    const result = await gateway.send({ ...outgoing, to: '+4915199999999' });
    expect(result).toMatchObject({ accepted: true, providerRef: expect.stringMatching(/^[0-9a-f]{16}$/) });
    expect(peer.submitted.at(-1)).toMatchObject({ sourceAddr: '4930123456', sourceTon: 1, sourceNpi: 1, destinationAddr: '4915199999999', registeredDelivery: 0 });
  });
});
