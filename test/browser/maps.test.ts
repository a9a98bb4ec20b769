// Maps you can read (docs/console.md "Maps", decisions 1540–1544): the console's map and tour pages over the demo
// region's own tiles — streets and their names drawn, each tour in its own colour with its number, the OpenStreetMap
// attribution, opened on the service area shown — on a laptop and a phone, English and German, axe clean, nothing
// from another host.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importTiles } from '../../src/modules/region/tiles/index.ts';
import { readOsmFile } from '../../src/modules/region/index.ts';
import { roadsStep } from '../../src/modules/region/roads/step.ts';
import { createBooking, createOrganization, createService, createServiceArea, createUser, expectOk, tourEnRoute } from '../factories.ts';
import { axeViolations, LAPTOP, openPage, PHONE, screenshot, signIn, startBrowserApp, type BrowserApp } from './harness.ts';

const PASSWORD = 'correct horse battery staple';
const STRAIGHT_ETA = { en: 'Estimated in a straight line — no road data', de: 'Luftlinien-Schätzung — keine Straßendaten' } as const;
const DEMO_TILES = path.resolve(import.meta.dirname, '../../regions/monaco.mbtiles');
const MONACO_PBF = path.resolve(import.meta.dirname, '../../regions/monaco.osm.pbf');
// Two tours in Monaco, on streets of the old town and of La Condamine.
const TOURS = [
  [
    [43.7315, 7.4197],
    [43.7329, 7.4235],
  ],
  [
    [43.7365, 7.4205],
    [43.7384, 7.4246],
  ],
] as const;

