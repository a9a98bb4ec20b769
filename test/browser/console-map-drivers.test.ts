// The map's drivers on their own canvas above the map (decision 1021): each driver is drawn where its position puts
// it, a click on a driver selects its tour (our hit test, not MapLibre's), the pointer says a driver is clickable,
// and the page is checked with axe-core and photographed on a laptop and a phone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBooking, createOrganization, createService, createServiceArea, createUser, expectOk, tourEnRoute } from '../factories.ts';
import { axeViolations, LAPTOP, openPage, PHONE, screenshot, signIn, startBrowserApp, type BrowserApp } from './harness.ts';

const PASSWORD = 'correct horse battery staple';

/**
 * The markers drawn on the drivers' canvas, found by their pixels: each opaque pixel that is not the white ring,
 * grouped with those within 30 CSS pixels; centres in CSS pixels from the map's top left corner, northmost first.
 * (A string: the tests type-check against Node's types, not the DOM's.)
 */
const DRAWN_MARKERS = `(() => {
  const canvas = document.querySelector('canvas.map-drivers');
  if (!canvas || !canvas.width) return [];
  const ratio = canvas.width / canvas.getBoundingClientRect().width;
  const { data, width } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
  const groups = [];
  for (let i = 0; i < data.length; i += 4) {
    if (data[i + 3] !== 255 || (data[i] > 240 && data[i + 1] > 240 && data[i + 2] > 240)) continue;
    const x = (i / 4) % width;
    const y = Math.floor(i / 4 / width);
    let group = groups.find((g) => Math.hypot(g.x0 - x, g.y0 - y) < 30 * ratio);
    if (!group) groups.push((group = { x0: x, y0: y, sx: 0, sy: 0, n: 0 }));
    group.sx += x;
    group.sy += y;
    group.n += 1;
  }
  return groups.map((g) => ({ x: g.sx / g.n / ratio, y: g.sy / g.n / ratio })).sort((a, b) => a.y - b.y);
})()`;

describe('the drivers on the console map', () => {
  let app: BrowserApp;
  let adminEmail: string;

  beforeAll(async () => {
    app = await startBrowserApp();
    const tenant = await app.t.createTenant();
    const area = await createServiceArea(tenant.admin, { name: 'Berlin' });
    const service = await createService(tenant.admin, { service_area_id: area.id });
    const org = await createOrganization(tenant.admin, { name: 'Kurier West' });
    adminEmail = `map-drivers-${Date.now()}@example.com`;
    await createUser(tenant.admin, { role: 'admin', email: adminEmail, password: PASSWORD, name: 'Map Admin' });
    // Two drivers inside the tours' stops (52.5, 13.4 to 52.51, 13.41), which the map fits its view to: the north one
    // also east of the south one.
    for (const [name, lat, lng] of [
      ['North Driver', 52.507, 13.407],
      ['South Driver', 52.503, 13.403],
    ] as const) {
      const driver = await createUser(tenant.admin, { role: 'driver', name, organization_ids: [org.id] });
      const bookings = [await createBooking(tenant.admin, { service_id: service.id }), await createBooking(tenant.admin, { service_id: service.id })];
      const tour = await tourEnRoute(tenant.admin, bookings.map((b) => b.id), driver.id);
      const recordedAt = new Date(app.t.clock.now().getTime() + 1000).toISOString();
      await expectOk(driver.client.post(`/api/hailing/tours/${tour.id}/driver_location`, { location: { lat, lng, recorded_at: recordedAt } }));
    }
  });
  afterAll(async () => app?.close());

  it.each([
    ['a laptop', LAPTOP],
    ['a phone', PHONE],
  ] as const)('draws each driver where it is and selects the tour of the driver clicked, on %s', async (_name, viewport) => {
    {
      const watched = await openPage(app, { viewport });
      const { page } = watched;
      await signIn(page, app.url, adminEmail, PASSWORD);
      await page.getByRole('link', { name: 'Map' }).click();
      const map = page.locator('.map-canvas');
      // The stored positions are read at load: both drivers are drawn without a new fix.
      await expect.poll(() => map.getAttribute('data-drivers'), { timeout: 30_000, message: 'drivers drawn' }).toBe('2');
      await expect.poll(async () => ((await page.evaluate(DRAWN_MARKERS)) as unknown[]).length, { message: 'markers on the canvas' }).toBe(2);
      const markers = async () => (await page.evaluate(DRAWN_MARKERS)) as { x: number; y: number }[];
      const [north, south] = await markers();
      // North is up and, here, east is right: the markers sit where their positions are.
      expect(north!.x).toBeGreaterThan(south!.x + 10);
      expect(north!.y).toBeLessThan(south!.y - 10);

      await map.click({ position: north! });
      await expect.poll(() => page.getByRole('heading', { level: 3, name: 'North Driver' }).count()).toBe(1);
      // Found again: on a phone the positions found before the first click missed (the view had moved by then).
      await map.click({ position: (await markers())[1]! });
      await expect.poll(() => page.getByRole('heading', { level: 3, name: 'South Driver' }).count()).toBe(1);
      expect(await page.getByRole('button', { name: 'Show South Driver on the map', pressed: true }).count()).toBe(1);

      if (viewport === LAPTOP) {
        // The pointer over a driver says it can be clicked; away from it, the map's own cursor.
        const canvas = page.locator('canvas.maplibregl-canvas');
        await map.hover({ position: north! });
        await expect.poll(() => canvas.evaluate((el: { style: { cursor: string } }) => el.style.cursor)).toBe('pointer');
        await map.hover({ position: { x: 5, y: 5 } });
        await expect.poll(() => canvas.evaluate((el: { style: { cursor: string } }) => el.style.cursor)).toBe('');
      }
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, `console-map-drivers-${viewport.width}`);
      watched.expectClean();
      await watched.context.close();
    }
  }, 90_000);
});
