// The driver app in Chromium on a phone (touch, 390 px) through the real server: claim, start, complete with a photo
// and a signature, fail with an outcome, positions while en route; offline, three steps queued and sent exactly once
// in order when the connection returns; offline, a completion with a photo (resized on the phone) and a signature sent
// once when it returns; positions sent while en route moving the driver's marker on a dispatcher's console map; a
// queued step refused because the dispatcher took the tour away is shown in words (English and German); the one
// sign-in form of the console and the app; the app opens with the network off after one visit. Every screen is
// checked with axe-core and photographed.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBooking, createOrganization, createService, createServiceArea, createUser, expectOk, mergeIntoTour, tourEnRoute, type Client } from '../factories.ts';
import { pngImage } from '../proof-images.ts';
import { axeViolations, LAPTOP, openPage, PHONE, screenshot, signIn, startBrowserApp, type BrowserApp, type WatchedPage } from './harness.ts';

const PASSWORD = 'correct horse battery staple';
// A 1×1 PNG: the app decodes it, draws it on a canvas and sends it as JPEG.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

/** The laptop of the screenshots the docs show (docs/driver-app.md). */
const LAPTOP_1280 = { width: 1280, height: 800 };

/** A JPEG's width and height, read from its start-of-frame marker (SOF0–SOF15 but DHT, JPG and DAC). */
function jpegSize(bytes: Buffer): { width: number; height: number } {
  let at = 2;
  while (at + 9 < bytes.length) {
    if (bytes[at] !== 0xff) throw new Error(`no JPEG marker at byte ${at}`);
    const marker = bytes[at + 1]!;
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: bytes.readUInt16BE(at + 5), width: bytes.readUInt16BE(at + 7) };
    }
    at += 2 + bytes.readUInt16BE(at + 2);
  }
  throw new Error('no start-of-frame marker in the JPEG');
}

interface StopView {
  id: string;
  status: string;
  tour_position: number;
  proof: Record<string, string> | null;
  failure: { outcome: string } | null;
  booking_id: string;
  completed_at: string | null;
  failed_at: string | null;
}

