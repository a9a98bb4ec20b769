// The people's maps over the demo region's own tiles (docs/driver-app.md "Map", docs/tracking.md "Map", decisions
// 1720–1721): the driver app's tour page shows the next stop with its streets and names, keeps the tiles around the
// tour and draws them again with the network off; the tracking page draws the recipient's stop over the streets, and
// the driver once the read shows its position (contract §12). Laptop and phone, English and German, axe clean,
// nothing from another host.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importTiles } from '../../src/modules/region/tiles/index.ts';
import { createBooking, createOrganization, createService, createServiceArea, createUser, expectOk, tourEnRoute, type Client } from '../factories.ts';
import { axeViolations, LAPTOP, openPage, PHONE, screenshot, startBrowserApp, type BrowserApp } from './harness.ts';

const PASSWORD = 'correct horse battery staple';
const DEMO_TILES = path.resolve(import.meta.dirname, '../../regions/monaco.mbtiles');
// A pickup in La Condamine, a drop-off in the old town.
const PICKUP = { lat: 43.7365, lng: 7.4205 };
const DROPOFF = { lat: 43.7315, lng: 7.4197 };

/** The map's probe (web/map/probe.ts) once MapLibre settled with streets, their names and `stops` stops in view. */
async function settled(map: Locator, stops: number): Promise<void> {
  await expect.poll(async () => Number(await map.getAttribute('data-streets')), { timeout: 90_000, message: 'streets drawn' }).toBeGreaterThan(20);
  await expect.poll(async () => Number(await map.getAttribute('data-street-names')), { timeout: 60_000, message: 'street names drawn' }).toBeGreaterThan(0);
  await expect.poll(async () => Number(await map.getAttribute('data-stops')), { timeout: 30_000, message: 'stops drawn' }).toBe(stops);
}

/** What the driver app's service worker kept of the map (web/driver/sw.ts), or null before it is done. */
const KEPT = `caches.keys().then(async (keys) => {
  for (const key of keys.filter((k) => k.startsWith('tourbook-driver-map-'))) {
    const hit = await (await caches.open(key)).match('/driver/__map-kept');
    if (hit) return hit.json();
  }
  return null;
})`;

