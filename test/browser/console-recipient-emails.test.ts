// The console's Recipient e-mails settings in Chromium through the real server, as an admin uses them: the German
// "scheduled" e-mail edited with a live preview (a wrong placeholder shown at its field), saved, the moment set off,
// and the e-mail the SMTP peer receives carries the edited text; then reset to the default. The service area form
// chooses the moments and the minutes. axe-clean, English and German, laptop and phone, photographed.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBooking, createService, createServiceArea, createUser, expectOk, mergeIntoTour, type Client } from '../factories.ts';
import { startSmtpPeer, type SmtpPeer } from '../smtp-peer.ts';
import { createWorker, type Worker } from '../../src/worker/loop.ts';
import { notifyRecipients } from '../../src/modules/tracking/notify.ts';
import { axeViolations, openPage, PHONE, screenshot, signIn, startBrowserApp, type BrowserApp } from './harness.ts';

const PASSWORD = 'correct horse battery staple';

describe('recipient e-mails in the console', () => {
  let app: BrowserApp;
  let smtp: SmtpPeer;
  let worker: Worker;
  let admin: Client;
  let areaId: string;
  let serviceId: string;
  const email = `settings-recipients-${Date.now()}@example.com`;

  beforeAll(async () => {
    smtp = await startSmtpPeer();
    app = await startBrowserApp({ smtpUrl: smtp.url, mailFrom: 'Tourbook <dispatch@tourbook.test>', reportsMasterKey: randomBytes(32).toString('base64'), publicUrl: 'https://track.example' });
    worker = createWorker(app.t.deps);
    const tenant = await app.t.createTenant();
    admin = tenant.admin;
    const area = await createServiceArea(admin, { name: 'Berlin' });
    areaId = area.id;
    serviceId = (await createService(admin, { service_area_id: area.id, name: 'Same day' })).id;
    await createUser(admin, { role: 'admin', email, name: 'Ada Admin', password: PASSWORD });
  });
  afterAll(async () => {
    await worker?.stop();
    await app?.close();
    await smtp?.close();
  });

  it('chooses the moments on the service area, edits the German e-mail with a live preview, and the e-mail sent carries it', async () => {
    const watched = await openPage(app);
    const { page } = watched;
    await signIn(page, app.url, email, PASSWORD);
    await page.getByRole('link', { name: 'Settings' }).click();
    const sections = page.getByRole('navigation', { name: 'Settings sections' });

    // The service area sends "scheduled" e-mails, "arriving soon" from 15 minutes.
    await sections.getByRole('link', { name: 'Service areas' }).click();
    await page.getByRole('button', { name: 'Edit Berlin' }).click();
    const form = page.getByRole('dialog', { name: 'Edit Berlin' });
    await form.getByRole('checkbox', { name: 'Scheduled (on a tour)' }).check();
    await form.getByRole('checkbox', { name: 'Arriving soon (ETA within the minutes set)' }).check();
    await form.getByLabel('“Arriving soon” from (minutes before the ETA)').fill('15');
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'console-settings-service-area-recipients-en-GB-1366');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    await expect.poll(() => page.getByRole('table', { name: 'Service areas' }).getByText('Scheduled (on a tour), Arriving soon (ETA within the minutes set)').count()).toBe(1);
    const area = (await expectOk(admin.get(`/api/admin/service_areas/${areaId}`))).service_area;
    expect(area).toMatchObject({ recipient_notifications: ['dispatched', 'approaching'], recipient_approaching_minutes: 15 });

    // The German "scheduled" e-mail: Tourbook's text first, then the tenant's own.
    await sections.getByRole('link', { name: 'Recipient e-mails' }).click();
    await page.getByLabel('Moment').selectOption({ label: 'Scheduled (on a tour)' });
    // By keyboard: the language select takes the arrow keys.
    await page.getByLabel('E-mail language').focus();
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => page.getByLabel('E-mail language').inputValue()).toBe('de');
    await expect.poll(() => page.getByLabel('Subject', { exact: true }).inputValue()).toBe('Ihre Lieferung ist eingeplant');
    await expect.poll(() => page.getByText('Tourbook’s default text').count()).toBe(1);
    const preview = page.getByRole('region', { name: 'Preview' });
    await expect.poll(() => preview.locator('[data-preview="subject"]').textContent()).toBe('Ihre Lieferung ist eingeplant');

    await page.getByLabel('Subject', { exact: true }).fill('Ihre Lieferung kommt, {{name}}');
    // A placeholder this moment does not offer: the API's message shows at the field, the preview waits.
    await page.getByLabel('Text', { exact: true }).fill('Hallo {{name}},\nIhre Sendung kommt gegen {{eta}}.\nVerfolgen: {{tracking_url}}');
    await expect.poll(() => page.getByText(/Unknown placeholder \{\{eta\}\}/).count()).toBe(1);
    await expect.poll(() => preview.getByText('Correct the text to see the preview.').count()).toBe(1);
    await page.getByLabel('Text', { exact: true }).fill('Hallo {{name}},\nIhre Sendung kommt {{window}}.\nVerfolgen: {{tracking_url}}');
    await expect.poll(() => preview.locator('[data-preview="subject"]').textContent()).toBe('Ihre Lieferung kommt, Erika Mustermann');
    const shown = await preview.locator('[data-preview="text"]').textContent();
    expect(shown).toMatch(/^Hallo Erika Mustermann,\nIhre Sendung kommt .+ UTC – .+ UTC\.\nVerfolgen: https:\/\/track\.example\/track\/sample\n/);
    expect(shown).toContain('Keine Liefer-E-Mails mehr an diese Adresse'); // the footer Tourbook adds
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'console-settings-recipient-emails-en-GB-1366');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Saved.' }).count()).toBe(1);
    await expect.poll(() => page.getByText('Your own text').count()).toBe(1);

    // The moment: a German recipient's drop-off put on a tour.
    const to = `erika.${randomBytes(4).toString('hex')}@example.com`;
    const booking = await createBooking(admin, {
      service_id: serviceId,
      stops: [
        { type: 'pickup', location: { lat: 52.5, lng: 13.4 }, address: { street: 'Chausseestraße', number: '1', city: 'Berlin' } },
        {
          type: 'dropoff',
          location: { lat: 52.51, lng: 13.41 },
          address: { street: 'Torstraße', number: '2', city: 'Berlin' },
          time_window: { starts_at: '2026-06-02T12:00:00Z', ends_at: '2026-06-02T14:00:00Z' },
          contact: { name: 'Erika Gabler', email: to, locale: 'de' },
        },
      ],
    });
    await mergeIntoTour(admin, [booking.id]);
    await notifyRecipients(app.t.deps);
    await worker.drain();
    const mails = smtp.messages.filter((m) => m.to.includes(to));
    expect(mails).toHaveLength(1);
    const raw = mails[0]!.raw.replace(/=\r?\n/g, '').replace(/(?:=[0-9A-F]{2})+/g, (run) => Buffer.from(run.replace(/=/g, ''), 'hex').toString('utf8'));
    expect(raw).toContain('Subject: Ihre Lieferung kommt, Erika Gabler');
    expect(raw).toContain('Hallo Erika Gabler,');
    expect(raw).toMatch(/Ihre Sendung kommt Di\.?,? 14:00 (MESZ|GMT\+2) – Di\.?,? 16:00 (MESZ|GMT\+2)\./);
    expect(raw).toContain('Verfolgen: https://track.example/track/');

    // Back to Tourbook's text.
    await page.getByRole('button', { name: 'Reset to default' }).click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'The default text applies again.' }).count()).toBe(1);
    await expect.poll(() => page.getByLabel('Subject', { exact: true }).inputValue()).toBe('Ihre Lieferung ist eingeplant');
    await expect.poll(() => page.getByText('Tourbook’s default text').count()).toBe(1);
    expect((await expectOk(admin.get('/api/admin/recipient_templates/dispatched/de'))).recipient_template.customized).toBe(false);
    watched.expectClean();
    await watched.context.close();
  });

  it('reads well in German on a phone: the subject typed, the preview following', async () => {
    const watched = await openPage(app, { locale: 'de-DE', viewport: PHONE, mobile: true });
    const { page } = watched;
    await page.goto(`${app.url}/console`);
    await page.getByLabel('E-Mail').fill(email);
    await page.getByLabel('Passwort').fill(PASSWORD);
    await page.getByRole('button', { name: 'Anmelden' }).click();
    await expect.poll(() => page.getByRole('link', { name: 'Einstellungen' }).count()).toBe(1);
    await page.goto(`${app.url}/console/settings/recipient-emails`);
    await expect.poll(() => page.getByRole('heading', { name: 'Empfänger-E-Mails' }).count()).toBe(1);
    // The subject typed at its end; the preview follows.
    await page.getByLabel('Anlass').selectOption('failed');
    await expect.poll(() => page.getByLabel('Sprache der E-Mail').inputValue()).toBe('de'); // the page's language first
    await page.getByLabel('Betreff', { exact: true }).focus();
    await page.keyboard.press('End');
    await page.keyboard.type(' – {{name}}');
    const preview = page.getByRole('region', { name: 'Vorschau' });
    await expect.poll(() => preview.locator('[data-preview="subject"]').textContent()).toBe('Wir konnten heute nicht zustellen – Erika Mustermann');
    await page.waitForLoadState('networkidle');
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'console-settings-recipient-emails-de-DE-390');
    watched.expectClean();
    await watched.context.close();
  });
});
