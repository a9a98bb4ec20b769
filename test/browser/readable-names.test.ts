// Names a person reads (issue 37): the bookings list, the tours list, the dispatch board, Today and the driver app show
// tours by their driver's name and day (or the dispatcher's label), and statuses, failure reasons and event types as
// their labels in English and German — never a key such as `customer_absent`, `en_route` or `booking.created`.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBooking, createService, createServiceArea, createUser, driveStop, expectOk, tourEnRoute, type Client } from '../factories.ts';
import { axeViolations, LAPTOP, openPage, PHONE, screenshot, startBrowserApp, type BrowserApp } from './harness.ts';

const PASSWORD = 'correct horse battery staple';
/** A key as the API writes it: snake_case words (statuses, reasons, outcomes) or an event type (`entity.action`). */
const RAW_KEY = /\b[a-z]+(?:_[a-z]+)+\b|\b(?:booking|tour|stop|package|driver|webhook)\.[a-z_]+\b/g;

async function signInAs(page: Page, url: string, path: string, email: string, de: boolean): Promise<void> {
  await page.goto(`${url}${path}`);
  await page.getByLabel(de ? 'E-Mail' : 'Email').fill(email);
  await page.getByLabel(de ? 'Passwort' : 'Password').fill(PASSWORD);
  await page.getByRole('button', { name: de ? 'Anmelden' : 'Sign in' }).click();
  await page.getByRole('button', { name: de ? 'Abmelden' : 'Sign out' }).waitFor({ timeout: 20_000 });
}

/** The keys in the page's visible text once `ready` is on it. */
async function rawKeysOn(page: Page, ready: string): Promise<string[]> {
  await page.getByText(ready, { exact: false }).first().waitFor({ timeout: 30_000 });
  const text = await page.locator('body').innerText();
  return [...text.matchAll(RAW_KEY)].map((m) => m[0]);
}

describe('names a person reads', () => {
  let app: BrowserApp;
  let admin: Client;
  let adminEmail: string;
  let driverEmail: string;
  const driverName = 'Dario Fahrer';

  beforeAll(async () => {
    app = await startBrowserApp();
    const tenant = await app.t.createTenant();
    admin = tenant.admin;
    const area = await createServiceArea(admin, { name: 'Monaco', time_zone: 'Europe/Monaco', country_code: 'MC' });
    const service = await createService(admin, { service_area_id: area.id, name: 'Same day' });
    adminEmail = `names-admin-${Date.now()}@example.com`;
    driverEmail = `names-driver-${Date.now()}@example.com`;
    await createUser(admin, { role: 'admin', email: adminEmail, password: PASSWORD, name: 'Dora Dispatch' });
    const driver = await createUser(admin, { role: 'driver', email: driverEmail, password: PASSWORD, name: driverName });
    // A tour en route whose pickup failed (customer absent, to be attempted again), a booking waiting, a tour open.
    const failing = await createBooking(admin, { service_id: service.id, external_id: 'FAIL-1' });
    const running = await tourEnRoute(admin, [failing.id], driver.id);
    const pickup = running.stops.find((s: { type: string }) => s.type === 'pickup');
    await driveStop(driver.client, pickup.id, 'arrived');
    await expectOk(driver.client.post(`/api/stops/${pickup.id}/fail`, { outcome: 'reattempt_later', reason_key: 'customer_absent' }));
    await createBooking(admin, { service_id: service.id, external_id: 'WAIT-1' });
    const open = await createBooking(admin, { service_id: service.id, external_id: 'OPEN-1' });
    await expectOk(admin.post('/api/hailing/bookings/merge', { booking_ids: [open.id] }), 201);
  }, 120_000);
  afterAll(async () => app?.close());

  for (const de of [false, true]) {
    for (const viewport of [LAPTOP, PHONE]) {
      const lang = de ? 'de' : 'en';
      it(`shows no key on the bookings list, tours list, board, Today and in the driver app (${lang}, ${viewport.width} px)`, { timeout: 180_000 }, async () => {
        const watched = await openPage(app, { viewport, locale: de ? 'de-DE' : 'en-GB' });
        const { page } = watched;
        await signInAs(page, app.url, '/console', adminEmail, de);
        const pages: [path: string, ready: string][] = [
          ['/console/bookings', 'FAIL-1'],
          ['/console/tours', driverName],
          ['/console/dispatch', 'WAIT-1'],
          ['/console', 'FAIL-1'],
        ];
        for (const [path, ready] of pages) {
          await page.goto(`${app.url}${path}`);
          expect(await rawKeysOn(page, ready), `${path} (${lang})`).toEqual([]);
          expect(await axeViolations(page), `${path} (${lang})`).toEqual([]);
          await screenshot(page, `readable-names${path.replaceAll('/', '-')}-${lang}-${viewport.width}`);
        }
        // The tours list names the driver's tour by the driver, not by an id.
        await page.goto(`${app.url}/console/tours`);
        await page.getByText(driverName, { exact: false }).first().waitFor();
        expect(await page.locator('body').innerText()).not.toMatch(/Tour [0-9a-f]{8}\b/);
        watched.expectClean();
        await watched.context.close();

        const driverPage = await openPage(app, { viewport, locale: de ? 'de-DE' : 'en-GB' });
        await signInAs(driverPage.page, app.url, '/driver', driverEmail, de);
        expect(await rawKeysOn(driverPage.page, de ? 'Unterwegs' : 'En route'), `driver app (${lang})`).toEqual([]);
        await driverPage.page.getByRole('link', { name: de ? /^Tour .* öffnen$/ : /^Open tour/ }).first().click();
        expect(await rawKeysOn(driverPage.page, de ? 'Alle Touren' : 'All tours'), `driver tour (${lang})`).toEqual([]);
        expect(await axeViolations(driverPage.page)).toEqual([]);
        await screenshot(driverPage.page, `readable-names-driver-tour-${lang}-${viewport.width}`);
        driverPage.expectClean();
        await driverPage.context.close();
      });
    }
  }
});
