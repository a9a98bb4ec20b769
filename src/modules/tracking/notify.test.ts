import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/app.ts';
import { createBooking, createService, createServiceArea, createUser, driveStop, eventsOf, expectOk, mergeIntoTour, tourEnRoute } from '../../../test/factories.ts';
import { startSmtpPeer, type ReceivedMail, type SmtpPeer } from '../../../test/smtp-peer.ts';
import { createWorker, type Worker } from '../../worker/loop.ts';
import { ensureRecipientNotifications } from './index.ts';
import { NOTIFY_WAKE_DELAY_MS, notifyRecipients } from './notify.ts';

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

/** The message as a reader sees it: header lines unfolded, quoted-printable undone (as UTF-8). */
const decoded = (mail: ReceivedMail): string =>
  mail.raw
    .replace(/\r?\n[ \t]+/g, ' ')
    .replace(/=\r?\n/g, '')
    .replace(/(?:=[0-9A-F]{2})+/g, (run) => Buffer.from(run.replace(/=/g, ''), 'hex').toString('utf8'));
const mailsTo = (address: string) => smtp.messages.filter((m) => m.to.includes(address)).map(decoded);
const unique = (name: string) => `${name}.${randomBytes(4).toString('hex')}@example.com`;

/** A booking whose drop-off has the recipient's contact, on an en-route tour; the driver has not left the pickup yet. */
const ALL_MOMENTS = ['on_its_way', 'delivered', 'failed'];

async function scene(contact: { email?: string; name?: string; locale?: 'en' | 'de' } = {}, moments: string[] = ALL_MOMENTS, areaFields: Record<string, unknown> = {}) {
  const tn = await t.createTenant();
  const area = await createServiceArea(tn.admin, { time_zone: 'Europe/Berlin', recipient_notifications: moments, ...areaFields });
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
  return { tn, area, booking, tour, driver, pickup: pickup!, dropoff: dropoff!, email, trackingUrl: tracking.url };
}

/**
 * The driver's position `minutes` later (live tracking estimates the tour's ETAs from it; a jump faster than a vehicle
 * drives is not taken as the position), then the jobs it queued.
 */
async function driverAt(s: { driver: { client: TestApp['anonymous'] }; tour: { id: string } }, lat: number, minutes = 1): Promise<void> {
  t.clock.advance(minutes * 60_000);
  await expectOk(s.driver.client.post(`/api/hailing/tours/${s.tour.id}/driver_location`, { location: { lat, lng: 13.4, recorded_at: t.clock.now().toISOString() } }));
  await worker.drain();
}

const subjectsOf = (mails: string[]) => mails.map((m) => /Subject: (.*)/.exec(m)![1]!.trim());

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
    expect(event.data).toMatchObject({ moment: 'on_its_way', email_sent: false, email_not_sent: 'no_address', recipient: { email: null } });
  });
});

