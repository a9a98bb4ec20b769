// The Kannel chain (issue 40's proof): our real server and worker, Debian's bearerbox + smsbox, fakesmsc as the carrier.
// A dispatched booking's SMS reaches the carrier with its tracking link, Kannel's receipt marks it delivered through our
// status route, and a reply STOP through our inbound route stops the next one. Fails, never skips, without Kannel.
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/app.ts';
import { createBooking, createService, createServiceArea, createUser, driveStop, expectOk, tourEnRoute } from '../../../test/factories.ts';
import { startKannel, type KannelGateway } from '../../../test/kannel.ts';
import { freePort } from '../../../test/pg-cluster.ts';
import { queryRows } from '../../db/sql.ts';
import { createWorker, type Worker } from '../../worker/loop.ts';
import { notifyRecipients } from './notify.ts';

let t: TestApp;
let kannel: KannelGateway;
let worker: Worker;
const secret = randomBytes(18).toString('base64url');

beforeAll(async () => {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  kannel = await startKannel({ inboundUrl: `${base}/api/sms/kannel/inbound?secret=${secret}&from=%p&text=%a` });
  t = await buildTestApp({
    publicUrl: base,
    reportsMasterKey: randomBytes(32).toString('base64'),
    sms: { provider: 'kannel', url: kannel.sendsmsUrl, username: kannel.username, password: kannel.password, from: 'Tourbook', callbackSecret: secret, timeoutMs: 5000 },
  });
  await t.app.listen({ port, host: '127.0.0.1' });
  worker = createWorker(t.deps);
}, 30_000);
afterAll(async () => {
  await t?.close();
  await kannel?.close();
});

async function scene(phone: string) {
  const tn = await t.createTenant();
  const area = await createServiceArea(tn.admin, { time_zone: 'Europe/Berlin', recipient_notifications: ['dispatched', 'on_its_way'] });
  const service = await createService(tn.admin, { service_area_id: area.id });
  const booking = await createBooking(tn.admin, {
    service_id: service.id,
    stops: [
      { type: 'pickup', location: { lat: 52.5, lng: 13.4 }, address: { street: 'Chausseestraße', number: '1', city: 'Berlin' } },
      { type: 'dropoff', location: { lat: 52.51, lng: 13.41 }, address: { street: 'Torstraße', number: '2', city: 'Berlin' }, contact: { name: 'Ada Lovelace', phone_number: phone } },
    ],
  });
  const driver = await createUser(tn.admin, { role: 'driver', name: 'Erika Mustermann' });
  await tourEnRoute(tn.admin, [booking.id], driver.id);
  const tracking = (await expectOk(tn.admin.get(`/api/hailing/bookings/${booking.id}`))).booking.tracking as { url: string };
  return { tn, booking, driver, pickup: (booking.stops as { id: string }[])[0]!, trackingUrl: tracking.url };
}

const messagesOf = async (s: Awaited<ReturnType<typeof scene>>) => (await expectOk(s.tn.admin.get(`/api/hailing/bookings/${s.booking.id}/messages`))).messages as { channel: string; to: string; moment: string; status: string; error: string | null }[];

describe('SMS through Kannel', () => {
  it('sends the dispatched SMS with the tracking link to the carrier, a receipt marks it delivered, a reply STOP stops the next', async () => {
    const phone = '+4915112345678';
    const s = await scene(phone);
    await notifyRecipients(t.deps);
    expect((await messagesOf(s)).map((m) => [m.channel, m.to, m.moment, m.status])).toEqual([['sms', phone, 'dispatched', 'queued']]);
    await worker.drain();

    await kannel.until(() => kannel.carried.some((m) => m.to === phone), 'the SMS reaching fakesmsc');
    const [sms, ...more] = kannel.carried.filter((m) => m.to === phone);
    expect(more).toHaveLength(0);
    expect(sms!.from).toBe('Tourbook');
    expect(sms!.type).toBe('text'); // GSM-7: the default English text needs no UCS-2
    expect(sms!.text).toMatch(/^Hello Ada Lovelace, your delivery is scheduled\. /);
    expect(sms!.text).toContain(`Follow it live: ${s.trackingUrl}`);
    expect(sms!.text).toContain('Reply STOP to opt out.');

    // Kannel's receipts (8, then 1) come back through our status route.
    await kannel.until(async () => (await messagesOf(s))[0]?.status === 'delivered', 'the receipt marking the SMS delivered');

    // The phone answers "stop": the number gets no more SMS from this tenant.
    kannel.reply(phone, 'Tourbook', 'stop');
    const optedOut = async () =>
      (await queryRows<{ n: number }>(t.deps.db, sql`SELECT count(*)::int AS n FROM recipient_phones WHERE tenant_id = ${s.tn.tenantId} AND phone_number = ${phone}`))[0]?.n === 1;
    await kannel.until(optedOut, 'the STOP reply opting the number out');

    await driveStop(s.driver.client, s.pickup.id, 'completed');
    await notifyRecipients(t.deps);
    await worker.drain();
    const messages = await messagesOf(s);
    expect(messages.map((m) => [m.moment, m.status, m.error])).toEqual([
      ['dispatched', 'delivered', null],
      ['on_its_way', 'failed', 'Not sent: the number opted out (replied STOP).'],
    ]);
    await new Promise((r) => setTimeout(r, 300)); // nothing is on its way to the carrier either
    expect(kannel.carried.filter((m) => m.to === phone)).toHaveLength(1);
  });
});