describe('the driver app and tracking page maps', () => {
  let app: BrowserApp;
  let admin: Client;
  let serviceId: string;
  let orgId: string;

  beforeAll(async () => {
    app = await startBrowserApp();
    const regionId = randomUUID();
    await app.t.deps.db.execute(sql`INSERT INTO regions (id, name, min_lat, min_lng, max_lat, max_lng, source, imported_at, counts)
      VALUES (${regionId}, 'monaco', 43.72, 7.40, 43.76, 7.44, 'monaco.osm.pbf', now(), '{}'::jsonb)`);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tourbook-maps-people-'));
    fs.copyFileSync(DEMO_TILES, path.join(dir, 'monaco.mbtiles'));
    await importTiles(app.t.deps.db, regionId, path.join(dir, 'monaco.osm.pbf'), { tilemaker: false });
    fs.rmSync(dir, { recursive: true, force: true });
    const tenant = await app.t.createTenant();
    admin = tenant.admin;
    const area = await createServiceArea(admin, {
      name: 'Monaco',
      time_zone: 'Europe/Monaco',
      boundary: { type: 'Polygon', coordinates: [[[7.409, 43.725], [7.44, 43.725], [7.44, 43.745], [7.409, 43.745], [7.409, 43.725]]] },
    });
    serviceId = (await createService(admin, { service_area_id: area.id })).id;
    orgId = (await createOrganization(admin, { name: 'Monaco Express' })).id;
  });
  afterAll(async () => app?.close());

  /** A driver of its own with one en-route tour of one booking (tests run shuffled). */
  async function scene() {
    const email = `maps-driver-${randomUUID()}@example.com`;
    const driver = await createUser(admin, { role: 'driver', name: 'Erika Mustermann', email, password: PASSWORD, organization_ids: [orgId] });
    const stops = [
      { type: 'pickup', location: PICKUP, address: { street: 'Rue Grimaldi', number: '1', city: 'Monaco' } },
      { type: 'dropoff', location: DROPOFF, address: { street: 'Rue Comte Félix Gastaldi', number: '4', city: 'Monaco' } },
    ];
    const booking = await createBooking(admin, { service_id: serviceId, stops });
    const tour = await tourEnRoute(admin, [booking.id], driver.id);
    return { email, driver, booking, tour };
  }

  const signInDriver = async (page: Page, email: string, de: boolean) => {
    await page.goto(`${app.url}/driver/`);
    await page.getByLabel(de ? 'E-Mail' : 'Email').fill(email);
    await page.getByLabel(de ? 'Passwort' : 'Password').fill(PASSWORD);
    await page.getByRole('button', { name: de ? 'Anmelden' : 'Sign in' }).click();
    await page.getByRole('button', { name: de ? 'Abmelden' : 'Sign out' }).waitFor({ timeout: 20_000 });
  };

  it.each([
    ['en', 'a phone', PHONE, 'en-GB'],
    ['de', 'a laptop', LAPTOP, 'de-DE'],
  ] as const)('the driver app (%s, %s): the next stop over its streets, kept and drawn again offline', async (lang, _name, viewport, locale) => {
    const { email, tour } = await scene();
    const watched = await openPage(app, { viewport, locale, mobile: viewport === PHONE });
    const { page, context } = watched;
    await signInDriver(page, email, lang === 'de');
    await expect.poll(() => page.evaluate('!!navigator.serviceWorker.controller'), { timeout: 30_000 }).toBe(true);
    await page.goto(`${app.url}/driver/tours/${tour.id}`);
    const section = page.getByRole('region', { name: lang === 'de' ? 'Als Nächstes: Stopp 1' : 'Next: stop 1' });
    const map = section.locator('.map-canvas');
    // The next stop (the pickup) with its number and the streets around it; the drop-off, 560 m south, is out of view.
    await settled(map, 1);
    await section.getByText('© OpenStreetMap contributors').waitFor({ state: 'visible' });
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, `maps-driver-${lang}-${viewport.width}`);
    // The service worker kept the tour's tiles, TileJSON and glyphs (bounded: at most 600 tiles).
    await expect.poll(() => page.evaluate(KEPT), { timeout: 90_000, message: 'the map kept' }).not.toBeNull();
    const kept = (await page.evaluate(KEPT)) as { files: number; bytes: number };
    expect(kept.files).toBeGreaterThan(20);
    expect(kept.files).toBeLessThanOrEqual(605);
    expect(kept.bytes).toBeGreaterThan(10_000);
    watched.expectClean();

    // No network: the page, its map chunk, the tiles and the glyphs come from the worker's caches.
    await context.setOffline(true);
    await page.reload();
    const offline = page.getByRole('region', { name: lang === 'de' ? 'Als Nächstes: Stopp 1' : 'Next: stop 1' }).locator('.map-canvas');
    await settled(offline, 1);
    await screenshot(page, `maps-driver-offline-${lang}-${viewport.width}`);
    await context.setOffline(false);
    await context.close();
  }, 300_000);

  it.each([
    ['en', 'a laptop', LAPTOP, 'en-GB'],
    ['de', 'a phone', PHONE, 'de-DE'],
  ] as const)('the tracking page (%s, %s): the stop over the streets, then the driver heading for it', async (lang, _name, viewport, locale) => {
    const { booking, tour, driver } = await scene();
    const link = new URL((await expectOk(admin.get(`/api/hailing/bookings/${booking.id}`))).booking.tracking.url).pathname;
    const watched = await openPage(app, { viewport, locale, mobile: viewport === PHONE });
    const { page } = watched;
    await page.goto(`${app.url}${link}`);
    const map = page.locator('.track-street-map .map-canvas');
    await settled(map, 1);
    expect(Number(await map.getAttribute('data-driver'))).toBe(0);
    await page.getByText('© OpenStreetMap contributors', { exact: true }).waitFor({ state: 'visible' });
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, `maps-track-${lang}-${viewport.width}`);

    // The driver's next open stop is this booking's pickup: the read shows the position, the map the driver.
    await expectOk(driver.client.post(`/api/hailing/tours/${tour.id}/driver_location`, { location: { lat: 43.7342, lng: 7.4215, recorded_at: app.t.clock.now().toISOString() } }));
    await expect.poll(async () => Number(await map.getAttribute('data-driver')), { timeout: 60_000, message: 'driver drawn' }).toBe(1);
    // The small SVG map gave way to the street map; its words stay.
    expect(await page.locator('#track-live svg').count()).toBe(0);
    await expect.poll(() => page.getByText(lang === 'de' ? /^Karte: die Fahrerin oder der Fahrer ist/ : /^Map: the driver is/).count(), { timeout: 30_000 }).toBe(1);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, `maps-track-driver-${lang}-${viewport.width}`);
    watched.expectClean();
    await watched.context.close();
  }, 300_000);
});
