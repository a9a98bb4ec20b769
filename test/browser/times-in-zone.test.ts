// Times in the service area's zone, said once on the page (issue 37, decision 1682): a dispatcher whose browser runs
// on Tokyo's clock reads a New York area's windows, shifts and plans on New York's clock, and every page that shows
// times names that clock once under its heading; the driver app names the phone's own zone.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorker } from '../../src/worker/loop.ts';
import { createBooking, createService, createServiceArea, createUser, expectOk, mergeIntoTour, type Client } from '../factories.ts';
import { axeViolations, LAPTOP, openPage, PHONE, screenshot, signIn, startBrowserApp, type BrowserApp } from './harness.ts';

const PASSWORD = 'correct horse battery staple';
const AREA_ZONE = 'America/New_York';
const BROWSER_ZONE = 'Asia/Tokyo';
const NOTE_EN = /^Times: .+ \(America\/New_York\)$/;
const NOTE_DE = /^Zeitangaben: .+ \(America\/New_York\)$/;

/** "09:00" as a person in `timeZone` reads the instant (Node's Intl, not the page's code). */
const clock = (iso: string, timeZone: string) => new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', timeZone }).format(new Date(iso));

async function notesOn(page: Page): Promise<string[]> {
  return page.locator('.times-note').allInnerTexts();
}

