// The console as dispatchers use it, in Chromium through the real server: a manager sees its organization's
// bookings and not another's; failing a stop with reattempt_now shows the new stop without a reload; a bonus changes
// the total and the history; the map moves a driver as positions arrive; sign-out ends the session; the cookie
// cannot write cross-site. Every page is checked with axe-core and photographed (laptop and phone, en and de).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBooking, createOrganization, createService, createServiceArea, createUser, driveStop, expectOk, tourEnRoute, type Client } from '../factories.ts';
import { axeViolations, LAPTOP, openPage, PHONE, screenshot, signIn, startBrowserApp, type BrowserApp } from './harness.ts';

const PASSWORD = 'correct horse battery staple';

describe('the console in a browser', () => {
  let app: BrowserApp;
  let admin: Client;
  const people: Record<string, { email: string; id: string; client: Client }> = {};
  let tourId: string;
  let serviceId: string;

  beforeAll(async () => {
    app = await startBrowserApp();
    const tenant = await app.t.createTenant();
    admin = tenant.admin;
    const area = await createServiceArea(admin, { name: 'Berlin' });
    const service = await createService(admin, { service_area_id: area.id });
    serviceId = service.id;
    const orgA = await createOrganization(admin, { name: 'Kurier Nord' });
    const orgB = await createOrganization(admin, { name: 'Kurier Süd' });
    for (const [key, role, orgs] of [
      ['admin', 'admin', []],
      ['managerA', 'manager', [orgA.id]],
      ['driverA', 'driver', [orgA.id]],
    ] as const) {
      const email = `${key.toLowerCase()}-${Date.now()}@example.com`;
      const created = await createUser(admin, { role, email, password: PASSWORD, name: `${key} Person`, organization_ids: [...orgs] });
      people[key] = { email, id: created.id, client: created.client };
    }
    await createBooking(admin, { service_id: service.id, external_id: 'NORD-1', managing_organization_ids: [orgA.id] });
    await createBooking(admin, { service_id: service.id, external_id: 'SUED-1', managing_organization_ids: [orgB.id] });
    const one = await createBooking(admin, { service_id: service.id, external_id: 'TOUR-1', managing_organization_ids: [orgA.id] });
    const two = await createBooking(admin, { service_id: service.id, external_id: 'TOUR-2', managing_organization_ids: [orgA.id] });
    const tour = await tourEnRoute(admin, [one.id, two.id], people.driverA!.id);
    tourId = tour.id;
  });
  afterAll(async () => app?.close());

  it('shows a manager its organization\'s bookings and not another\'s, in English and German, on a laptop and a phone', async () => {
    for (const [locale, viewport, heading] of [
      ['en-GB', LAPTOP, 'Bookings'],
      ['de-DE', PHONE, 'Buchungen'],
    ] as const) {
      const watched = await openPage(app, { locale, viewport });
      const { page } = watched;
      await page.goto(`${app.url}/console`);
      await page.getByLabel(locale === 'en-GB' ? 'Email' : 'E-Mail').fill(people.managerA!.email);
      await page.getByLabel(locale === 'en-GB' ? 'Password' : 'Passwort').fill(PASSWORD);
      await page.getByRole('button', { name: locale === 'en-GB' ? 'Sign in' : 'Anmelden' }).click();
      await page.getByRole('link', { name: heading }).click();
      await expect.poll(() => page.getByRole('link', { name: 'NORD-1' }).count()).toBe(1);
      expect(await page.getByRole('link', { name: 'SUED-1' }).count()).toBe(0);
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, `console-bookings-manager-${locale}-${viewport.width}`);
      await page.getByRole('link', { name: locale === 'en-GB' ? 'Today' : 'Heute' }).click();
      await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(locale === 'en-GB' ? 'Today' : 'Heute');
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, `console-today-manager-${locale}-${viewport.width}`);
      watched.expectClean();
      await watched.context.close();
    }
  });

  it('fails an arrived stop with reattempt_now and shows the new stop without a reload', async () => {
    const tour = await expectOk(admin.get(`/api/hailing/tours/${tourId}`));
    const first = [...tour.tour.stops].sort((a: { tour_position: number }, b: { tour_position: number }) => a.tour_position - b.tour_position)[0];
    await driveStop(people.driverA!.client, first.id, 'arrived');
    const watched = await openPage(app);
    const { page } = watched;
    await signIn(page, app.url, people.admin!.email, PASSWORD);
    await page.goto(`${app.url}/console/tours/${tourId}`);
    const stops = page.locator('ol.timeline > li');
    await expect.poll(() => stops.count()).toBe(4);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'console-tour-en');
    await page.getByRole('button', { name: 'Fail' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Fail stop 1' });
    await dialog.getByLabel('Reattempt now (on this tour)').check();
    await dialog.getByLabel('Reason').selectOption('customer_absent');
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'console-fail-dialog-en');
    await dialog.getByRole('button', { name: 'Fail the stop' }).click();
    await expect.poll(() => stops.count()).toBe(5);
    await expect.poll(() => stops.nth(0).getByText('Failed', { exact: true }).count()).toBe(1);
    const after = await expectOk(admin.get(`/api/hailing/tours/${tourId}`));
    expect(after.tour.stops.filter((s: { recovery_kind: string | null }) => s.recovery_kind === 'reattempt')).toHaveLength(1);
    watched.expectClean();
    await watched.context.close();
  });

  it('adds a bonus and shows the new total and the history entry', async () => {
    const watched = await openPage(app);
    const { page } = watched;
    await signIn(page, app.url, people.admin!.email, PASSWORD);
    await page.goto(`${app.url}/console/tours/${tourId}`);
    await page.getByRole('button', { name: 'Add bonus' }).click();
    await page.getByLabel('Key', { exact: true }).fill('rain');
    await page.getByLabel(/^Bonus rain — Amount/).fill('7.50');
    await page.getByLabel('Label (rain)').fill('Rain');
    await page.getByRole('button', { name: 'Save' }).last().click();
    await expect.poll(() => page.getByTestId('compensation-total').textContent()).toBe('€7.50');
    await expect.poll(() => page.getByRole('table', { name: 'Change history' }).getByText('Bonus rain').count()).toBe(1);
    const compensation = await expectOk(admin.get(`/api/tours/${tourId}/compensation`));
    expect(compensation.compensation.breakdown.bonuses).toEqual([{ key: 'rain', amount: 750, label: 'Rain' }]);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'console-compensation-en');
    watched.expectClean();
    await watched.context.close();
  });

  it('moves the driver on the map as positions are posted', async () => {
    const watched = await openPage(app);
    const { page } = watched;
    await signIn(page, app.url, people.admin!.email, PASSWORD);
    await page.getByRole('link', { name: 'Map' }).click();
    const canvas = page.locator('.map-canvas');
    await expect.poll(() => canvas.count(), { timeout: 15_000 }).toBe(1);
    // The list names the driver once the tours are loaded; the stream is open when the ticket was used.
    await expect.poll(() => page.getByRole('button', { name: 'Show driverA Person on the map' }).count()).toBe(1);
    const post = async (lat: number, seconds: number) => {
      const recordedAt = new Date(app.t.clock.now().getTime() + seconds * 1000).toISOString();
      await expectOk(people.driverA!.client.post(`/api/hailing/tours/${tourId}/driver_location`, { location: { lat, lng: 13.4, recorded_at: recordedAt } }));
      return Date.parse(recordedAt);
    };
    // ~55 m every 5 s: a driver in town (a faster jump would be filtered as GPS noise and move nothing).
    for (const [lat, seconds] of [
      [52.5, 1],
      [52.5005, 6],
      [52.501, 11],
    ] as const) {
      const at = await post(lat, seconds);
      await expect.poll(() => canvas.getAttribute('data-latest-fix'), { timeout: 10_000 }).toBe(String(at));
    }
    expect(await canvas.getAttribute('data-drivers')).toBe('1');
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'console-map-en');
    watched.expectClean();
    await watched.context.close();
  });

  it('ends the session on sign-out (the cookie no longer works) and refuses a cross-site write with the cookie', async () => {
    const watched = await openPage(app);
    const { page, context } = watched;
    await signIn(page, app.url, people.admin!.email, PASSWORD);
    await expect.poll(() => page.getByRole('button', { name: 'Sign out' }).count()).toBe(1);
    const cookie = (await context.cookies()).find((c) => c.name === 'tourbook_session');
    expect(cookie?.httpOnly).toBe(true);
    expect(cookie?.sameSite).toBe('Strict');
    const header = { cookie: `tourbook_session=${cookie!.value}` };

    const crossSite = await fetch(`${app.url}/api/hailing/bookings`, {
      method: 'POST',
      headers: { ...header, 'content-type': 'application/json', 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' },
      body: JSON.stringify({ booking: { service_id: serviceId, stops: [] } }),
    });
    expect(crossSite.status).toBe(403);
    expect(((await crossSite.json()) as { error_code: string }).error_code).toBe('cross_site_request');
    expect((await fetch(`${app.url}/api/user`, { headers: header })).status).toBe(200);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Sign in' }).count()).toBe(1);
    expect((await fetch(`${app.url}/api/user`, { headers: header })).status).toBe(401);
    watched.expectClean();
    await watched.context.close();
  });
});
