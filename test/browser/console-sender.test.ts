// The console's Sender settings in Chromium through the real server, as an admin sets them up: a From address the mail
// server may not send for is refused at its field in words, the corrected form saves, the logo is uploaded from a file
// and shown, and the recipient's tracking page then names the sender with that logo. A manager sees no Sender
// section. axe-clean, English on a laptop and German on a phone, photographed.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBooking, createService, createServiceArea, createUser, expectOk, type Client } from '../factories.ts';
import { pngImage } from '../proof-images.ts';
import { axeViolations, LAPTOP, openPage, PHONE, screenshot, signIn, startBrowserApp, type BrowserApp } from './harness.ts';

const PASSWORD = 'correct horse battery staple';

describe('the sender in the console', () => {
  let app: BrowserApp;
  let admin: Client;
  let serviceId: string;
  let dir: string;
  const email = `settings-sender-${Date.now()}@example.com`;
  const managerEmail = `settings-sender-manager-${Date.now()}@example.com`;

  beforeAll(async () => {
    app = await startBrowserApp({ mailFrom: 'Tourbook <dispatch@tourbook.test>', mailSenderDomains: ['spree-kurier.de'], reportsMasterKey: randomBytes(32).toString('base64') });
    const tenant = await app.t.createTenant();
    admin = tenant.admin;
    const area = await createServiceArea(admin, { name: 'Berlin' });
    serviceId = (await createService(admin, { service_area_id: area.id })).id;
    await createUser(admin, { role: 'admin', email, name: 'Ada Admin', password: PASSWORD });
    await createUser(admin, { role: 'manager', email: managerEmail, name: 'Max Manager', password: PASSWORD });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tourbook-sender-'));
  });
  afterAll(async () => {
    await app?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a From outside the mail domains at its field, saves the corrected sender and its logo, and the tracking page shows them', async () => {
    const watched = await openPage(app, { locale: 'en-GB', viewport: LAPTOP });
    const { page } = watched;
    await signIn(page, app.url, email, PASSWORD);
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: 'Sender' }).click();
    await expect.poll(() => page.getByText('E-mails: ', { exact: false }).textContent()).toMatch(/^E-mails: ".+" <dispatch@tourbook\.test>$/);

    await page.getByLabel('Name', { exact: true }).fill('Spree Kurier');
    await page.getByLabel('Colour').fill('#0b7a3e');
    await page.getByLabel('E-mail sender address').fill('versand@elsewhere.example');
    await page.getByLabel('Reply address').fill('kundenservice@spree-kurier.de');
    await page.getByLabel('SMS sender').fill('SpreeKurier');
    await page.getByRole('button', { name: 'Save' }).click();
    const from = page.getByLabel('E-mail sender address');
    await expect.poll(() => from.getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByText(/The mail server sends only for spree-kurier\.de/).count()).toBeGreaterThan(0);
    expect((await expectOk(admin.get('/api/admin/sender'))).sender.name).toBeNull();
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'console-settings-sender-error-en-GB-1366');

    await from.fill('versand@spree-kurier.de');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Sender saved.' }).count()).toBe(1);
    expect(await page.getByText('E-mails: "Spree Kurier" <versand@spree-kurier.de>').count()).toBe(1);
    expect(await page.getByText('SMS: ', { exact: false }).count()).toBe(1);

    const file = path.join(dir, 'logo.png');
    fs.writeFileSync(file, pngImage(120, 40, [11, 122, 62], 'SK'));
    await page.getByLabel('Choose a logo').setInputFiles(file);
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Logo saved.' }).count()).toBe(1);
    await expect.poll(() => page.evaluate("(() => { const img = document.querySelector('img.sender-logo'); return img && img.complete ? img.naturalWidth : 0; })()")).toBe(120);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'console-settings-sender-en-GB-1366');
    const sender = (await expectOk(admin.get('/api/admin/sender'))).sender;
    expect(sender).toMatchObject({ name: 'Spree Kurier', color: '#0b7a3e', email_from: 'versand@spree-kurier.de', reply_to: 'kundenservice@spree-kurier.de', sms_sender_id: 'SpreeKurier' });

    // The recipient's page now says who sends, with the logo just uploaded.
    const booking = await createBooking(admin, { service_id: serviceId });
    const link = new URL((await expectOk(admin.get(`/api/hailing/bookings/${booking.id}`))).booking.tracking.url).pathname;
    await page.goto(`${app.url}${link}`);
    await expect.poll(() => page.getByText('From Spree Kurier').count()).toBe(1);
    await expect.poll(() => page.evaluate("(() => { const img = document.querySelector('img.track-logo'); return img && img.complete ? img.naturalWidth : 0; })()")).toBe(120);
    watched.expectClean();
    await watched.context.close();
  });

  it('reads in German on a phone, and a manager is offered no Sender section', async () => {
    const watched = await openPage(app, { locale: 'de-DE', viewport: PHONE, mobile: true });
    const { page } = watched;
    await page.goto(`${app.url}/console/settings/sender`);
    await page.getByLabel('E-Mail').fill(email);
    await page.getByLabel('Passwort').fill(PASSWORD);
    await page.getByRole('button', { name: 'Anmelden' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Absender', level: 2 }).count()).toBe(1);
    await expect.poll(() => page.getByLabel('Absenderadresse der E-Mails').count()).toBe(1);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'console-settings-sender-de-DE-phone');
    await watched.context.close();

    const manager = await openPage(app, { locale: 'en-GB', viewport: LAPTOP });
    await signIn(manager.page, app.url, managerEmail, PASSWORD);
    await manager.page.getByRole('link', { name: 'Settings' }).click();
    await expect.poll(() => manager.page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link').count()).toBeGreaterThan(0);
    expect(await manager.page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: 'Sender' }).count()).toBe(0);
    manager.expectClean();
    await manager.context.close();
  });
});
