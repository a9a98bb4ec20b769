// The dispatch board that fits a day (issue 39, decision 1652), in Chromium through the real server: a morning's
// depot pickups are one row ("1–4. 4 pickups · Depot Alexandria") that expands and groups again by keyboard, and that
// drags as one — onto another tour it takes its bookings' open stops along; a lane's heading says who drives, the
// load and the finish; four lanes side by side on a 1440 px screen, more in the compact mode. Laptop and phone,
// English and German, axe-core.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBooking, createPlace, createService, createServiceArea, createUser, expectOk, mergeIntoTour, type Client } from '../factories.ts';
import { axeViolations, openPage, PHONE, screenshot, signIn, startBrowserApp, type BrowserApp } from './harness.ts';

const PASSWORD = 'correct horse battery staple';
const WIDE = { width: 1440, height: 900 };
/** The page reads tours, drivers and places after it shows: waits that outlast a loaded machine. */
const SOON = { timeout: 20_000 };
const laneName = (tourId: string, de = false) => new RegExp(`^${de ? 'Stopps der Tour' : 'Stops of tour'} .+ · ${tourId.slice(-8)}$`);

describe('the dispatch board that fits a day', () => {
  let app: BrowserApp;
  let admin: Client;
  let serviceId: string;
  let depotId: string;
  let driver: { id: string; email: string };
  let adminEmail: string;

  /** A booking picked up at the depot and delivered to `street`. */
  const depotBooking = (street: string) =>
    createBooking(admin, {
      service_id: serviceId,
      external_id: street,
      stops: [
        { type: 'pickup', place_id: depotId },
        { type: 'dropoff', location: { lat: 52.51, lng: 13.41 }, address: { street, number: '2', city: 'Berlin' } },
      ],
    });
  const stopsOf = async (tourId: string) => {
    const body = await expectOk(admin.get(`/api/hailing/tours/${tourId}`));
    return [...body.tour.stops].sort((a: { tour_position: number }, b: { tour_position: number }) => a.tour_position - b.tour_position) as {
      id: string;
      type: string;
      booking_id: string;
      tour_id: string;
    }[];
  };
  /** A tour of `streets`' bookings with every pickup first, in order: the morning at the depot. */
  const depotTour = async (streets: string[]) => {
    const bookings = [];
    for (const street of streets) bookings.push(await depotBooking(street));
    const tour = await mergeIntoTour(admin, bookings.map((b) => b.id));
    const pickups = (await stopsOf(tour.id)).filter((s) => s.type === 'pickup').map((s) => s.id);
    await expectOk(admin.post(`/api/hailing/tours/${tour.id}/stops/insert`, { stop_ids: pickups, position: 0 }));
    return { tour, bookings };
  };
  const open = async (viewport = WIDE, locale: 'en-GB' | 'de-DE' = 'en-GB') => {
    const watched = await openPage(app, { viewport, locale, mobile: viewport === PHONE });
    const de = locale === 'de-DE';
    if (!de) await signIn(watched.page, app.url, adminEmail, PASSWORD, '/console/dispatch');
    else {
      await watched.page.goto(`${app.url}/console/dispatch`);
      await watched.page.getByLabel('E-Mail').fill(adminEmail);
      await watched.page.getByLabel('Passwort').fill(PASSWORD);
      await watched.page.getByRole('button', { name: 'Anmelden' }).click();
    }
    await watched.page.getByRole('heading', { name: de ? 'Disposition' : 'Dispatch', level: 1 }).waitFor();
    return watched;
  };
  /** The lanes' top edges: lanes in one row share it. */
  const laneTops = (page: Page) => page.locator('.lane').evaluateAll((lanes) => lanes.map((lane) => Math.round(lane.getBoundingClientRect().top)));

  beforeAll(async () => {
    app = await startBrowserApp();
    const tenant = await app.t.createTenant();
    admin = tenant.admin;
    const area = await createServiceArea(admin, { name: 'Berlin' });
    serviceId = (await createService(admin, { service_area_id: area.id })).id;
    depotId = (await createPlace(admin, { name: 'Depot Alexandria', service_area_id: area.id })).id;
    adminEmail = `board-admin-${Date.now()}@example.com`;
    await createUser(admin, { role: 'admin', email: adminEmail, password: PASSWORD, name: 'Board Admin' });
    const email = `board-driver-${Date.now()}@example.com`;
    driver = { id: (await createUser(admin, { role: 'driver', email, password: PASSWORD, name: 'Dana Fahrer' })).id, email };
  });
  afterAll(async () => app?.close());

  it('collapses a morning of depot pickups into one row that expands and groups again by keyboard', async () => {
    const { tour } = await depotTour(['Ahornweg', 'Birkenweg', 'Eichenweg', 'Lindenweg']);
    await expectOk(admin.patch(`/api/hailing/tours/${tour.id}`, { tour: { label: 'Nord früh' } }));
    await expectOk(admin.post(`/api/hailing/tours/${tour.id}/force_assign`, { driver_id: driver.id }));
    const watched = await open();
    const { page } = watched;
    const lane = page.getByRole('grid', { name: laneName(tour.id) });
    const group = lane.getByRole('row', { name: '1–4. 4 pickups · Depot Alexandria' });
    await expect.poll(() => group.count(), SOON).toBe(1);
    // The four drop-offs stay rows of their own; the heading names the driver beside the label, and the count.
    expect(await lane.getByRole('row').count()).toBe(5);
    expect(await lane.getByRole('row', { name: '5. Drop-off · Ahornweg 2, Berlin' }).count()).toBe(1);
    const section = page.locator('.lane', { has: lane });
    await expect.poll(() => section.locator('.lane-facts').innerText(), SOON).toContain('Driver: Dana Fahrer');
    expect(await section.locator('.lane-facts').innerText()).toContain('Stops: 8');
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'board-group-1440-en');

    // Keyboard only: into the lane, to the group's row, right to its "Show" button, Enter.
    await page.keyboard.press('Tab');
    for (let i = 0; i < 60 && !(await group.evaluate((el) => el.contains(el.ownerDocument.activeElement)).catch(() => false)); i++) await page.keyboard.press('Tab');
    const show = lane.getByRole('button', { name: /^Show each of 1–4\. 4 pickups/ });
    for (let i = 0; i < 4 && !(await show.evaluate((el) => el === el.ownerDocument.activeElement)); i++) await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Enter');
    await expect.poll(() => lane.getByRole('row').count(), SOON).toBe(8);
    expect(await lane.getByRole('row', { name: /^2\. Pickup · Invalidenstraße \d+, Berlin$/ }).count()).toBe(1);
    const regroup = lane.getByRole('button', { name: 'Group the stops from stop 1 again' });
    expect(await regroup.count()).toBe(1);
    await screenshot(page, 'board-expanded-1440-en');
    await regroup.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => lane.getByRole('row').count(), SOON).toBe(5);
    watched.expectClean();
    await watched.context.close();
  }, 90_000);

  it('drags the group onto another tour: its bookings\' open stops go along, none split', async () => {
    const { tour: from, bookings } = await depotTour(['Ulmenweg', 'Weidenweg']);
    const { tour: to } = await depotTour(['Zedernweg']);
    const watched = await open();
    const { page } = watched;
    const source = page.getByRole('grid', { name: laneName(from.id) });
    const target = page.getByRole('grid', { name: laneName(to.id) });
    const group = source.getByRole('row', { name: '1–2. 2 pickups · Depot Alexandria' });
    await expect.poll(() => group.count(), SOON).toBe(1);
    await group.dragTo(target.getByRole('row', { name: '2. Drop-off · Zedernweg 2, Berlin' }), { targetPosition: { x: 40, y: 4 } });
    await expect.poll(async () => (await stopsOf(to.id)).length, SOON).toBe(6);
    const moved = await stopsOf(to.id);
    for (const b of bookings) expect(moved.filter((s) => s.booking_id === b.id).map((s) => s.type).sort()).toEqual(['dropoff', 'pickup']);
    watched.expectClean();
    await watched.context.close();
  }, 90_000);

  it('fits four lanes side by side at 1440 px, more in the compact mode; German and on a phone', async () => {
    // Its own group of four (the tests run shuffled), then eight lanes of one booking each.
    await depotTour(['Akazienweg', 'Espenweg', 'Holunderweg', 'Wacholderweg']);
    for (const street of ['Kastanienweg', 'Pappelweg', 'Tannenweg', 'Fichtenweg', 'Erlenweg', 'Buchenweg', 'Ulmenallee', 'Eibenweg']) await depotTour([street]);
    const watched = await open();
    const { page } = watched;
    await expect.poll(async () => (await laneTops(page)).length, SOON).toBeGreaterThanOrEqual(8);
    const tops = await laneTops(page);
    expect(tops.filter((top) => top === tops[0]).length).toBeGreaterThanOrEqual(4);
    await page.getByRole('button', { name: 'Compact lanes' }).click();
    await expect.poll(async () => (await laneTops(page)).filter((top, _i, all) => top === all[0]).length, SOON).toBeGreaterThanOrEqual(6);
    expect(await page.getByRole('button', { name: 'Compact lanes' }).getAttribute('aria-pressed')).toBe('true');
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'board-compact-1440-en');
    await watched.context.close();

    const de = await open(WIDE, 'de-DE');
    await expect.poll(() => de.page.getByRole('row', { name: /^1–4\. 4 Abholungen · Depot Alexandria$/ }).count(), SOON).toBeGreaterThanOrEqual(1);
    expect(await de.page.locator('.lane-facts').first().innerText()).toMatch(/Stopps: \d+/);
    expect(await axeViolations(de.page)).toEqual([]);
    await screenshot(de.page, 'board-1440-de');
    de.expectClean();
    await de.context.close();

    const phone = await open(PHONE);
    await expect.poll(() => phone.page.getByRole('row', { name: /pickups · Depot Alexandria$/ }).count(), SOON).toBeGreaterThanOrEqual(1);
    expect(await axeViolations(phone.page)).toEqual([]);
    await screenshot(phone.page, 'board-phone-en');
    phone.expectClean();
    await phone.context.close();
  }, 180_000);
});