describe('times in the service area\'s zone, said once', { timeout: 180_000 }, () => {
  let app: BrowserApp;
  let admin: Client;
  let adminEmail: string;
  let driverEmail: string;
  let bookingId: string;
  let tourId: string;
  const window = { starts_at: '', ends_at: '' };

  beforeAll(async () => {
    app = await startBrowserApp();
    app.t.clock.set(new Date()); // shifts and plans start from the browser's now
    const tenant = await app.t.createTenant();
    admin = tenant.admin;
    const area = await createServiceArea(admin, { name: 'New York', time_zone: AREA_ZONE, currency: 'USD' });
    const dispatched = await createService(admin, { service_area_id: area.id, name: 'Dispatched' });
    const planned = await createService(admin, { service_area_id: area.id, name: 'Planned' });
    adminEmail = `zone-admin-${Date.now()}@example.com`;
    driverEmail = `zone-driver-${Date.now()}@example.com`;
    await createUser(admin, { role: 'admin', email: adminEmail, password: PASSWORD, name: 'Dana Dispatch' });
    const driver = await createUser(admin, { role: 'driver', email: driverEmail, password: PASSWORD, name: 'Nora Night' });
    const now = app.t.clock.now().getTime();
    await expectOk(admin.post(`/api/drivers/${driver.id}/shifts`, { shift: { starts_at: new Date(now - 3_600_000).toISOString(), ends_at: new Date(now + 8 * 3_600_000).toISOString(), start_location: { lat: 40.75, lng: -73.99 } } }), 201);
    // A window two days on at 14:00–16:00 UTC: 09:00–11:00 in New York in winter, 23:00–01:00 in Tokyo.
    const day = new Date(now + 2 * 86_400_000).toISOString().slice(0, 10);
    Object.assign(window, { starts_at: `${day}T14:00:00.000Z`, ends_at: `${day}T16:00:00.000Z` });
    const stops = (timeWindow?: typeof window) => [
      { type: 'pickup', location: { lat: 40.75, lng: -73.99 }, address: { street: 'W 34th St', number: '20', city: 'New York' } },
      { type: 'dropoff', location: { lat: 40.76, lng: -73.98 }, address: { street: 'W 57th St', number: '1', city: 'New York' }, ...(timeWindow ? { time_window: timeWindow } : {}) },
    ];
    const booking = await createBooking(admin, { service_id: dispatched.id, external_id: 'ZONE-1', stops: stops(window) });
    bookingId = booking.id;
    tourId = (await mergeIntoTour(admin, [booking.id])).id;
    await createBooking(admin, { service_id: planned.id, external_id: 'PLAN-Z', stops: stops() });
  }, 120_000);
  afterAll(async () => app?.close());

  it('shows a booking\'s window, a tour\'s stops, the lists and the shifts on the area\'s clock, and says so once per page', async () => {
    const watched = await openPage(app, { timezoneId: BROWSER_ZONE });
    const { page } = watched;
    await signIn(page, app.url, adminEmail, PASSWORD);
    const from = clock(window.starts_at, AREA_ZONE);
    const to = clock(window.ends_at, AREA_ZONE);
    expect(from).not.toBe(clock(window.starts_at, BROWSER_ZONE)); // the test means something only if the clocks differ

    for (const path of [`/console/bookings/${bookingId}`, `/console/tours/${tourId}`]) {
      await page.goto(`${app.url}${path}`);
      await expect.poll(() => notesOn(page), { timeout: 20_000 }).toHaveLength(1);
      expect((await notesOn(page))[0]).toMatch(NOTE_EN);
      const text = await page.locator('main').innerText();
      expect(text, path).toContain(from);
      expect(text, path).toContain(to);
      expect(text, path).not.toContain(clock(window.starts_at, BROWSER_ZONE));
      expect(await axeViolations(page), path).toEqual([]);
    }
    await screenshot(page, 'times-in-zone-tour-en-1366');
    for (const path of ['/console', '/console/bookings', '/console/tours', '/console/shifts', '/console/map']) {
      await page.goto(`${app.url}${path}`);
      await expect.poll(() => notesOn(page), { timeout: 20_000 }).toHaveLength(1);
      expect((await notesOn(page))[0], path).toMatch(NOTE_EN);
    }
    // Tenant-wide records (reports, settings) belong to no area: their times are this browser's, and the page says so.
    await page.goto(`${app.url}/console/reports`);
    await expect.poll(() => notesOn(page), { timeout: 20_000 }).toEqual([expect.stringMatching(/^Times: .+ \(Asia\/Tokyo\), the zone of this device$/)]);
    watched.expectClean();
    await watched.context.close();
  });

  it('plans on the area\'s clock: a proposed tour leaves and returns at New York times', async () => {
    const watched = await openPage(app, { timezoneId: BROWSER_ZONE });
    const { page } = watched;
    let proposed: { starts_at?: string | null; ends_at?: string | null } | undefined;
    page.on('response', async (response) => {
      if (!/\/api\/hailing\/dispatch\/plans?(\/|$|\?)/.test(new URL(response.url()).pathname)) return;
      const body = (await response.json().catch(() => null)) as { plan?: { tours?: { starts_at?: string | null; ends_at?: string | null }[] } } | null;
      const tour = body?.plan?.tours?.find((t) => t.starts_at && t.ends_at);
      if (tour) proposed = tour;
    });
    await signIn(page, app.url, adminEmail, PASSWORD, '/console/plan');
    await expect.poll(() => page.getByLabel('Booking PLAN-Z').isChecked(), { timeout: 20_000 }).toBe(true);
    await page.getByRole('checkbox', { name: 'Nora Night' }).check();
    await page.getByRole('button', { name: 'Plan tours' }).click();
    // With a driver the plan runs as a job: the worker plans it while the page polls.
    await expect.poll(
      async () => {
        await createWorker(app.t.deps).drain();
        return page.getByText(/leaves \d\d:\d\d, back \d\d:\d\d/).count();
      },
      { timeout: 30_000 },
    ).toBe(1);
    await expect.poll(() => proposed, { message: 'the plan the page received' }).toBeDefined();
    const shown = await page.getByText(/leaves \d\d:\d\d, back \d\d:\d\d/).innerText();
    expect(shown).toContain(`leaves ${clock(proposed!.starts_at!, AREA_ZONE)}, back ${clock(proposed!.ends_at!, AREA_ZONE)}`);
    expect(await notesOn(page)).toEqual([expect.stringMatching(NOTE_EN)]);
    expect(await axeViolations(page)).toEqual([]);
    watched.expectClean();
    await watched.context.close();
  });

  for (const viewport of [LAPTOP, PHONE]) {
    it(`says it in German too (${viewport.width} px)`, async () => {
      const watched = await openPage(app, { timezoneId: BROWSER_ZONE, locale: 'de-DE', viewport });
      const { page } = watched;
      await page.goto(`${app.url}/console/bookings/${bookingId}`);
      await page.getByLabel('E-Mail').fill(adminEmail);
      await page.getByLabel('Passwort').fill(PASSWORD);
      await page.getByRole('button', { name: 'Anmelden' }).click();
      await expect.poll(() => notesOn(page), { timeout: 20_000 }).toEqual([expect.stringMatching(NOTE_DE)]);
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, `times-in-zone-booking-de-${viewport.width}`);
      watched.expectClean();
      await watched.context.close();
    });
  }

  it('tells the driver the times are on the phone\'s clock', async () => {
    const watched = await openPage(app, { timezoneId: BROWSER_ZONE, viewport: PHONE, mobile: true });
    const { page } = watched;
    await signIn(page, app.url, driverEmail, PASSWORD, '/driver');
    await expect.poll(() => notesOn(page), { timeout: 20_000 }).toEqual([expect.stringMatching(/^Times: .+ \(Asia\/Tokyo\), the zone of this device$/)]);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'times-in-zone-driver-en-390');
    watched.expectClean();
    await watched.context.close();
  });
});