describe('the driver app in a browser', () => {
  let app: BrowserApp;
  let admin: Client;
  let serviceId: string;
  let orgId: string;
  let claimOrgId: string;
  let adminToken: string;
  let dispatcherEmail: string;
  const drivers: Record<string, { email: string; id: string; client: Client }> = {};

  const stopsOf = async (tourId: string): Promise<StopView[]> => {
    const body = await expectOk(admin.get(`/api/hailing/tours/${tourId}`));
    return [...(body.tour.stops as StopView[])].sort((a, b) => a.tour_position - b.tour_position);
  };
  const booking = (org = orgId) => createBooking(admin, { service_id: serviceId, managing_organization_ids: [org] });
  const twoBookings = async (org = orgId) => [await booking(org), await booking(org)];
  const stopCard = (page: Page, index: number) => page.locator('li.drv-stop').nth(index);
  const press = (page: Page, index: number, name: string) => stopCard(page, index).getByRole('button', { name, exact: true }).click();

  async function openDriver(key: string, options: { locale?: 'en-GB' | 'de-DE'; viewport?: { width: number; height: number } } = {}): Promise<WatchedPage> {
    const watched = await openPage(app, { viewport: options.viewport ?? PHONE, locale: options.locale ?? 'en-GB', mobile: (options.viewport ?? PHONE) === PHONE });
    await watched.context.grantPermissions(['geolocation'], { origin: app.url });
    await watched.context.setGeolocation({ latitude: 52.52, longitude: 13.405, accuracy: 8 });
    const de = options.locale === 'de-DE';
    await watched.page.goto(`${app.url}/driver/`);
    await watched.page.getByLabel(de ? 'E-Mail' : 'Email').fill(drivers[key]!.email);
    await watched.page.getByLabel(de ? 'Passwort' : 'Password').fill(PASSWORD);
    await watched.page.getByRole('button', { name: de ? 'Anmelden' : 'Sign in' }).click();
    await watched.page.getByRole('button', { name: de ? 'Abmelden' : 'Sign out' }).waitFor({ timeout: 20_000 });
    return watched;
  }

  /** A tour of `bookingIds` en route with driver `key`, opened in the app on a phone with its stops shown, then the network off. */
  async function openTourOffline(key: string, bookingIds: string[]) {
    const tour = await tourEnRoute(admin, bookingIds, drivers[key]!.id);
    const watched = await openDriver(key);
    const { page, context } = watched;
    await page.getByRole('region', { name: 'Your tour' }).getByRole('link', { name: /^Open tour/ }).click();
    await expect.poll(() => page.locator('li.drv-stop').count()).toBe(2 * bookingIds.length);
    await context.setOffline(true);
    return { tour, watched, page, context };
  }

  /** Once back online: the queue empties, nothing was refused, and the page saw nothing it should not; then it closes. */
  async function expectAllSentAndClose(watched: WatchedPage) {
    await expect.poll(() => watched.page.getByText(/waiting to send/).count()).toBe(0);
    expect(await watched.page.getByText('Not accepted by Tourbook').count()).toBe(0);
    watched.expectClean();
    await watched.context.close();
  }

  beforeAll(async () => {
    app = await startBrowserApp();
    // The phone stamps positions with its own clock; the API refuses fixes more than 5 minutes ahead of its clock.
    app.t.clock.set(new Date());
    const tenant = await app.t.createTenant();
    admin = tenant.admin;
    adminToken = tenant.adminToken;
    const area = await createServiceArea(admin, { name: 'Berlin' });
    serviceId = (await createService(admin, { service_area_id: area.id })).id;
    orgId = (await createOrganization(admin, { name: 'Kurier Nord' })).id;
    // The claimer's organization alone manages the tour it claims: a tour another test hands back stays out of its list.
    claimOrgId = (await createOrganization(admin, { name: 'Kurier Süd' })).id;
    dispatcherEmail = `dispatcher-${Date.now()}@example.com`;
    await createUser(admin, { role: 'admin', email: dispatcherEmail, password: PASSWORD, name: 'Map Dispatcher' });
    for (const key of ['claimer', 'offline', 'refused', 'shell', 'photo', 'mover', 'full']) {
      const email = `${key}-${Date.now()}@example.com`;
      const created = await createUser(admin, { role: 'driver', email, password: PASSWORD, name: `${key} Driver`, organization_ids: [key === 'claimer' ? claimOrgId : orgId] });
      drivers[key] = { email, id: created.id, client: created.client };
    }
  });
  afterAll(async () => app?.close());

  it('claims and starts a tour, sends positions, completes a stop with a photo and a signature, and fails one with an outcome', async () => {
    const tour = await mergeIntoTour(admin, (await twoBookings(claimOrgId)).map((b) => b.id));
    await expectOk(admin.post(`/api/hailing/tours/${tour.id}/schedule`));
    const watched = await openDriver('claimer');
    const { page } = watched;
    await expect.poll(() => page.getByRole('heading', { name: 'Open to claim' }).count()).toBe(1);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'driver-tours-en-390');
    await page.getByRole('button', { name: 'Claim', exact: true }).click();
    await expect.poll(async () => (await expectOk(admin.get(`/api/hailing/tours/${tour.id}`))).tour.status).toBe('claimed');
    await page.getByRole('region', { name: 'Your tour' }).getByRole('link', { name: /^Open tour/ }).click();
    await page.getByRole('button', { name: 'Start', exact: true }).click();
    await expect.poll(async () => (await expectOk(admin.get(`/api/hailing/tours/${tour.id}`))).tour.status).toBe('en_route');
    // The phone's position reaches the API while the tour is en route.
    await expect.poll(async () => (await expectOk(admin.get(`/api/hailing/tours/${tour.id}/positions`))).positions.length, { timeout: 20_000 }).toBeGreaterThan(0);
    const position = (await expectOk(admin.get(`/api/hailing/tours/${tour.id}/positions`))).positions[0];
    expect([position.lat, position.lng]).toEqual([52.52, 13.405]);

    // Only the first stop may be approached; every open stop can be navigated to.
    expect(await stopCard(page, 1).getByRole('button', { name: 'Approach', exact: true }).count()).toBe(1);
    expect(await stopCard(page, 0).getByRole('link', { name: 'Navigate' }).getAttribute('href')).toMatch(/^geo:52\.5,13\.4\?q=52\.5,13\.4\(/);
    await press(page, 0, 'Approach');
    await expect.poll(() => stopCard(page, 1).getByRole('button', { name: 'Approach', exact: true }).count()).toBe(0);
    await press(page, 0, 'Arrive');
    await press(page, 0, 'Complete');
    const dialog = page.getByRole('dialog', { name: 'Complete stop 1' });
    await dialog.getByLabel('Photo').setInputFiles({ name: 'door.png', mimeType: 'image/png', buffer: PNG });
    await expect.poll(() => dialog.getByText(/^Photo ready/).count()).toBe(1);
    const pad = dialog.getByRole('img', { name: 'Signature' });
    await pad.scrollIntoViewIfNeeded();
    const box = (await pad.boundingBox())!;
    await page.mouse.move(box.x + 20, box.y + 40);
    await page.mouse.down();
    for (let i = 1; i <= 10; i++) await page.mouse.move(box.x + 20 + i * 20, box.y + 40 + (i % 2) * 50);
    await page.mouse.up();
    await dialog.getByLabel('Recipient’s name').fill('A. Lovelace');
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'driver-complete-dialog-en-390');
    await dialog.getByRole('button', { name: 'Confirm completion' }).click();
    await expect.poll(async () => (await stopsOf(tour.id))[0]!.status).toBe('completed');
    const proof = (await stopsOf(tour.id))[0]!.proof!;
    expect(proof.recipient_name).toBe('A. Lovelace');
    expect(proof.photo).toMatch(/^sha256:/);
    // The signature drawn on the phone is kept as an image file (decision 1250): its fingerprint on the stop, the file
    // readable through the stop's proof route.
    expect(proof.signature).toMatch(/^sha256:/);
    const drawn = await admin.get(proof.signature_url!);
    expect(drawn.status).toBe(200);
    expect(drawn.headers['content-type']).toMatch(/^image\/(png|jpeg|webp)/);

    // Berlin lies in no imported region: the open stop's ETA (from the phone's position) says it is a straight-line
    // estimate (contract §15, decision 1702).
    await expect.poll(() => stopCard(page, 1).getByText('Estimated in a straight line — no road data').count(), { timeout: 30_000 }).toBe(1);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'driver-tour-eta-straight-en-390');
    await press(page, 1, 'Approach');
    await press(page, 1, 'Fail');
    const fail = page.getByRole('dialog', { name: 'Fail stop 2' });
    await fail.getByLabel('Try again later').check();
    await fail.getByLabel('Reason').selectOption({ index: 1 });
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'driver-fail-dialog-en-390');
    await fail.getByRole('button', { name: 'Fail the stop' }).click();
    await expect.poll(async () => (await stopsOf(tour.id))[1]!.status).toBe('failed');
    expect((await stopsOf(tour.id))[1]!.failure!.outcome).toBe('reattempt_later');
    await expect.poll(() => stopCard(page, 1).getByText('Failed', { exact: true }).count()).toBe(1);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'driver-tour-en-390');
    watched.expectClean();
    await watched.context.close();
  }, 120_000);

  it('queues three steps taken offline and sends each exactly once, in order, when the connection returns', async () => {
    const bookings = await twoBookings();
    const { tour, watched, page, context } = await openTourOffline('offline', bookings.map((b) => b.id));
    await press(page, 0, 'Arrive');
    await press(page, 0, 'Complete');
    await page.getByRole('dialog', { name: 'Complete stop 1' }).getByRole('button', { name: 'Confirm completion' }).click();
    await press(page, 1, 'Arrive');
    await press(page, 1, 'Complete');
    await page.getByRole('dialog', { name: 'Complete stop 2' }).getByRole('button', { name: 'Confirm completion' }).click();
    await press(page, 2, 'Approach');
    await press(page, 2, 'Fail');
    const fail = page.getByRole('dialog', { name: 'Fail stop 3' });
    await fail.getByLabel('No new attempt').check();
    await fail.getByRole('button', { name: 'Fail the stop' }).click();
    await expect.poll(() => page.getByText('6 waiting to send').count()).toBe(1);
    expect(await stopCard(page, 0).getByText('Waiting to send').count()).toBe(1);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'driver-offline-en-390');
    // Nothing reached the server while offline.
    expect((await stopsOf(tour.id)).map((s) => s.status)).toEqual(['scheduled', 'scheduled', 'scheduled', 'scheduled']);

    await context.setOffline(false);
    await expect.poll(async () => (await stopsOf(tour.id)).map((s) => s.status), { timeout: 20_000 }).toEqual(['completed', 'completed', 'failed', 'scheduled']);
    const stops = await stopsOf(tour.id);
    // In the order taken.
    expect(Date.parse(stops[0]!.completed_at!)).toBeLessThanOrEqual(Date.parse(stops[1]!.completed_at!));
    expect(Date.parse(stops[1]!.completed_at!)).toBeLessThanOrEqual(Date.parse(stops[2]!.failed_at!));
    // Exactly once: one stop_failed event, and each stop's step once in its package's history.
    const failedEvents = (await expectOk(admin.get(`/api/admin/events?filters[type][]=booking.stop_failed&limit=100`))).events.filter((e: { data: { stop_id: string } }) => e.data.stop_id === stops[2]!.id);
    expect(failedEvents).toHaveLength(1);
    for (const booking of bookings) {
      const body = await expectOk(admin.get(`/api/hailing/bookings/${booking.id}`));
      for (const pkg of body.booking.packages as { history: { event: string; stop_id: string | null }[] }[]) {
        const counts = new Map<string, number>();
        for (const entry of pkg.history) counts.set(entry.event, (counts.get(entry.event) ?? 0) + 1);
        for (const [event, count] of counts) expect(count, `${event} in a package's history`).toBe(1);
      }
    }
    await expectAllSentAndClose(watched);
  }, 120_000);

  it('shows a queued step the server refused because the dispatcher took the tour away, until the driver dismisses it', async () => {
    const { tour, watched, page, context } = await openTourOffline('refused', [(await booking()).id]);
    await press(page, 0, 'Approach');
    await expect.poll(() => page.getByText('1 waiting to send').count()).toBe(1);
    await expectOk(admin.post(`/api/hailing/tours/${tour.id}/force_unassign`));
    await context.setOffline(false);
    const alert = page.getByRole('alert').filter({ hasText: 'Not accepted by Tourbook' });
    await expect.poll(() => alert.count(), { timeout: 20_000 }).toBe(1);
    // The tour waits for a driver again, so its former driver still sees it: the API says it is not its driver any
    // more (409 not_tour_driver, decision 1204), and the app says so in words — not "Your role may not do this".
    const words = await alert.textContent();
    expect(words).toContain('Tourbook did not accept “Approach”: your dispatcher took this tour off you meanwhile, and it now waits for a driver.');
    expect(words).toMatch(/Nothing was changed\. Call your dispatcher before you go on\./);
    expect(words).not.toMatch(/role/i);
    expect((await stopsOf(tour.id))[0]!.status).toBe('scheduled');
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'driver-refused-en-390');
    await page.setViewportSize(LAPTOP_1280);
    await screenshot(page, 'driver-refused-en-1280');
    await page.setViewportSize(PHONE);
    await page.getByLabel('Language').selectOption('de');
    const alertDe = page.getByRole('alert').filter({ hasText: 'Von Tourbook nicht angenommen' });
    await expect.poll(() => alertDe.count()).toBe(1);
    expect(await alertDe.textContent()).toContain(
      'Tourbook hat „Anfahren“ nicht angenommen: Ihre Disposition hat Ihnen diese Tour inzwischen entzogen, sie wartet jetzt auf einen Fahrer. Es wurde nichts geändert.',
    );
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'driver-refused-de-390');
    await page.setViewportSize(LAPTOP_1280);
    await screenshot(page, 'driver-refused-de-1280');
    await alertDe.getByRole('button', { name: 'Verstanden' }).click();
    await expect.poll(() => alertDe.count()).toBe(0);
    watched.expectClean();
    await watched.context.close();
  }, 120_000);

  it('completes a stop offline with a photo and a signature, and the server holds the photo resized on the phone and one completion', async () => {
    const { tour, watched, page, context } = await openTourOffline('photo', [(await booking()).id]);
    await press(page, 0, 'Arrive');
    await press(page, 0, 'Complete');
    const dialog = page.getByRole('dialog', { name: 'Complete stop 1' });
    // A camera's photo: 3000 × 2000 px, larger than the app sends (at most 1600 px on its longer side).
    await dialog.getByLabel('Photo').setInputFiles({ name: 'door.png', mimeType: 'image/png', buffer: pngImage(3000, 2000, [40, 120, 200]) });
    await expect.poll(() => dialog.getByText(/^Photo ready/).count(), { timeout: 20_000 }).toBe(1);
    const pad = dialog.getByRole('img', { name: 'Signature' });
    await pad.scrollIntoViewIfNeeded();
    const box = (await pad.boundingBox())!;
    await page.mouse.move(box.x + 20, box.y + 40);
    await page.mouse.down();
    for (let i = 1; i <= 10; i++) await page.mouse.move(box.x + 20 + i * 20, box.y + 40 + (i % 2) * 50);
    await page.mouse.up();
    await dialog.getByRole('button', { name: 'Confirm completion' }).click();
    // Read off the status line, so a failure shows what the phone said (the photo's write takes a while on a busy machine).
    await expect.poll(() => page.locator('.drv-status').textContent(), { timeout: 30_000 }).toContain('2 waiting to send');
    expect(await page.getByText('Not kept on this phone').count()).toBe(0);
    // Nothing reached the server while offline.
    expect((await stopsOf(tour.id)).map((s) => s.status)).toEqual(['scheduled', 'scheduled']);

    await context.setOffline(false);
    await expect.poll(async () => (await stopsOf(tour.id))[0]!.status, { timeout: 20_000 }).toBe('completed');
    const stop = (await stopsOf(tour.id))[0]!;
    expect(stop.proof).toMatchObject({ photo: expect.stringMatching(/^sha256:/), signature: expect.stringMatching(/^sha256:/) });
    const photo = await fetch(`${app.url}${stop.proof!.photo_url}`, { headers: { authorization: `Bearer ${adminToken}` } });
    expect(photo.status).toBe(200);
    expect(photo.headers.get('content-type')).toBe('image/jpeg');
    const bytes = Buffer.from(await photo.arrayBuffer());
    // Resized on the phone before it was queued: 1600 px on the longer side, the proportions kept.
    expect(jpegSize(bytes)).toEqual({ width: 1600, height: 1067 });
    expect(bytes.length).toBeLessThan(5 * 1024 * 1024);
    // Exactly one completion: its package was picked up once at the stop, and no second send was refused (a completed
    // stop refuses another completion unless it is the idempotent replay of the same one).
    const body = await expectOk(admin.get(`/api/hailing/bookings/${stop.booking_id}`));
    const packages = body.booking.packages as { history: { event: string; stop_id: string | null }[] }[];
    expect(packages).toHaveLength(1);
    expect(packages[0]!.history.filter((entry) => entry.stop_id === stop.id).map((entry) => entry.event)).toEqual(['picked_up']);
    await expectAllSentAndClose(watched);
  }, 120_000);

  it('says in words when the phone cannot store a step, sends nothing for it, and keeps the step to take again', async () => {
    const tour = await tourEnRoute(admin, [(await booking()).id], drivers.full!.id);
    const watched = await openDriver('full');
    const { page } = watched;
    await page.getByRole('region', { name: 'Your tour' }).getByRole('link', { name: /^Open tour/ }).click();
    await expect.poll(() => page.locator('li.drv-stop').count()).toBe(2);
    // From here on the phone's storage is full: IndexedDB refuses every write, as it does on a full disk.
    await page.evaluate("IDBObjectStore.prototype.put = function () { throw new DOMException('The quota has been exceeded.', 'QuotaExceededError'); }");
    await press(page, 0, 'Approach');
    const alert = page.getByRole('alert').filter({ hasText: 'Not kept on this phone' });
    await expect.poll(() => alert.count()).toBe(1);
    expect(await alert.textContent()).toContain('This phone could not store “Approach” (The quota has been exceeded.), so it was not sent either. Take the step again');
    // Nothing was queued or sent: the step is still there to take, and the server's stop did not move.
    expect(await page.getByText(/waiting to send/).count()).toBe(0);
    expect(await stopCard(page, 0).getByRole('button', { name: 'Approach', exact: true }).count()).toBe(1);
    expect((await stopsOf(tour.id))[0]!.status).toBe('scheduled');
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'driver-not-kept-en-390');
    await page.getByLabel('Language').selectOption('de');
    const alertDe = page.getByRole('alert').filter({ hasText: 'Nicht auf diesem Telefon gespeichert' });
    await expect.poll(() => alertDe.count()).toBe(1);
    expect(await alertDe.textContent()).toContain('Dieses Telefon konnte „Anfahren“ nicht speichern');
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'driver-not-kept-de-390');
    await page.setViewportSize(LAPTOP_1280);
    await screenshot(page, 'driver-not-kept-de-1280');
    await page.setViewportSize(PHONE);
    await alertDe.getByRole('button', { name: 'Verstanden' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => alertDe.count()).toBe(0);
    watched.expectClean();
    await watched.context.close();
  }, 120_000);

  it("moves the driver's marker on a dispatcher's console map as the phone's positions are sent while en route", async () => {
    // The phone stamps its fixes with its own clock; the API's clock reads the same time (it refuses fixes 5 minutes ahead).
    app.t.clock.set(new Date());
    const tour = await tourEnRoute(admin, [(await booking()).id], drivers.mover!.id);
    const positions = async () => (await expectOk(admin.get(`/api/hailing/tours/${tour.id}/positions`))).positions as { lat: number; lng: number; recorded_at: string }[];

    const dispatcher = await openPage(app, { viewport: LAPTOP_1280 });
    await signIn(dispatcher.page, app.url, dispatcherEmail, PASSWORD);
    await dispatcher.page.getByRole('link', { name: 'Map' }).click();
    const canvas = dispatcher.page.locator('.map-canvas');
    const row = dispatcher.page.getByRole('list', { name: 'Drivers on tour' }).getByRole('listitem').filter({ has: dispatcher.page.getByRole('button', { name: 'Show mover Driver on the map' }) });
    await expect.poll(() => row.count(), { timeout: 30_000 }).toBe(1);
    expect(await row.textContent()).toContain('(no position)');
    await expect.poll(() => dispatcher.page.locator('[data-drawn-at]').count(), { timeout: 30_000 }).toBe(1);

    // The driver opens the app on the phone: the tour is en route, so the phone's position goes out.
    const phone = await openDriver('mover');
    await expect.poll(async () => (await positions()).length, { timeout: 20_000 }).toBe(1);
    const [first] = await positions();
    expect([first!.lat, first!.lng]).toEqual([52.52, 13.405]);
    // The marker appears: the map drew the driver's fix, and the list beside it says the driver is live.
    await expect.poll(() => canvas.getAttribute('data-latest-fix'), { timeout: 15_000 }).toBe(String(Date.parse(first!.recorded_at)));
    await expect.poll(() => row.textContent(), { timeout: 15_000 }).toContain('(live)');

    // The driver moves north, about 40 km/h; the phone keeps one fix per 10 s (decision 1203) and sends it.
    let lat = 52.52;
    await expect
      .poll(
        async () => {
          lat += 0.00005;
          await phone.context.setGeolocation({ latitude: lat, longitude: 13.405, accuracy: 8 });
          return (await positions()).length;
        },
        { timeout: 30_000, interval: 500 },
      )
      .toBeGreaterThan(1);
    const [moved] = await positions();
    expect(moved!.lat).toBeGreaterThan(first!.lat);
    expect(Date.parse(moved!.recorded_at) - Date.parse(first!.recorded_at)).toBeGreaterThanOrEqual(10_000);
    // The marker moves: the map drew the new fix.
    await expect.poll(() => canvas.getAttribute('data-latest-fix'), { timeout: 15_000 }).toBe(String(Date.parse(moved!.recorded_at)));
    // The dispatcher picks the driver in the list: the map centres on the marker (as the picture shows).
    const show = row.getByRole('button', { name: 'Show mover Driver on the map' });
    await show.click();
    await expect.poll(() => show.getAttribute('aria-pressed')).toBe('true');
    expect(await axeViolations(dispatcher.page)).toEqual([]);
    await screenshot(dispatcher.page, 'driver-positions-console-map-en-1280');
    phone.expectClean();
    dispatcher.expectClean();
    await phone.context.close();
    await dispatcher.context.close();
  }, 120_000);

  it('signs in on the console and in the driver app through one form, in English and German, on a phone and a laptop', async () => {
    for (const [locale, fields] of [
      ['en-GB', { email: 'Email', password: 'Password', button: 'Sign in', console: 'Sign in to Tourbook', driver: 'Sign in to drive' }],
      ['de-DE', { email: 'E-Mail', password: 'Passwort', button: 'Anmelden', console: 'Bei Tourbook anmelden', driver: 'Zum Fahren anmelden' }],
    ] as const) {
      for (const viewport of [PHONE, LAPTOP_1280]) {
        for (const surface of ['console', 'driver'] as const) {
          const watched = await openPage(app, { viewport, locale, mobile: viewport === PHONE });
          const { page } = watched;
          await page.goto(`${app.url}/${surface}`);
          await expect.poll(() => page.getByRole('heading', { name: fields[surface] }).count()).toBe(1);
          const form = page.locator('form').filter({ has: page.getByRole('button', { name: fields.button }) });
          expect(await form.getByRole('textbox', { name: fields.email }).count()).toBe(1);
          expect(await form.getByLabel(fields.password).count()).toBe(1);
          expect(await axeViolations(page)).toEqual([]);
          await screenshot(page, `${surface}-sign-in-${locale.slice(0, 2)}-${viewport.width}`);
          // A wrong password is answered in the form's words, the same on both surfaces.
          await page.getByLabel(fields.email).fill(`nobody-${surface}-${viewport.width}@example.com`);
          await page.getByLabel(fields.password).fill('not the password');
          await page.getByRole('button', { name: fields.button }).click();
          await expect.poll(() => page.getByRole('alert').filter({ hasText: locale === 'en-GB' ? 'The e-mail or password is not right.' : 'E-Mail oder Passwort stimmt nicht.' }).count()).toBe(1);
          watched.expectClean();
          await watched.context.close();
        }
      }
    }
  }, 120_000);

  it('opens with the network off after one visit (service worker), in German and English, on a phone and a laptop', async () => {
    const tour = await tourEnRoute(admin, [(await booking()).id], drivers.shell!.id);
    const watched = await openDriver('shell', { locale: 'de-DE' });
    const { page, context } = watched;
    await expect.poll(() => page.getByRole('heading', { name: 'Meine Touren' }).count()).toBe(1);
    await expect.poll(() => page.evaluate('!!navigator.serviceWorker.controller')).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'driver-tours-de-390');
    await context.setOffline(true);
    await page.reload();
    await expect.poll(() => page.getByRole('heading', { name: 'Meine Touren' }).count()).toBe(1);
    await page.getByRole('region', { name: 'Ihre Tour' }).getByRole('link', { name: /^Tour .* öffnen/ }).click();
    await expect.poll(() => page.locator('li.drv-stop').count()).toBe(2);
    expect(await stopCard(page, 0).getByRole('button', { name: 'Anfahren', exact: true }).count()).toBe(1);
    await screenshot(page, 'driver-tour-offline-de-390');
    await context.setOffline(false);
    expect(tour.status).toBe('en_route');
    await page.getByRole('link', { name: 'Verdienst' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Verdienst' }).count()).toBe(1);
    await expect.poll(() => page.getByText('Summe').count()).toBe(1);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'driver-pay-de-390');
    watched.expectClean();
    await context.close();

    const laptop = await openPage(app, { viewport: LAPTOP, locale: 'en-GB' });
    await laptop.page.goto(`${app.url}/driver/`);
    await laptop.page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await axeViolations(laptop.page)).toEqual([]);
    await screenshot(laptop.page, 'driver-sign-in-en-1366');
    await signIn(laptop.page, app.url, drivers.shell!.email, PASSWORD, '/driver/');
    await laptop.page.getByRole('region', { name: 'Your tour' }).getByRole('link', { name: /^Open tour/ }).click();
    await expect.poll(() => laptop.page.locator('li.drv-stop').count()).toBe(2);
    expect(await axeViolations(laptop.page)).toEqual([]);
    await screenshot(laptop.page, 'driver-tour-en-1366');
    const manifest = (await (await fetch(`${app.url}/driver/manifest.webmanifest`)).json()) as { icons: { sizes: string }[] };
    expect(manifest).toMatchObject({ start_url: '/driver/', scope: '/driver/', display: 'standalone' });
    expect(manifest.icons.map((i) => i.sizes)).toEqual(['192x192', '512x512', 'any']);
    laptop.expectClean();
    await laptop.context.close();
  }, 120_000);
});