describe('a recipient address that is not one valid mailbox (issue 35, decision 1622)', () => {
  it.each(['ada at example.com', 'ada@', 'ada@example.com, eve@example.com'])('hands nothing to SMTP for %j and records why on the event', async (address) => {
    // Stored before e-mails were checked at input (contract §14 refuses such an address now): written past the API.
    const s = await scene();
    await t.deps.db.execute(sql`UPDATE stops SET contact = jsonb_set(contact, '{email}', to_jsonb(${address}::text)) WHERE tenant_id = ${s.tn.tenantId} AND id = ${s.dropoff.id}`);
    const before = smtp.messages.length;
    await driveStop(s.driver.client, s.pickup.id, 'completed');
    await sweep();
    expect(smtp.messages.length).toBe(before);
    const [event] = await eventsOf(s.tn.admin, s.booking.id, 'booking.recipient_notification_due');
    expect(event.data).toMatchObject({ moment: 'on_its_way', email_sent: false, email_not_sent: 'invalid_address' });
  });

  it('records email_not_sent null when the e-mail went', async () => {
    const s = await scene();
    await driveStop(s.driver.client, s.pickup.id, 'completed');
    await sweep();
    const [event] = await eventsOf(s.tn.admin, s.booking.id, 'booking.recipient_notification_due');
    expect(event.data).toMatchObject({ email_sent: true, email_not_sent: null });
    expect(mailsTo(s.email)).toHaveLength(1);
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

  it('three sweeps at once tell "dispatched" and then "approaching" once each', async () => {
    const s = await scene({}, ['dispatched', 'approaching'], { average_speed_kmh: 36 });
    await driverAt(s, 52.42); // far: on a tour, not approaching yet
    await Promise.all([notifyRecipients(t.deps), notifyRecipients(t.deps), notifyRecipients(t.deps)]);
    await worker.drain();
    await driverAt(s, 52.495, 15);
    await Promise.all([notifyRecipients(t.deps), notifyRecipients(t.deps), notifyRecipients(t.deps)]);
    await worker.drain();
    expect(subjectsOf(mailsTo(s.email))).toEqual(['Your delivery is scheduled', 'Your delivery arrives soon']);
    expect((await eventsOf(s.tn.admin, s.booking.id, 'booking.recipient_notification_due')).map((e) => e.data.moment)).toEqual(['dispatched', 'approaching']);
  });
});

describe('dispatched and approaching (decision 1108)', () => {
  it('tells "dispatched" once the drop-off is on a tour, with its window in the area’s zone, and never again for that stop', async () => {
    const tn = await t.createTenant();
    const area = await createServiceArea(tn.admin, { time_zone: 'Europe/Berlin', recipient_notifications: ['dispatched'] });
    const service = await createService(tn.admin, { service_area_id: area.id });
    const email = unique('window');
    const window = { starts_at: '2026-06-02T12:00:00Z', ends_at: '2026-06-02T14:00:00Z' };
    const booking = await createBooking(tn.admin, {
      service_id: service.id,
      stops: [
        { type: 'pickup', location: { lat: 52.5, lng: 13.4 }, address: { street: 'Chausseestraße', number: '1', city: 'Berlin' } },
        { type: 'dropoff', location: { lat: 52.51, lng: 13.41 }, address: { street: 'Torstraße', number: '2', city: 'Berlin' }, time_window: window, contact: { name: 'Grace Hopper', email } },
      ],
    });
    await sweep();
    expect(mailsTo(email)).toHaveLength(0); // not on a tour yet
    await mergeIntoTour(tn.admin, [booking.id]);
    await sweep();
    await sweep();
    const [mail, ...more] = mailsTo(email);
    expect(more).toHaveLength(0);
    expect(mail).toContain('Subject: Your delivery is scheduled');
    // 12:00–14:00 UTC is 14:00–16:00 in Berlin in June.
    expect(mail).toMatch(/Time window: \w+,? 14:00 (CEST|GMT\+2) – \w+,? 16:00 (CEST|GMT\+2)\./);
    const tracking = (await expectOk(tn.admin.get(`/api/hailing/bookings/${booking.id}`))).booking.tracking as { url: string };
    expect(mail).toContain(`Follow it live: ${tracking.url}`);

    // Moved to another tour: the same stop, not told again.
    const other = await createBooking(tn.admin, { service_id: service.id });
    const second = await mergeIntoTour(tn.admin, [other.id]);
    await expectOk(tn.admin.post(`/api/hailing/tours/${second.id}/stops/insert`, { stop_ids: booking.stops.map((st: { id: string }) => st.id) }));
    await sweep();
    expect(mailsTo(email)).toHaveLength(1);
    expect((await eventsOf(tn.admin, booking.id, 'booking.recipient_notification_due')).map((e) => e.data.moment)).toEqual(['dispatched']);
  });

  it('tells "approaching" once the ETA is within the area’s minutes, not before', async () => {
    const s = await scene({}, ['approaching'], { average_speed_kmh: 36, recipient_approaching_minutes: 10 });
    await driverAt(s, 52.42); // 9 km before the pickup: the drop-off about 20 minutes away
    await sweep();
    expect(mailsTo(s.email)).toHaveLength(0);
    await driverAt(s, 52.495, 15); // half a kilometre from the pickup, the drop-off a kilometre on
    await sweep();
    await sweep();
    const mails = mailsTo(s.email);
    expect(subjectsOf(mails)).toEqual(['Your delivery arrives soon']);
    expect(mails[0]).toMatch(/Expected around \w+,? \d\d:\d\d (CEST|GMT\+2)\./);
    expect((await eventsOf(s.tn.admin, s.booking.id, 'booking.recipient_notification_due')).map((e) => e.data.moment)).toEqual(['approaching']);
  });

  it('an area’s minutes decide: with 1 minute the same drop-off is not approaching yet', async () => {
    const s = await scene({}, ['approaching'], { average_speed_kmh: 36, recipient_approaching_minutes: 1 });
    await driverAt(s, 52.495);
    await sweep();
    expect(mailsTo(s.email)).toHaveLength(0);
  });

  it('tells only the later moment when "on its way" and "approaching" come true in one sweep, and never the earlier after', async () => {
    const s = await scene({}, ['on_its_way', 'approaching', 'delivered'], { average_speed_kmh: 36 });
    await driverAt(s, 52.5);
    await driveStop(s.driver.client, s.pickup.id, 'completed');
    await worker.drain();
    await sweep();
    await sweep();
    expect(subjectsOf(mailsTo(s.email))).toEqual(['Your delivery arrives soon']);
    await driveStop(s.driver.client, s.dropoff.id, 'completed');
    await sweep();
    expect(subjectsOf(mailsTo(s.email))).toEqual(['Your delivery arrives soon', 'Your delivery has arrived']);
  });

  it('keeps "on its way" for areas that chose it alone', async () => {
    const s = await scene({}, ['on_its_way'], { average_speed_kmh: 36 });
    await driverAt(s, 52.5);
    await driveStop(s.driver.client, s.pickup.id, 'completed');
    await worker.drain();
    await sweep();
    expect(subjectsOf(mailsTo(s.email))).toEqual(['Your delivery is on its way']);
  });

  it('says who took a delivery and that its photo is on the tracking page', async () => {
    const s = await scene({}, ['delivered']);
    await driveStop(s.driver.client, s.pickup.id, 'completed');
    await driveStop(s.driver.client, s.dropoff.id, 'arrived');
    await expectOk(s.driver.client.post(`/api/stops/${s.dropoff.id}/complete`, { proof: { recipient_name: 'A. Lovelace' } }));
    await sweep();
    const [mail] = mailsTo(s.email);
    expect(mail).toContain('Received by A. Lovelace.');
    expect(mail).not.toContain('A photo of the delivery'); // none was taken
  });

  it('validates the area’s minutes (1–120)', async () => {
    const tn = await t.createTenant();
    const area = await createServiceArea(tn.admin);
    expect(area.recipient_approaching_minutes).toBe(10);
    const bad = await tn.admin.patch(`/api/admin/service_areas/${area.id}`, { service_area: { recipient_approaching_minutes: 121 } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].pointer).toBe('/service_area/recipient_approaching_minutes');
    const ok = await expectOk(tn.admin.patch(`/api/admin/service_areas/${area.id}`, { service_area: { recipient_approaching_minutes: 5, recipient_notifications: ['dispatched', 'approaching'] } }));
    expect(ok.service_area).toMatchObject({ recipient_approaching_minutes: 5, recipient_notifications: ['dispatched', 'approaching'] });
  });
});

describe('recipient templates (decision 1109)', () => {
  const path = (moment: string, locale: string) => `/api/admin/recipient_templates/${moment}/${locale}`;
  const mine = { subject: 'Gleich da, {{name}}!', body: 'Hallo {{name}},\n\nunser Fahrer ist gleich bei Ihnen.\n\nHier live: {{tracking_url}}' };

  it('lists every moment in both languages with the defaults; admins override, preview and reset; the sweep sends the override', async () => {
    const tn = await t.createTenant();
    const list = await expectOk(tn.admin.get('/api/admin/recipient_templates'));
    expect(list.recipient_templates).toHaveLength(10);
    expect(list.recipient_templates.every((x: { customized: boolean }) => !x.customized)).toBe(true);
    expect(list.recipient_templates.find((x: { moment: string; locale: string }) => x.moment === 'on_its_way' && x.locale === 'de')).toMatchObject({
      subject: 'Ihre Lieferung ist unterwegs',
      placeholders: ['name', 'tracking_url', 'eta', 'window'],
      updated_at: null,
    });

    // A draft previewed: nothing saved, nothing sent.
    const before = smtp.messages.length;
    const draft = await expectOk(tn.admin.post(`${path('on_its_way', 'de')}/preview`, { recipient_template: mine }));
    expect(draft.preview.subject).toBe('Gleich da, Erika Mustermann!');
    expect(draft.preview.text).toMatch(/^Hallo Erika Mustermann,\n\nunser Fahrer ist gleich bei Ihnen\.\n\nHier live: http.*\/track\/sample$/);
    expect(draft.preview.email_text).toContain('Keine Liefer-E-Mails mehr an diese Adresse:');
    expect((await expectOk(tn.admin.get(path('on_its_way', 'de')))).recipient_template.customized).toBe(false);

    const saved = await expectOk(tn.admin.put(path('on_its_way', 'de'), { recipient_template: mine }));
    expect(saved.recipient_template).toMatchObject({ ...mine, customized: true, updated_at: t.clock.now().toISOString() });
    // The saved one previewed without a draft.
    expect((await expectOk(tn.admin.post(`${path('on_its_way', 'de')}/preview`))).preview.subject).toBe('Gleich da, Erika Mustermann!');
    expect(smtp.messages.length).toBe(before);

    // The sweep writes with it, and the event carries the same text.
    const area = await createServiceArea(tn.admin, { recipient_notifications: ['on_its_way'] });
    const service = await createService(tn.admin, { service_area_id: area.id });
    const email = unique('vorlage');
    const booking = await createBooking(tn.admin, {
      service_id: service.id,
      stops: [
        { type: 'pickup', location: { lat: 52.5, lng: 13.4 }, address: { street: 'Chausseestraße', number: '1', city: 'Berlin' } },
        { type: 'dropoff', location: { lat: 52.51, lng: 13.41 }, address: { street: 'Torstraße', number: '2', city: 'Berlin' }, contact: { name: 'Erika Gabler', email, locale: 'de' } },
      ],
    });
    const driver = await createUser(tn.admin, { role: 'driver' });
    await tourEnRoute(tn.admin, [booking.id], driver.id);
    await driveStop(driver.client, booking.stops[0].id, 'completed');
    await sweep();
    const [mail] = mailsTo(email);
    expect(mail).toContain('Subject: Gleich da, Erika Gabler!');
    expect(mail).toContain('unser Fahrer ist gleich bei Ihnen.');
    expect(mail).toContain('Keine Liefer-E-Mails mehr an diese Adresse: https://track.example/unsubscribe/'); // the footer stays
    const [event] = await eventsOf(tn.admin, booking.id, 'booking.recipient_notification_due');
    expect(event.data.subject).toBe('Gleich da, Erika Gabler!');
    expect(event.data.text).toContain('unser Fahrer ist gleich bei Ihnen.');

    // Reset: the default again.
    const reset = await expectOk(tn.admin.delete(path('on_its_way', 'de')));
    expect(reset.recipient_template).toMatchObject({ subject: 'Ihre Lieferung ist unterwegs', customized: false, updated_at: null });
    expect((await expectOk(tn.admin.delete(path('on_its_way', 'de')))).recipient_template.customized).toBe(false);
  });

  it('refuses unknown placeholders, a body without the tracking link and a two-line subject, with pointers (save and preview)', async () => {
    const tn = await t.createTenant();
    const unknownOne = await tn.admin.put(path('dispatched', 'en'), { recipient_template: { subject: 'Planned', body: 'At {{eta}}: {{tracking_url}}' } });
    expect(unknownOne.status).toBe(422);
    expect(unknownOne.body.errors).toEqual([expect.objectContaining({ pointer: '/recipient_template/body', code: 'unknown_placeholder' })]);
    const noLink = await tn.admin.put(path('failed', 'de'), { recipient_template: { subject: 'Leider', body: 'Wir versuchen es {{next_attempt}} erneut.' } }, { headers: { 'accept-language': 'de' } });
    expect(noLink.status).toBe(422);
    expect(noLink.body.errors).toEqual([expect.objectContaining({ pointer: '/recipient_template/body', code: 'missing_placeholder', detail: expect.stringContaining('Tracking-Link') })]);
    const twoLines = await tn.admin.post(`${path('delivered', 'en')}/preview`, { recipient_template: { subject: 'Here\nnow', body: '{{tracking_url}}' } });
    expect(twoLines.status).toBe(422);
    expect(twoLines.body.errors[0].pointer).toBe('/recipient_template/subject');
    const empty = await tn.admin.put(path('delivered', 'en'), { recipient_template: { subject: '', body: '{{tracking_url}}' } });
    expect(empty.status).toBe(422);
    expect(empty.body.errors[0].pointer).toBe('/recipient_template/subject');
    expect((await tn.admin.get(path('delivered', 'en'))).body.recipient_template.customized).toBe(false);
  });

  it('answers 404 for a moment or language that does not exist', async () => {
    const tn = await t.createTenant();
    for (const [moment, locale] of [['sometimes', 'en'], ['delivered', 'fr'], ['delivered', 'EN']]) {
      const res = await tn.admin.get(path(moment!, locale!));
      expect(res.status).toBe(404);
      expect(res.body.error_code).toBe('not_found');
      expect((await tn.admin.put(path(moment!, locale!), { recipient_template: mine })).status).toBe(404);
    }
  });

  it('admins write, managers read and preview, drivers and customers get 403; a tenant sees only its own', async () => {
    const tn = await t.createTenant();
    const other = await t.createTenant();
    await expectOk(other.admin.put(path('approaching', 'en'), { recipient_template: { subject: 'Soon!', body: '{{eta}} {{tracking_url}}' } }));
    const manager = await createUser(tn.admin, { role: 'manager' });
    const driver = await createUser(tn.admin, { role: 'driver' });
    const customer = await createUser(tn.admin, { role: 'customer' });
    expect((await expectOk(manager.client.get(path('approaching', 'en')))).recipient_template).toMatchObject({ subject: 'Your delivery arrives soon', customized: false });
    expect((await manager.client.post(`${path('approaching', 'en')}/preview`)).status).toBe(200);
    expect((await manager.client.put(path('approaching', 'en'), { recipient_template: mine })).status).toBe(403);
    expect((await manager.client.delete(path('approaching', 'en'))).status).toBe(403);
    for (const who of [driver, customer]) {
      expect((await who.client.get('/api/admin/recipient_templates')).status).toBe(403);
      expect((await who.client.post(`${path('approaching', 'en')}/preview`)).status).toBe(403);
      expect((await who.client.put(path('approaching', 'en'), { recipient_template: mine })).status).toBe(403);
    }
    expect((await t.anonymous.get('/api/admin/recipient_templates')).status).toBe(401);
    expect((await expectOk(other.admin.get(path('approaching', 'en')))).recipient_template.subject).toBe('Soon!');
  });
});

describe('the sweep woken by dispatch (decision 1787)', () => {
  it("a stop completed wakes its tenant's sweep, which tells the moment it made without waiting for the 30 s sweep", async () => {
    const s = await scene({ name: 'Ada Lovelace' });
    // Every sweep due so far runs; the periodic one is next due 30 s from now.
    t.clock.advance(31_000);
    await worker.drain();
    await driveStop(s.driver.client, s.pickup.id, 'completed');
    await worker.drain();
    expect(mailsTo(s.email)).toHaveLength(0); // the woken sweep is due shortly after the change, not at once
    t.clock.advance(NOTIFY_WAKE_DELAY_MS);
    await worker.drain();
    expect(subjectsOf(mailsTo(s.email))).toEqual(['Your delivery is on its way']);
  });
});
