// The recipient's tracking page in Chromium through the real server: status and ETA rendered on the server (also with
// JavaScript off), the driver's approach arriving live when a position is posted, the rating after delivery; axe
// clean, no request to another host, photographed on a laptop and a phone in English and German.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBooking, createPlace, createService, createServiceArea, createUser, driveStop, expectOk, tourEnRoute, type Client } from '../factories.ts';
import { pngImage } from '../proof-images.ts';
import { axeViolations, LAPTOP, openPage, PHONE, screenshot, signIn, startBrowserApp, type BrowserApp } from './harness.ts';

describe('the tracking page in a browser', () => {
  let app: BrowserApp;
  let admin: Client;
  let serviceId: string;
  let placeIds: string[];
  let adminEmail: string;
  const PASSWORD = 'correct horse battery staple';

  const linkOf = async (bookingId: string) => new URL((await expectOk(admin.get(`/api/hailing/bookings/${bookingId}`))).booking.tracking.url).pathname;

  /** Tests run shuffled: each has its own two bookings on its own en-route tour, driven by its own "Erika Mustermann". */
  async function scene() {
    const one = await createBooking(admin, { service_id: serviceId, places: placeIds.slice(0, 2) });
    const two = await createBooking(admin, { service_id: serviceId, places: placeIds.slice(2, 4) });
    const d = await createUser(admin, { role: 'driver', name: 'Erika Mustermann' });
    const tour = await tourEnRoute(admin, [one.id, two.id], d.id);
    const nearId: string = tour.stops[0].booking_id;
    const farId: string = tour.stops.find((s: { booking_id: string }) => s.booking_id !== nearId).booking_id;
    const post = (lat: number) =>
      expectOk(d.client.post(`/api/hailing/tours/${tour.id}/driver_location`, { location: { lat, lng: 13.4, recorded_at: app.t.clock.now().toISOString() } }));
    return { driver: d.client, nearId, farId, post };
  }

  beforeAll(async () => {
    app = await startBrowserApp({ reportsMasterKey: randomBytes(32).toString('base64') });
    const tenant = await app.t.createTenant();
    admin = tenant.admin;
    const area = await createServiceArea(admin, { name: 'Berlin', average_speed_kmh: 36 });
    serviceId = (await createService(admin, { service_area_id: area.id })).id;
    adminEmail = `admin-${Date.now()}@example.com`;
    await createUser(admin, { role: 'admin', email: adminEmail, password: PASSWORD, name: 'Ada Admin' });
    placeIds = (await Promise.all([0, 1, 2, 3].map((i) => createPlace(admin, { service_area_id: area.id, location: { lat: 52.5 + i * 0.01, lng: 13.4 } })))).map((p) => p.id);
  });
  afterAll(async () => app?.close());

  it('shows status and ETA rendered on the server, then the driver approaching live when a position is posted', async () => {
    const { nearId, post } = await scene();
    const path = await linkOf(nearId);
    const watched = await openPage(app, { locale: 'en-GB', viewport: LAPTOP });
    const { page } = watched;
    const response = await page.goto(`${app.url}${path}`);
    expect(response?.headers()['x-robots-tag']).toContain('noindex');
    expect(response?.headers()['referrer-policy']).toBe('no-referrer');
    await expect.poll(() => page.getByRole('heading', { name: 'Your delivery', level: 1 }).count()).toBe(1);
    expect(await page.getByText('Scheduled for delivery').count()).toBe(1);
    await expect.poll(() => page.getByText('Updates live').count(), { timeout: 15_000 }).toBe(1);
    await post(52.491);
    // The position and the ETAs it brings arrive without a reload.
    await expect.poll(() => page.getByText('Erika is on the way to you.').count(), { timeout: 20_000 }).toBe(1);
    await expect.poll(() => page.getByText(/Expected between/).count(), { timeout: 15_000 }).toBeGreaterThan(0);
    // The small map (an inline SVG, no tiles): the driver and this recipient's stop, about 1 km apart.
    await expect.poll(() => page.getByRole('img', { name: /^Map: the driver is [\d.]+ (m|km) from your stop\.$/ }).count(), { timeout: 15_000 }).toBe(1);
    expect(await page.locator('svg .track-map-driver').count()).toBe(1);
    expect(await page.locator('svg .track-map-stop').count()).toBe(1);
    expect(await page.content()).not.toContain('Mustermann');
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'track-laptop-en');
    watched.expectClean();
    await watched.context.close();
  });

  it('works without JavaScript for status and ETA, in German on a phone', async () => {
    const { farId, post } = await scene();
    await post(52.4905);
    const path = await linkOf(farId);
    const context = await app.browser.newContext({ javaScriptEnabled: false, locale: 'de-DE', viewport: PHONE });
    const page = await context.newPage();
    await page.goto(`${app.url}${path}`);
    await expect.poll(() => page.getByRole('heading', { name: 'Ihre Sendung', level: 1 }).count()).toBe(1);
    expect(await page.getByText('Zur Zustellung eingeplant').count()).toBe(1);
    // No map while the driver is not heading here: the position is not shown, so neither is the map.
    expect(await page.getByRole('img', { name: /^Karte/ }).count()).toBe(0);
    expect(await page.getByText(/Erwartet zwischen .* UTC/).count()).toBeGreaterThan(0);
    expect(await page.getByText(/^Erika hat noch \d Stopps? vor Ihrem\.$/).count()).toBe(1);
    await screenshot(page, 'track-phone-de-nojs');
    await context.close();
  });

  it('offers the rating after delivery, once, in German on a phone', async () => {
    const { nearId, driver } = await scene();
    const booking = (await expectOk(admin.get(`/api/hailing/bookings/${nearId}`))).booking;
    for (const stop of booking.stops) await driveStop(driver, stop.id, 'completed');
    const watched = await openPage(app, { locale: 'de-DE', viewport: PHONE, mobile: true });
    const { page } = watched;
    await page.goto(`${app.url}${await linkOf(nearId)}`);
    await expect.poll(() => page.getByText('Zugestellt').count(), { timeout: 15_000 }).toBe(1);
    await expect.poll(() => page.getByRole('heading', { name: 'Wie war Ihre Zustellung?' }).count(), { timeout: 15_000 }).toBe(1);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'track-phone-de-feedback');
    await page.getByLabel('4 von 5').check();
    await page.getByLabel('Kommentar').fill('Sehr freundlich');
    await page.getByRole('button', { name: 'Bewertung senden' }).click();
    await expect.poll(() => page.getByText('Danke für Ihre Bewertung: 4 von 5.').count(), { timeout: 15_000 }).toBe(1);
    expect(await page.getByRole('button', { name: 'Bewertung senden' }).count()).toBe(0);
    await screenshot(page, 'track-phone-de-thanks');
    watched.expectClean();
    await watched.context.close();

    // The console's booking page shows the rating and the comment to the tenant's admin.
    const console_ = await openPage(app, { locale: 'en-GB', viewport: LAPTOP });
    await signIn(console_.page, app.url, adminEmail, PASSWORD);
    await console_.page.goto(`${app.url}/console/bookings/${nearId}`);
    await expect.poll(() => console_.page.getByRole('heading', { name: "Recipient's rating" }).count(), { timeout: 15_000 }).toBe(1);
    const section = console_.page.getByRole('region', { name: "Recipient's rating" });
    expect(await section.getByText('4 of 5').count()).toBe(1);
    expect(await section.getByText('Sehr freundlich').count()).toBe(1);
    expect(await axeViolations(console_.page)).toEqual([]);
    await screenshot(console_.page, 'console-booking-feedback');
    console_.expectClean();
    await console_.context.close();
  });

  it('the console shows no rating section for a booking without feedback', async () => {
    const { nearId, driver } = await scene();
    const booking = (await expectOk(admin.get(`/api/hailing/bookings/${nearId}`))).booking;
    for (const stop of booking.stops) await driveStop(driver, stop.id, 'completed');
    const watched = await openPage(app, { locale: 'en-GB', viewport: LAPTOP });
    await signIn(watched.page, app.url, adminEmail, PASSWORD);
    await watched.page.goto(`${app.url}/console/bookings/${nearId}`);
    await expect.poll(() => watched.page.getByRole('heading', { name: 'Packages' }).count(), { timeout: 15_000 }).toBe(1);
    expect(await watched.page.getByRole('heading', { name: "Recipient's rating" }).count()).toBe(0);
    watched.expectClean();
    await watched.context.close();
  });

  it('reads well on a phone in English and on a laptop in German, axe clean', async () => {
    const { nearId, post } = await scene();
    await post(52.4902);
    for (const [locale, viewport, name, heading, live] of [
      ['en-GB', PHONE, 'track-phone-en', 'Your delivery', 'Updates live'],
      ['de-DE', LAPTOP, 'track-laptop-de', 'Ihre Sendung', 'Aktualisiert sich live'],
    ] as const) {
      const watched = await openPage(app, { locale, viewport, mobile: viewport === PHONE });
      await watched.page.goto(`${app.url}${await linkOf(nearId)}`);
      await expect.poll(() => watched.page.getByRole('heading', { name: heading, level: 1 }).count()).toBe(1);
      // Live, and the instructions' form is there (its own status line is empty until a save).
      await expect.poll(() => watched.page.getByRole('status').filter({ hasText: live }).count(), { timeout: 15_000 }).toBe(1);
      await expect.poll(() => watched.page.locator('.track-instructions form').count(), { timeout: 15_000 }).toBe(1);
      expect(await axeViolations(watched.page)).toEqual([]);
      await screenshot(watched.page, name);
      watched.expectClean();
      await watched.context.close();
    }
  });

  it("names the sender with its logo and colour, and shows the recipient's own stop with its address and day", async () => {
    const tenant = await app.t.createTenant();
    const area = await createServiceArea(tenant.admin, { name: 'Berlin', average_speed_kmh: 36 });
    const service = await createService(tenant.admin, { service_area_id: area.id });
    await expectOk(tenant.admin.patch('/api/admin/sender', { sender: { name: 'Spree Kurier', color: '#0b7a3e' } }));
    await expectOk(tenant.admin.put('/api/admin/sender/logo', { logo: { image: pngImage(120, 40, [11, 122, 62], 'SK').toString('base64') } }));
    const booking = await createBooking(tenant.admin, {
      service_id: service.id,
      stops: [
        { type: 'pickup', location: { lat: 52.5, lng: 13.4 }, address: { street: 'Chausseestraße', number: '1', city: 'Berlin' } },
        { type: 'dropoff', location: { lat: 52.51, lng: 13.41 }, address: { street: 'Torstraße', number: '2', zip_code: '10119', city: 'Berlin' } },
      ],
    });
    const path = new URL((await expectOk(tenant.admin.get(`/api/hailing/bookings/${booking.id}`))).booking.tracking.url).pathname;
    for (const [locale, viewport, name, from, delivery] of [
      ['en-GB', PHONE, 'track-phone-en-sender', 'From Spree Kurier', 'Delivery'],
      ['de-DE', LAPTOP, 'track-laptop-de-sender', 'Von Spree Kurier', 'Zustellung'],
    ] as const) {
      const watched = await openPage(app, { locale, viewport, mobile: viewport === PHONE });
      const { page } = watched;
      await page.goto(`${app.url}${path}`);
      await expect.poll(() => page.getByText(from, { exact: true }).count()).toBe(1);
      // The logo loads from our own origin; the colour (the page's one hashed inline style) reaches the header.
      await expect.poll(() => page.evaluate("(() => { const img = document.querySelector('img.track-logo'); return img && img.complete ? img.naturalWidth : 0; })()")).toBe(120);
      expect(await page.evaluate("getComputedStyle(document.querySelector('.track-sender')).borderBottomColor")).toBe('rgb(11, 122, 62)');
      // Only the drop-off: the pickup card is the sender's business.
      expect(await page.locator('.track-stop h2').allTextContents()).toEqual([delivery]);
      expect(await page.getByText('Torstraße 2, 10119 Berlin').count()).toBe(1);
      expect(await page.locator('.track-date').count()).toBe(0); // not yet planned: no day to say
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, name);
      watched.expectClean();
      await watched.context.close();
    }
  });

  it('answers an unknown link with a page that says so, 404', async () => {
    const watched = await openPage(app, { locale: 'en-GB', viewport: PHONE });
    const response = await watched.page.goto(`${app.url}/track/${'Z'.repeat(43)}`);
    expect(response?.status()).toBe(404);
    expect(await watched.page.getByText(/does not exist/).count()).toBe(1);
    await screenshot(watched.page, 'track-phone-en-unknown');
    watched.expectClean();
    await watched.context.close();
  });
});
