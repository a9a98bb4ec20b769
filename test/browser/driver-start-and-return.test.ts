// The driver app on a phone (390 px): Start opens the tour at its first open stop (decision 1642), and a booking the
// dispatcher cancels while its parcel is in the van shows its return stop on the driver's screen at once, with no
// reload (the tour's events on the live stream: decision 1641). Checked with axe-core and photographed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBooking, createService, createServiceArea, createUser, expectOk, mergeIntoTour, type Client } from '../factories.ts';
import { axeViolations, openPage, PHONE, screenshot, startBrowserApp, type BrowserApp } from './harness.ts';

const PASSWORD = 'correct horse battery staple';

describe('the driver app: Start, and a return after a cancel', () => {
  let app: BrowserApp;
  let admin: Client;
  let serviceId: string;
  let driver: { email: string; id: string; client: Client };

  beforeAll(async () => {
    app = await startBrowserApp();
    app.t.clock.set(new Date());
    const tenant = await app.t.createTenant();
    admin = tenant.admin;
    serviceId = (await createService(admin, { service_area_id: (await createServiceArea(admin, { name: 'Berlin' })).id })).id;
    const email = `starter-${Date.now()}@example.com`;
    const created = await createUser(admin, { role: 'driver', email, password: PASSWORD, name: 'Start Driver' });
    driver = { email, id: created.id, client: created.client };
  });
  afterAll(async () => app?.close());

  it('opens the tour at its first open stop on Start, and shows the return stop as soon as the dispatcher cancels a booking on board', async () => {
    const [a, b, c] = [await createBooking(admin, { service_id: serviceId }), await createBooking(admin, { service_id: serviceId }), await createBooking(admin, { service_id: serviceId })];
    const tour = await mergeIntoTour(admin, [a.id, b.id, c.id]);
    await expectOk(admin.post(`/api/hailing/tours/${tour.id}/force_assign`, { driver_id: driver.id }));
    const watched = await openPage(app, { viewport: PHONE, locale: 'en-GB', mobile: true });
    const { page, context } = watched;
    await context.grantPermissions(['geolocation'], { origin: app.url });
    await context.setGeolocation({ latitude: 52.52, longitude: 13.405, accuracy: 8 });
    await page.goto(`${app.url}/driver/`);
    await page.getByLabel('Email').fill(driver.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();

    // Start on the tours list opens the tour, at its first stop, focused.
    await page.getByRole('region', { name: 'Your tour' }).getByRole('button', { name: 'Start', exact: true }).click({ timeout: 20_000 });
    await expect.poll(() => page.evaluate<string | null>('document.activeElement?.id ?? null')).toBe(`stop-${a.stops[0].id}`);
    expect(new URL(page.url()).pathname).toBe(`/driver/tours/${tour.id}`);
    await expect.poll(async () => (await expectOk(admin.get(`/api/hailing/tours/${tour.id}`))).tour.status).toBe('en_route');

    // Completed stops first: the tour opened again on Start lands on the first stop still open (the pickup of b).
    for (const stop of [a.stops[0], a.stops[1]]) {
      for (const step of ['approach', 'arrive', 'complete']) await expectOk(driver.client.post(`/api/stops/${stop.id}/${step}`, {}));
    }
    for (const step of ['approach', 'arrive', 'complete']) await expectOk(driver.client.post(`/api/stops/${b.stops[0].id}/${step}`, {}));
    await page.reload();
    await expect.poll(() => page.locator('li.drv-stop').count()).toBe(6);

    // The dispatcher cancels b while its parcel is in the van: the return stop appears on the phone without a reload.
    await expectOk(admin.post(`/api/hailing/bookings/${b.id}/cancel`));
    await expect.poll(() => page.getByRole('heading', { name: /^Stop \d+: Return$/ }).count(), { timeout: 20_000 }).toBe(1);
    const headings = await page.locator('li.drv-stop h2').allTextContents();
    expect(headings).toEqual(['Stop 1: Pickup', 'Stop 2: Drop-off', 'Stop 3: Pickup', 'Stop 4: Return', 'Stop 5: Pickup', 'Stop 6: Drop-off']);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'driver-return-after-cancel-en-390');
    watched.expectClean();
    await context.close();
  }, 180_000);
});
