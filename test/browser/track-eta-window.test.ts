// The recipient's ETA window on the tracking page, step by step (issue 40, contract §18): while other stops come
// first, once the driver heads here from far and from near, and after delivery — read off the page as a person reads
// it ("Expected between 10:12 and 10:42"), on a phone in English and in German, axe clean and photographed at each
// step. The window is at most 30 minutes wide once the driver heads here, and narrows as the driver comes near.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBooking, createPlace, createService, createServiceArea, createUser, driveStop, expectOk, tourEnRoute, type Client } from '../factories.ts';
import { axeViolations, openPage, PHONE, screenshot, startBrowserApp, type BrowserApp } from './harness.ts';

describe('the ETA window on the tracking page', () => {
  let app: BrowserApp;
  let admin: Client;
  let serviceId: string;
  let areaId: string;

  beforeAll(async () => {
    app = await startBrowserApp({ reportsMasterKey: randomBytes(32).toString('base64') });
    admin = (await app.t.createTenant()).admin;
    areaId = (await createServiceArea(admin, { name: 'Berlin', average_speed_kmh: 36 })).id;
    serviceId = (await createService(admin, { service_area_id: areaId })).id;
  });
  afterAll(async () => app?.close());

  /** Minutes between the two times of "Expected between HH:MM and HH:MM" (en) / "Erwartet zwischen … und …" (de). */
  const widthOf = (text: string): number => {
    const [from, to] = [...text.matchAll(/(\d\d):(\d\d)/g)].map((m) => Number(m[1]) * 60 + Number(m[2]));
    return (to! - from! + 1440) % 1440;
  };

  it.each([
    ['en-GB', /^Expected between/, 'en'],
    ['de-DE', /^Erwartet zwischen/, 'de'],
  ] as const)('is wide while other stops come first, at most 30 minutes once the driver heads here, narrower near, gone after delivery (%s)', async (locale, expected, lang) => {
    const place = (lat: number) => createPlace(admin, { service_area_id: areaId, location: { lat, lng: 13.4 } });
    const [otherPickup, otherDropoff, pickup, dropoff] = await Promise.all([place(52.3), place(52.35), place(52.4), place(52.9)]);
    const other = await createBooking(admin, { service_id: serviceId, places: [otherPickup.id, otherDropoff.id] });
    const mine = await createBooking(admin, { service_id: serviceId, places: [pickup.id, dropoff.id] });
    const driver = await createUser(admin, { role: 'driver', name: 'Erika Mustermann' });
    const tour = await tourEnRoute(admin, [other.id, mine.id], driver.id);
    const order = (tour.stops as { id: string }[]).map((s) => s.id);
    // Each position `minutes` after the last, at a speed a van makes (a faster one is a GPS jump, and not taken).
    const post = (lat: number, minutes = 1) => {
      app.t.clock.advance(minutes * 60_000);
      return expectOk(driver.client.post(`/api/hailing/tours/${tour.id}/driver_location`, { location: { lat, lng: 13.4, recorded_at: app.t.clock.now().toISOString() } }));
    };
    await post(52.44);
    const path = new URL((await expectOk(admin.get(`/api/hailing/bookings/${mine.id}`))).booking.tracking.url).pathname;

    const watched = await openPage(app, { locale, viewport: PHONE, mobile: true });
    const { page } = watched;
    await page.goto(`${app.url}${path}`);
    const eta = page.locator('.track-eta');
    const step = async (name: string) => {
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, `track-eta-${lang}-${name}`);
    };

    // Before: the other booking's stops come first — the window is the queue's, a fifth of the time to go each way.
    await expect.poll(() => eta.count(), { timeout: 15_000 }).toBe(1);
    expect(await eta.textContent()).toMatch(expected);
    const before = widthOf((await eta.textContent())!);
    expect(before).toBeGreaterThan(30);
    await step('before');

    // During, far: every stop before the drop-off done, the driver 50 km out — the window is capped at 30 minutes.
    for (const id of order.slice(0, order.indexOf(mine.stops[1].id))) await driveStop(driver.client, id, 'completed');
    await post(52.45);
    await expect.poll(async () => widthOf((await eta.textContent()) ?? ''), { timeout: 20_000 }).toBeLessThanOrEqual(30);
    const far = widthOf((await eta.textContent())!);
    expect(far).toBeGreaterThanOrEqual(29); // ± 15 minutes, give or take the minutes the page rounds to
    await step('heading-far');

    // During, near: 2 km out, 45 minutes later — about six minutes wide.
    await post(52.882, 45);
    await expect.poll(async () => widthOf((await eta.textContent()) ?? ''), { timeout: 20_000 }).toBeLessThan(far);
    const near = widthOf((await eta.textContent())!);
    expect(near).toBeLessThanOrEqual(7);
    await step('heading-near');

    // After: delivered — no window any more, the time it was done instead.
    await driveStop(driver.client, mine.stops[1].id, 'completed');
    await expect.poll(() => eta.count(), { timeout: 20_000 }).toBe(0);
    expect(await page.getByText(lang === 'en' ? /^Done at \d\d:\d\d$/ : /^Erledigt um \d\d:\d\d$/).count()).toBe(1);
    await step('after');
    watched.expectClean();
    await watched.context.close();
  });
});
