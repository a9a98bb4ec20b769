import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/app.ts';
import { createBooking, createService, createServiceArea, createUser, driveStop, eventsOf, expectOk, tourEnRoute } from '../../../test/factories.ts';
import { startSmtpPeer, type ReceivedMail, type SmtpPeer } from '../../../test/smtp-peer.ts';
import { createWorker, type Worker } from '../../worker/loop.ts';
import { ensureRecipientNotifications } from './index.ts';
import { notifyRecipients } from './notify.ts';

let t: TestApp;
let smtp: SmtpPeer;
let worker: Worker;

beforeAll(async () => {
  smtp = await startSmtpPeer();
  t = await buildTestApp({
    publicUrl: 'https://track.example',
    reportsMasterKey: randomBytes(32).toString('base64'),
    smtpUrl: smtp.url,
    mailFrom: 'Tourbook <dispatch@tourbook.test>',
    rateLimit: { perSecond: 1000, burst: 1000 },
  });
  worker = createWorker(t.deps);
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

/** The message as a reader sees it: header lines unfolded, quoted-printable undone. */
const decoded = (mail: ReceivedMail): string =>
  mail.raw
    .replace(/\r?\n[ \t]+/g, ' ')
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
const mailsTo = (address: string) => smtp.messages.filter((m) => m.to.includes(address)).map(decoded);
const unique = (name: string) => `${name}.${randomBytes(4).toString('hex')}@example.com`;

/** A booking whose drop-off has the recipient's contact, on an en-route tour; the driver has not left the pickup yet. */
const ALL_MOMENTS = ['on_its_way', 'delivered', 'failed'];

async function scene(contact: { email?: string; name?: string; locale?: 'en' | 'de' } = {}, moments: string[] = ALL_MOMENTS) {
  const tn = await t.createTenant();
  const area = await createServiceArea(tn.admin, { time_zone: 'Europe/Berlin', recipient_notifications: moments });
  const service = await createService(tn.admin, { service_area_id: area.id });
  const email = contact.email ?? unique('ada');
  const booking = await createBooking(tn.admin, {
    service_id: service.id,
    stops: [
      { type: 'pickup', location: { lat: 52.5, lng: 13.4 }, address: { street: 'Chausseestraße', number: '1', city: 'Berlin' } },
      {
        type: 'dropoff',
        location: { lat: 52.51, lng: 13.41 },
        address: { street: 'Torstraße', number: '2', city: 'Berlin' },
        contact: { name: contact.name ?? 'Ada Lovelace', email, ...(contact.locale ? { locale: contact.locale } : {}) },
      },
    ],
  });
  const driver = await createUser(tn.admin, { role: 'driver', name: 'Erika Mustermann' });
  const tour = await tourEnRoute(tn.admin, [booking.id], driver.id);
  const [pickup, dropoff] = booking.stops as { id: string }[];
  const tracking = (await expectOk(tn.admin.get(`/api/hailing/bookings/${booking.id}`))).booking.tracking as { url: string };
  return { tn, booking, tour, driver, pickup: pickup!, dropoff: dropoff!, email, trackingUrl: tracking.url };
}

/** One sweep, then the mail jobs it queued. */
async function sweep(): Promise<void> {
  await notifyRecipients(t.deps);
  await worker.drain();
}

const unsubscribeUrlOf = (mail: string): string => /List-Unsubscribe:\s*<([^>]+)>/.exec(mail)![1]!;

describe('recipient e-mails', () => {
  it('tells the recipient once the driver heads to the drop-off, with the tracking link and RFC 8058 headers', async () => {
    const s = await scene({ name: 'Ada Lovelace' });
    await sweep();
    expect(mailsTo(s.email)).toHaveLength(0); // the driver still has the pickup ahead
    await driveStop(s.driver.client, s.pickup.id, 'completed');
    await sweep();
    const [mail, ...more] = mailsTo(s.email);
    expect(more).toHaveLength(0);
    expect(mail).toContain('Subject: Your delivery is on its way');
    expect(mail).toContain('Hello Ada Lovelace,');
    expect(mail).toContain(`Follow it live: ${s.trackingUrl}`);
    expect(mail).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r?$/m);
    const unsubscribe = unsubscribeUrlOf(mail!);
    expect(unsubscribe).toMatch(/^https:\/\/track\.example\/unsubscribe\/[A-Za-z0-9_-]{43}$/);
    expect(mail).toContain(unsubscribe); // in the body too
    const [event] = await eventsOf(s.tn.admin, s.booking.id, 'booking.recipient_notification_due');
    expect(event.actor).toEqual({ type: 'system', id: null, api_key_id: null });
    expect(event.data).toMatchObject({
      booking_id: s.booking.id,
      stop_id: s.dropoff.id,
      moment: 'on_its_way',
      locale: 'en',
      recipient: { name: 'Ada Lovelace', email: s.email },
      subject: 'Your delivery is on its way',
      tracking_url: s.trackingUrl,
      email_sent: true,
    });
    expect(event.data.text).toContain(s.trackingUrl);
    expect(event.data.text).not.toContain('unsubscribe'); // another channel has its own opt-out

    // Never twice for the same moment: more sweeps, and a sweep through the periodic job, send nothing new.
    await sweep();
    await ensureRecipientNotifications(t.deps);
    await worker.drain();
    expect(mailsTo(s.email)).toHaveLength(1);

    await driveStop(s.driver.client, s.dropoff.id, 'completed');
    await sweep();
    const mails = mailsTo(s.email);
    expect(mails).toHaveLength(2);
    expect(mails[1]).toContain('Subject: Your delivery has arrived');
    expect(unsubscribeUrlOf(mails[1]!)).toBe(unsubscribe); // one link per address
    expect((await eventsOf(s.tn.admin, s.booking.id, 'booking.recipient_notification_due')).map((e) => e.data.moment)).toEqual(['on_its_way', 'delivered']);
  });

  it('writes German when the contact asks for it, the ETA in the service area’s zone', async () => {
    const s = await scene({ locale: 'de', name: 'Erika Gabler' });
    await driveStop(s.driver.client, s.pickup.id, 'completed');
    await sweep();
    const [mail] = mailsTo(s.email);
    expect(mail).toContain('Subject: Ihre Lieferung ist unterwegs');
    expect(mail).toContain('Hallo Erika Gabler,');
    expect(mail).toContain(`Live verfolgen: ${s.trackingUrl}`);
    expect(mail).toContain('Keine Liefer-E-Mails mehr an diese Adresse: https://track.example/unsubscribe/');
    const [event] = await eventsOf(s.tn.admin, s.booking.id, 'booking.recipient_notification_due');
    expect(event.data.locale).toBe('de');
    // The ETA is in Berlin time when the tour has one (the live module estimates it).
    if (/Voraussichtlich gegen/.test(mail!)) expect(mail).toMatch(/Voraussichtlich gegen .*(MEZ|MESZ|GMT\+1|GMT\+2|CET|CEST)/);
  });

  it('tells a failed delivery with the next attempt', async () => {
    const s = await scene();
    await driveStop(s.driver.client, s.pickup.id, 'completed');
    await driveStop(s.driver.client, s.dropoff.id, 'arrived');
    await expectOk(s.driver.client.post(`/api/stops/${s.dropoff.id}/fail`, { outcome: 'reattempt_later', reason_key: 'location_closed' }));
    await sweep();
    // The sweep tells the moment a stop is at when it looks: the driver approached and failed between two sweeps, so
    // "on its way" is past and only the failure is told.
    const mails = mailsTo(s.email);
    expect(mails.map((m) => /Subject: (.*)/.exec(m)![1]!.trim())).toEqual(['We could not deliver today']);
    expect(mails[0]).toContain('we could not make your delivery.');
    expect(mails[0]).toContain('We will try again');
    expect(mails[0]).toContain(s.trackingUrl);
  });

  it('one-click unsubscribe: the POST stops further e-mails to that address in that tenant; the event still comes', async () => {
    const s = await scene();
    await driveStop(s.driver.client, s.pickup.id, 'completed');
    await sweep();
    const url = new URL(unsubscribeUrlOf(mailsTo(s.email)[0]!));

    // Opening the link does not unsubscribe (scanners open links); it shows a button that posts.
    const page = await t.anonymous.get(url.pathname);
    expect(page.status).toBe(200);
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.text).toContain(`<form method="post" action="${url.pathname}">`);

    const res = await t.anonymous.post(url.pathname, undefined, {
      raw: 'List-Unsubscribe=One-Click',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(200);
    // Twice is fine (a client may retry).
    expect((await t.anonymous.post(url.pathname, undefined, { raw: 'List-Unsubscribe=One-Click', headers: { 'content-type': 'application/x-www-form-urlencoded' } })).status).toBe(200);

    await driveStop(s.driver.client, s.dropoff.id, 'completed');
    await sweep();
    expect(mailsTo(s.email)).toHaveLength(1);
    const events = await eventsOf(s.tn.admin, s.booking.id, 'booking.recipient_notification_due');
    expect(events.map((e) => [e.data.moment, e.data.email_sent])).toEqual([
      ['on_its_way', true],
      ['delivered', false],
    ]);

    // Another tenant mailing the same address is not affected: the opt-out is per tenant.
    const other = await scene({ email: s.email });
    await driveStop(other.driver.client, other.pickup.id, 'completed');
    await sweep();
    expect(mailsTo(s.email)).toHaveLength(2);
  });

  it.each([
    ['an unknown token', 'A'.repeat(43)],
    ['garbage', '%00%ff..'],
    ['an over-long token', 'a'.repeat(3000)],
  ])('answers %s with 404 (no 5xx), for the page and the POST', async (_name, token) => {
    expect((await t.anonymous.get(`/unsubscribe/${token}`)).status).toBe(404);
    const res = await t.anonymous.post(`/unsubscribe/${token}`, undefined, { raw: 'List-Unsubscribe=One-Click', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(res.status).toBe(404);
  });

  it('sends nothing for a drop-off without an e-mail address, but still records the event for other channels', async () => {
    const tn = await t.createTenant();
    const area = await createServiceArea(tn.admin, { recipient_notifications: ALL_MOMENTS });
    const service = await createService(tn.admin, { service_area_id: area.id });
    const booking = await createBooking(tn.admin, { service_id: service.id });
    const driver = await createUser(tn.admin, { role: 'driver' });
    await tourEnRoute(tn.admin, [booking.id], driver.id);
    const before = smtp.messages.length;
    await driveStop(driver.client, booking.stops[0].id, 'completed');
    await sweep();
    expect(smtp.messages.length).toBe(before);
    const [event] = await eventsOf(tn.admin, booking.id, 'booking.recipient_notification_due');
    expect(event.data).toMatchObject({ moment: 'on_its_way', email_sent: false, recipient: { email: null } });
  });
});

describe('the service area chooses the moments', () => {
  it('tells nothing where the area chose none (the default), and only the chosen moments elsewhere', async () => {
    const quiet = await scene({}, []);
    const onlyDelivered = await scene({}, ['delivered']);
    for (const s of [quiet, onlyDelivered]) await driveStop(s.driver.client, s.pickup.id, 'completed');
    await sweep();
    for (const s of [quiet, onlyDelivered]) await driveStop(s.driver.client, s.dropoff.id, 'completed');
    await sweep();
    expect(mailsTo(quiet.email)).toHaveLength(0);
    expect(await eventsOf(quiet.tn.admin, quiet.booking.id, 'booking.recipient_notification_due')).toHaveLength(0);
    expect(mailsTo(onlyDelivered.email).map((m) => /Subject: (.*)/.exec(m)![1]!.trim())).toEqual(['Your delivery has arrived']);
  });

  it('shows and changes the choice on the service area', async () => {
    const tn = await t.createTenant();
    const area = await createServiceArea(tn.admin);
    expect(area.recipient_notifications).toEqual([]);
    const res = await tn.admin.patch(`/api/admin/service_areas/${area.id}`, { service_area: { recipient_notifications: ['delivered'] } });
    expect(res.status).toBe(200);
    expect(res.body.service_area.recipient_notifications).toEqual(['delivered']);
    const bad = await tn.admin.patch(`/api/admin/service_areas/${area.id}`, { service_area: { recipient_notifications: ['sometimes'] } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].pointer).toBe('/service_area/recipient_notifications/0');
  });
});

describe('recipient e-mails under concurrency', () => {
  it('two sweeps at once tell a moment once (the notifications key decides)', async () => {
    const s = await scene();
    await driveStop(s.driver.client, s.pickup.id, 'completed');
    const counts = await Promise.all([notifyRecipients(t.deps), notifyRecipients(t.deps), notifyRecipients(t.deps)]);
    await worker.drain();
    expect(mailsTo(s.email)).toHaveLength(1);
    expect(counts.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(1);
    expect(await eventsOf(s.tn.admin, s.booking.id, 'booking.recipient_notification_due')).toHaveLength(1);
  });
});