describe('maps you can read', () => {
  let app: BrowserApp;
  let adminEmail: string;
  let tourId: string;
  /** Another tenant's tour in Berlin, which no region holds: its ETAs are straight-line estimates (decision 1702). */
  let berlinAdminEmail: string;
  let berlinTourId: string;

  beforeAll(async () => {
    app = await startBrowserApp();
    const regionId = randomUUID();
    await app.t.deps.db.execute(sql`INSERT INTO regions (id, name, min_lat, min_lng, max_lat, max_lng, source, imported_at, counts)
      VALUES (${regionId}, 'monaco', 43.72, 7.40, 43.76, 7.44, 'monaco.osm.pbf', now(), '{}'::jsonb)`);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tourbook-maps-browser-'));
    fs.copyFileSync(DEMO_TILES, path.join(dir, 'monaco.mbtiles'));
    // The region's roads too: the tour page draws its route along them (contract §15).
    await roadsStep.run(app.t.deps.db, regionId, await readOsmFile(MONACO_PBF), { path: MONACO_PBF });
    await importTiles(app.t.deps.db, regionId, path.join(dir, 'monaco.osm.pbf'), { tilemaker: false });
    fs.rmSync(dir, { recursive: true, force: true });

    const tenant = await app.t.createTenant();
    // A second area far away: the map must open on Monaco's, not on both.
    await createServiceArea(tenant.admin, { name: 'Berlin', boundary: { type: 'Polygon', coordinates: [[[13.3, 52.4], [13.5, 52.4], [13.5, 52.6], [13.3, 52.6], [13.3, 52.4]]] } });
    const area = await createServiceArea(tenant.admin, {
      name: 'Monaco',
      time_zone: 'Europe/Monaco',
      boundary: { type: 'Polygon', coordinates: [[[7.409, 43.725], [7.44, 43.725], [7.44, 43.745], [7.409, 43.745], [7.409, 43.725]]] },
    });
    const service = await createService(tenant.admin, { service_area_id: area.id });
    const org = await createOrganization(tenant.admin, { name: 'Monaco Express' });
    adminEmail = `maps-${Date.now()}@example.com`;
    await createUser(tenant.admin, { role: 'admin', email: adminEmail, password: PASSWORD, name: 'Maps Admin' });
    for (const [k, [from, to]] of TOURS.entries()) {
      const driver = await createUser(tenant.admin, { role: 'driver', name: `Driver ${k + 1}`, organization_ids: [org.id] });
      const stops = [
        { type: 'pickup', location: { lat: from[0], lng: from[1] }, address: { street: 'Rue Grimaldi', number: String(k + 1), city: 'Monaco' } },
        { type: 'dropoff', location: { lat: to[0], lng: to[1] }, address: { street: 'Boulevard Albert 1er', number: String(k + 10), city: 'Monaco' } },
      ];
      const booking = await createBooking(tenant.admin, { service_id: service.id, stops });
      const tour = await tourEnRoute(tenant.admin, [booking.id], driver.id);
      // A position computes the tour's ETAs (on the region's roads here).
      await expectOk(driver.client.post(`/api/hailing/tours/${tour.id}/driver_location`, { location: { lat: from[0], lng: from[1], recorded_at: app.t.clock.now().toISOString() } }));
      tourId ??= tour.id;
    }

    const berlin = await app.t.createTenant();
    const berlinArea = await createServiceArea(berlin.admin, { name: 'Berlin', time_zone: 'Europe/Berlin' });
    const berlinService = await createService(berlin.admin, { service_area_id: berlinArea.id });
    berlinAdminEmail = `maps-berlin-${Date.now()}@example.com`;
    await createUser(berlin.admin, { role: 'admin', email: berlinAdminEmail, password: PASSWORD, name: 'Berlin Admin' });
    const berlinDriver = await createUser(berlin.admin, { role: 'driver', name: 'Driver Berlin' });
    const berlinTour = await tourEnRoute(berlin.admin, [(await createBooking(berlin.admin, { service_id: berlinService.id })).id], berlinDriver.id);
    await expectOk(berlinDriver.client.post(`/api/hailing/tours/${berlinTour.id}/driver_location`, { location: { lat: 52.49, lng: 13.39, recorded_at: app.t.clock.now().toISOString() } }));
    berlinTourId = berlinTour.id;
  }, 240_000);
  afterAll(async () => app?.close());

  /** Signs in with the labels of the page's language (the harness's signIn reads the English ones). */
  const signInAs = async (page: Page, lang: 'en' | 'de', email = adminEmail) => {
    if (lang === 'en') return signIn(page, app.url, email, PASSWORD);
    await page.goto(`${app.url}/console`);
    await page.getByLabel('E-Mail').fill(email);
    await page.getByLabel('Passwort').fill(PASSWORD);
    await page.getByRole('button', { name: 'Anmelden' }).click();
    await page.getByRole('button', { name: 'Abmelden' }).waitFor({ timeout: 20_000 });
  };

  /** The map's probe (web/map/probe.ts) once MapLibre settled with something drawn; names show from zoom 13. */
  const settled = async (page: Page) => {
    const map = page.locator('.map-canvas').first();
    await expect.poll(async () => Number(await map.getAttribute('data-streets')), { timeout: 60_000, message: 'streets drawn' }).toBeGreaterThan(20);
    // Zoomed in a step at a time (the map's own "+" button) until names are drawn: at most three steps, each only once
    // the map has settled on the one before (a busy machine renders slowly; clicking on would overshoot the tiles).
    await expect
      .poll(
        async () =>
          (await page.evaluate(`(() => {
            const c = document.querySelector('.map-canvas');
            if (Number(c.dataset.streetNames) > 0) return true;
            const steps = Number(c.dataset.testZoomSteps || 0);
            if (steps < 3 && c.dataset.testZoomAt !== c.dataset.streets) {
              c.dataset.testZoomSteps = String(steps + 1);
              c.dataset.testZoomAt = c.dataset.streets;
              c.querySelector('.maplibregl-ctrl-zoom-in').click();
            }
            return false;
          })()`)) as boolean,
        { timeout: 90_000, interval: 3000, message: 'street names drawn' },
      )
      .toBe(true);
    await expect.poll(async () => Number(await map.getAttribute('data-street-names')), { timeout: 30_000, message: 'street names drawn' }).toBeGreaterThan(0);
    return map;
  };

  it.each([
    ['en', 'a laptop', LAPTOP, 'en-GB', 'Map'],
    ['de', 'a phone', PHONE, 'de-DE', 'Karte'],
    ['en', 'a phone', PHONE, 'en-GB', 'Map'],
    ['de', 'a laptop', LAPTOP, 'de-DE', 'Karte'],
  ] as const)('the console map (%s, %s): streets and names of Monaco, each tour its colour, the attribution, only Monaco', async (lang, _name, viewport, locale, link) => {
    const watched = await openPage(app, { viewport, locale });
    const { page } = watched;
    await signInAs(page, lang);
    await page.getByRole('link', { name: link }).click();
    const map = await settled(page);
    await expect.poll(async () => (await map.getAttribute('data-tour-colors'))?.split(' ').length, { timeout: 30_000, message: 'two tour colours' }).toBe(2);
    expect((await map.getAttribute('data-tour-colors'))!.split(' ').sort()).toEqual(['#0072B2', '#D55E00'].sort());
    // Both tours drawn along their routes on Monaco's roads (GET …/route), not as straight lines between their stops.
    await expect.poll(async () => await map.getAttribute('data-road-routes'), { timeout: 30_000, message: 'the tours along the roads' }).toBe('2');
    await page.getByText('© OpenStreetMap contributors').waitFor({ state: 'visible' });
    // Opened on Monaco's area, chosen for its tours: Berlin is the other choice, not part of the view.
    expect(await page.getByLabel(lang === 'de' ? 'Servicegebiet' : 'Service area').locator('option:checked').textContent()).toBe('Monaco');
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, `maps-console-map-${lang}-${viewport.width}`);
    watched.expectClean();
    await watched.context.close();
  }, 180_000);

  it.each([
    ['en', LAPTOP, 'en-GB'],
    ['de', PHONE, 'de-DE'],
  ] as const)('the tour page (%s, %j): the tour over the streets along its route on the roads, its stops numbered', async (lang, viewport, locale) => {
    const watched = await openPage(app, { viewport, locale });
    const { page } = watched;
    const notFound: string[] = [];
    page.on('response', (response) => {
      if (response.status() === 404) notFound.push(response.url());
    });
    await signInAs(page, lang);
    await page.goto(`${app.url}/console/tours/${tourId}`);
    const map = await settled(page);
    await expect.poll(async () => (await map.getAttribute('data-tour-colors')) ?? '', { timeout: 30_000 }).toBe('#0072B2');
    // The route from GET …/route, along the roads: a line of many points through the tour's two stops, said in words.
    await expect.poll(async () => await map.getAttribute('data-travel-source'), { timeout: 30_000, message: 'the route drawn' }).toBe('road_network');
    expect(Number(await map.getAttribute('data-route-points'))).toBeGreaterThan(5);
    await page.getByText(lang === 'de' ? /Verbleibende Route: [\d,]+ km/ : /Remaining route: [\d.]+ km/).waitFor({ state: 'visible' });
    expect(await page.getByRole('note').count()).toBe(0);
    // ETAs on the roads: shown, and not said to be straight-line estimates.
    await page.getByText(lang === 'de' ? /Ankunft \d/ : /ETA \d/).first().waitFor({ state: 'visible' });
    expect(await page.getByText(STRAIGHT_ETA[lang]).count()).toBe(0);
    expect(notFound, 'no request answered 404').toEqual([]);
    await page.getByText('© OpenStreetMap contributors').waitFor({ state: 'visible' });
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, `maps-console-tour-${lang}-${viewport.width}`);
    watched.expectClean();
    await watched.context.close();
  }, 180_000);

  it.each([
    ['en', LAPTOP, 'en-GB'],
    ['de', PHONE, 'de-DE'],
    ['en', PHONE, 'en-GB'],
    ['de', LAPTOP, 'de-DE'],
  ] as const)('the tour page of a tour no region holds (%s, %j): each ETA said in words to be a straight-line estimate', async (lang, viewport, locale) => {
    const watched = await openPage(app, { viewport, locale });
    const { page } = watched;
    await signInAs(page, lang, berlinAdminEmail);
    await page.goto(`${app.url}/console/tours/${berlinTourId}`);
    // Both open stops have an ETA from straight lines, and each says so beside it (contract §15, decision 1702).
    await expect.poll(async () => page.getByText(STRAIGHT_ETA[lang]).count(), { timeout: 30_000, message: 'the straight-line words' }).toBe(2);
    expect(await page.getByText(lang === 'de' ? /Ankunft \d/ : /ETA \d/).count()).toBe(2);
    // The route is drawn (straight too) before the picture is taken.
    await expect.poll(async () => page.locator('.map-canvas').first().getAttribute('data-travel-source'), { timeout: 30_000, message: 'the route drawn' }).toBe('straight_line');
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, `maps-console-tour-straight-${lang}-${viewport.width}`);
    watched.expectClean();
    await watched.context.close();
  }, 180_000);
});
