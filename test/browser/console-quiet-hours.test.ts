// A service area's SMS quiet hours (contract §18, decision 1772) in the console's Settings › Service areas, in Chromium
// through the real server, as an admin sets them: 21:00–08:00 typed at the keyboard and saved, still there after a
// reload; the same time twice refused at its field in the API's words, and one time without the other refused by the
// page, with nothing saved either way; "No quiet hours" clears them and saves null. axe-clean; English and German on a
// laptop and a phone, photographed.
import type { Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceArea, createUser, expectOk, type Client } from '../factories.ts';
import { axeViolations, openPage, PHONE, screenshot, signIn, startBrowserApp, type BrowserApp } from './harness.ts';

const PASSWORD = 'correct horse battery staple';
const LAPTOP = { width: 1366, height: 850 };

describe('SMS quiet hours in the console', () => {
  let app: BrowserApp;
  let admin: Client;
  let berlinId: string;
  const email = `settings-quiet-hours-${Date.now()}@example.com`;

  beforeAll(async () => {
    app = await startBrowserApp();
    const tenant = await app.t.createTenant();
    admin = tenant.admin;
    berlinId = (await createServiceArea(admin, { name: 'Berlin', time_zone: 'Europe/Berlin' })).id;
    // Already quiet at night, for the pictures of the list.
    await createServiceArea(admin, { name: 'Hamburg', time_zone: 'Europe/Berlin', sms_quiet_hours: { from: '22:00', to: '07:30' } });
    await createUser(admin, { role: 'admin', email, name: 'Ada Admin', password: PASSWORD });
  });
  afterAll(async () => {
    await app?.close();
  });

  /** The row's "SMS quiet hours" cell (Name, Currency, Time zone, Average speed, Auto-dispatch, Recipient e-mails, …): a laptop shows every column. */
  const quietCell = (row: Locator) => row.getByRole('cell').nth(6);
  const quietOf = async (id: string) => (await expectOk(admin.get(`/api/admin/service_areas/${id}`))).service_area.sms_quiet_hours;

  it('sets quiet hours 21:00–08:00 from the keyboard and keeps them over a reload; a bad pair is refused in words and nothing is saved; then clears them', async () => {
    const watched = await openPage(app, { locale: 'en-GB', viewport: LAPTOP });
    const { page } = watched;
    await signIn(page, app.url, email, PASSWORD);
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: 'Service areas' }).click();
    const table = page.getByRole('table', { name: 'Service areas' });
    const row = table.getByRole('row', { name: /^Berlin\b/ });
    expect(await table.getByRole('columnheader').nth(6).textContent()).toBe('SMS quiet hours');
    await expect.poll(() => quietCell(row).textContent()).toBe('None');
    expect(await quietCell(table.getByRole('row', { name: /^Hamburg\b/ })).textContent()).toBe('22:00–07:30');

    await row.getByRole('button', { name: 'Edit Berlin' }).click();
    const form = page.getByRole('dialog', { name: 'Edit Berlin' });
    const quiet = form.getByRole('group', { name: 'SMS quiet hours' });
    const from = quiet.getByLabel('From', { exact: true });
    const until = quiet.getByLabel('Until', { exact: true });
    expect(await quiet.getByRole('status').textContent()).toBe('None: SMS go out at any time.');
    const description = async (locator: Locator) => {
      const ids = (await locator.getAttribute('aria-describedby')) ?? '';
      const texts = await Promise.all(ids.split(' ').filter(Boolean).map((id) => page.locator(`[id="${id}"]`).textContent()));
      return texts.join(' ');
    };
    expect(await description(quiet)).toContain('Europe/Berlin');

    // One time without the other: the page says so at the empty one and sends nothing.
    await from.fill('21:00');
    let requests = 0;
    page.on('request', (request) => {
      if (request.method() === 'PATCH' && request.url().includes('/api/admin/service_areas/')) requests++;
    });
    await form.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => until.getAttribute('aria-invalid')).toBe('true');
    expect(await description(until)).toBe('Enter both times, or clear both for no quiet hours.');
    expect(await from.getAttribute('aria-invalid')).toBeNull();
    expect(requests).toBe(0);

    // The same time twice: the API's 422 at /service_area/sms_quiet_hours/to, in words at "Until".
    await until.fill('21:00');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => description(until)).toContain('must differ from the start time');
    expect(await until.getAttribute('aria-invalid')).toBe('true');
    expect(requests).toBe(1);
    // Shown at its field, not again in the banner above the form.
    expect(await form.getByRole('alert').textContent()).not.toContain('sms_quiet_hours');
    expect(await quietOf(berlinId)).toBeNull();
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'console-settings-quiet-hours-error-en-GB-1366');

    // Typed as a person types into a time field: the hours, the minutes, then "a" for AM where the browser's clock has
    // 12 hours (Chromium lays the field out in its own locale, not the page's; a 24-hour field ignores the "a").
    await until.fill('');
    await until.focus();
    await page.keyboard.type('0800a');
    expect(await until.inputValue()).toBe('08:00');
    expect(await quiet.getByRole('status').textContent()).toBe('');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    await expect.poll(() => quietCell(row).textContent()).toBe('21:00–08:00');
    expect(await quietOf(berlinId)).toEqual({ from: '21:00', to: '08:00' });

    await page.reload();
    await expect.poll(() => quietCell(row).textContent()).toBe('21:00–08:00');
    await row.getByRole('button', { name: 'Edit Berlin' }).click();
    expect(await from.inputValue()).toBe('21:00');
    expect(await until.inputValue()).toBe('08:00');
    await quiet.scrollIntoViewIfNeeded();
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'console-settings-quiet-hours-saved-en-GB-1366');

    // "No quiet hours" from the keyboard: both emptied, the button keeps the focus, and null is saved.
    const clear = quiet.getByRole('button', { name: 'No quiet hours' });
    await clear.focus();
    await page.keyboard.press('Enter');
    expect(await from.inputValue()).toBe('');
    expect(await until.inputValue()).toBe('');
    expect(await page.evaluate('document.activeElement?.textContent')).toBe('No quiet hours');
    expect(await quiet.getByRole('status').textContent()).toBe('None: SMS go out at any time.');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    await expect.poll(() => quietCell(row).textContent()).toBe('None');
    expect(await quietOf(berlinId)).toBeNull();
    watched.expectClean();
    await watched.context.close();
  });

  for (const { locale, viewport, mobile, size } of [
    { locale: 'en-GB', viewport: LAPTOP, mobile: false, size: '1366' },
    { locale: 'en-GB', viewport: PHONE, mobile: true, size: 'phone' },
    { locale: 'de-DE', viewport: LAPTOP, mobile: false, size: '1366' },
    { locale: 'de-DE', viewport: PHONE, mobile: true, size: 'phone' },
  ] as const) {
    it(`shows the list and the form in ${locale} at ${size}, axe-clean`, async () => {
      const de = locale === 'de-DE';
      const watched = await openPage(app, { locale, viewport, mobile });
      const { page } = watched;
      await page.goto(`${app.url}/console/settings/service-areas`);
      await page.getByLabel(de ? 'E-Mail' : 'Email').fill(email);
      await page.getByLabel(de ? 'Passwort' : 'Password').fill(PASSWORD);
      await page.getByRole('button', { name: de ? 'Anmelden' : 'Sign in' }).click();
      const row = page.getByRole('table', { name: de ? 'Liefergebiete' : 'Service areas' }).getByRole('row', { name: /^Hamburg\b/ });
      // A phone leaves the column out (like the speed and the moments); the form shows the hours.
      if (!mobile) await expect.poll(() => quietCell(row).textContent()).toBe('22:00–07:30');
      else await expect.poll(() => row.count()).toBe(1);
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, `console-settings-quiet-hours-list-${locale}-${size}`);

      await row.getByRole('button', { name: de ? 'Hamburg bearbeiten' : 'Edit Hamburg' }).click();
      const quiet = page.getByRole('dialog').getByRole('group', { name: de ? 'SMS-Ruhezeiten' : 'SMS quiet hours' });
      expect(await quiet.getByLabel(de ? 'Von' : 'From', { exact: true }).inputValue()).toBe('22:00');
      expect(await quiet.getByLabel(de ? 'Bis' : 'Until', { exact: true }).inputValue()).toBe('07:30');
      if (de) {
        // The API's words come back in German too (Accept-Language).
        await quiet.getByLabel('Bis', { exact: true }).fill('22:00');
        await page.getByRole('dialog').getByRole('button', { name: 'Speichern' }).click();
        await expect.poll(() => quiet.getByText('muss sich von der Anfangszeit unterscheiden', { exact: false }).count()).toBe(1);
      }
      await quiet.scrollIntoViewIfNeeded();
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, `console-settings-quiet-hours-form-${locale}-${size}`);
      watched.expectClean();
      await watched.context.close();
    });
  }
});
