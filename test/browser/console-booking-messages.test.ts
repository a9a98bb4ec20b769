// The booking page's recipient messages in Chromium through the real server (contract §18): a booking whose recipient
// got an e-mail and two SMS — one delivered, one refused by the carrier with its answer shown — and one that got none
// (the empty state in words); English and German, laptop and phone, times on the area's clock, axe-clean.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBooking, createService, createServiceArea, createUser, driveStop, expectOk, tourEnRoute, type Client } from '../factories.ts';
import { startSmtpPeer, type SmtpPeer } from '../smtp-peer.ts';
import { createWorker, type Worker } from '../../src/worker/loop.ts';
import { notifyRecipients } from '../../src/modules/tracking/notify.ts';
import { axeViolations, LAPTOP, openPage, PHONE, screenshot, startBrowserApp, type BrowserApp } from './harness.ts';

const PASSWORD = 'correct horse battery staple';
const secret = randomBytes(18).toString('base64url');

describe('the booking page’s messages in a browser', () => {
  let app: BrowserApp;
  let smtp: SmtpPeer;
  let kannel: http.Server;
  let worker: Worker;
  let admin: Client;
  let told: string;
  let quiet: string;
  const email = `booking-messages-${Date.now()}@example.com`;

  beforeAll(async () => {
    kannel = http.createServer((_req, res) => res.writeHead(202, { 'content-type': 'text/html' }).end('0: Accepted for delivery'));
    await new Promise<void>((resolve) => kannel.listen(0, '127.0.0.1', resolve));
    smtp = await startSmtpPeer();
    app = await startBrowserApp({
      smtpUrl: smtp.url,
      reportsMasterKey: randomBytes(32).toString('base64'),
      publicUrl: 'https://track.example',
      sms: { provider: 'kannel', url: `http://127.0.0.1:${(kannel.address() as AddressInfo).port}/cgi-bin/sendsms`, username: 'tourbook', password: 'pw', from: 'Tourbook', callbackSecret: secret, timeoutMs: 5000 },
    });
    worker = createWorker(app.t.deps);
    const tenant = await app.t.createTenant();
    admin = tenant.admin;
    const area = await createServiceArea(admin, { name: 'Berlin', time_zone: 'Europe/Berlin', recipient_notifications: ['dispatched', 'on_its_way'] });
    const service = await createService(admin, { service_area_id: area.id });
    await createUser(admin, { role: 'admin', email, name: 'Ada Admin', password: PASSWORD });
    const stops = [
      { type: 'pickup', location: { lat: 52.5, lng: 13.4 }, address: { street: 'Chausseestraße', number: '1', city: 'Berlin' } },
      { type: 'dropoff', location: { lat: 52.51, lng: 13.41 }, address: { street: 'Torstraße', number: '2', city: 'Berlin' }, contact: { name: 'Grace Hopper', email: 'grace@example.com', phone_number: '+4915112345678' } },
    ];
    const booking = await createBooking(admin, { service_id: service.id, external_id: 'NACHRICHT-1', stops });
    told = booking.id;
    quiet = (await createBooking(admin, { service_id: service.id, external_id: 'STILL-1' })).id;
    const driver = await createUser(admin, { role: 'driver' });
    // 08:00 UTC is 10:00 in Berlin: the page shows the area's clock, the browser runs on UTC.
    await tourEnRoute(admin, [booking.id], driver.id);
    await notifyRecipients(app.t.deps); // dispatched: an e-mail and an SMS
    await worker.drain();
    app.t.clock.advance(60_000);
    await driveStop(driver.client, (booking.stops as { id: string }[])[0]!.id, 'completed'); // heading to the drop-off next
    await notifyRecipients(app.t.deps); // on its way: another e-mail and SMS
    await worker.drain();
    const sms = (await expectOk(admin.get(`/api/hailing/bookings/${told}/messages`))).messages.filter((m: { channel: string }) => m.channel === 'sms');
    expect(sms).toHaveLength(2);
    const receipt = async (id: string, type: number, answer: string) =>
      expect((await fetch(`${app.url}/api/sms/kannel/status?secret=${secret}&tenant=${tenant.tenantId}&message=${id}&type=${type}&answer=${encodeURIComponent(answer)}`)).status).toBe(204);
    await receipt(sms[0].id, 1, '');
    await receipt(sms[1].id, 2, 'Absent subscriber');
  }, 120_000);
  afterAll(async () => {
    await worker?.stop();
    await app?.close();
    await smtp?.close();
    kannel?.closeAllConnections();
    await new Promise((resolve) => kannel?.close(resolve));
  });

  const cases = [
    { locale: 'en-GB', heading: 'Messages to the recipient', signInLabels: ['Email', 'Password', 'Sign in', 'Sign out'], texts: ['E-mail · Scheduled', 'SMS · Scheduled', 'SMS · On its way', 'Delivered to the phone', 'Why: Not delivered: Absent subscriber', 'To +4915112345678', 'To grace@example.com'], none: 'No e-mail or SMS has been sent to the recipient of this booking yet.' },
    { locale: 'de-DE', heading: 'Nachrichten an die Empfänger', signInLabels: ['E-Mail', 'Passwort', 'Anmelden', 'Abmelden'], texts: ['E-Mail · Eingeplant', 'SMS · Eingeplant', 'SMS · Unterwegs', 'Auf dem Telefon angekommen', 'Grund: Not delivered: Absent subscriber', 'An +4915112345678', 'An grace@example.com'], none: 'An die Empfänger dieser Buchung wurde noch keine E-Mail und keine SMS gesendet.' },
  ] as const;

  for (const c of cases) {
    it(`shows every e-mail and SMS with its state and the carrier's refusal, in ${c.locale}, on a laptop and a phone`, { timeout: 180_000 }, async () => {
      for (const viewport of [LAPTOP, PHONE]) {
        const watched = await openPage(app, { locale: c.locale, viewport, timezoneId: 'UTC' });
        const { page } = watched;
        const [emailLabel, passwordLabel, signInButton, signOutButton] = c.signInLabels;
        await page.goto(`${app.url}/console`);
        await page.getByLabel(emailLabel).fill(email);
        await page.getByLabel(passwordLabel).fill(PASSWORD);
        await page.getByRole('button', { name: signInButton }).click();
        await page.getByRole('button', { name: signOutButton }).waitFor({ timeout: 20_000 });
        await page.goto(`${app.url}/console/bookings/${told}`);
        const region = page.getByRole('region', { name: c.heading });
        await expect.poll(() => region.getByRole('listitem').count(), { timeout: 30_000 }).toBe(4);
        for (const text of c.texts) expect(await region.getByText(text, { exact: false }).count(), text).toBeGreaterThan(0);
        expect(await region.getByRole('note').count()).toBe(1);
        const shown = await region.innerText();
        expect(shown).toMatch(/10:0[01]/); // the area's clock, not the browser's (08:00 UTC)
        expect(shown).not.toMatch(/\bqueued\b|on_its_way|\b(status|moment|channel)\.|\bdispatched\b/); // labels, never keys
        await page.waitForLoadState('networkidle');
        expect(await axeViolations(page), `messages ${c.locale} ${viewport.width}`).toEqual([]);
        await screenshot(page, `console-booking-messages-${c.locale}-${viewport.width}`);

        await page.goto(`${app.url}/console/bookings/${quiet}`);
        await expect.poll(() => page.getByRole('region', { name: c.heading }).getByText(c.none).count(), { timeout: 30_000 }).toBe(1);
        expect(await axeViolations(page), `no messages ${c.locale} ${viewport.width}`).toEqual([]);
        if (viewport === PHONE) await screenshot(page, `console-booking-messages-none-${c.locale}-${viewport.width}`);
        watched.expectClean();
        await watched.context.close();
      }
    });
  }
});
