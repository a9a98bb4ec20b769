// The map under a burst of tour events (docs/performance.md, "The console"): each step of a stop a driver serves is a
// tour event; the map refetches its driven tours after them at most once every two seconds, not once
// per event, and still once after the last one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBooking, createOrganization, createService, createServiceArea, createUser, driveStop, tourEnRoute, type Client } from '../factories.ts';
import { openPage, signIn, startBrowserApp, type BrowserApp } from './harness.ts';

const PASSWORD = 'correct horse battery staple';

describe('the map under a burst of tour events', () => {
  let app: BrowserApp;
  let adminEmail: string;
  let driver: Client;
  let stopIds: string[];

  beforeAll(async () => {
    app = await startBrowserApp();
    const tenant = await app.t.createTenant();
    const area = await createServiceArea(tenant.admin, { name: 'Berlin' });
    const service = await createService(tenant.admin, { service_area_id: area.id });
    const org = await createOrganization(tenant.admin, { name: 'Kurier Ost' });
    adminEmail = `map-admin-${Date.now()}@example.com`;
    await createUser(tenant.admin, { role: 'admin', email: adminEmail, password: PASSWORD, name: 'Map Admin' });
    const created = await createUser(tenant.admin, { role: 'driver', name: 'Busy Driver', organization_ids: [org.id] });
    driver = created.client;
    const bookings = [];
    for (let i = 0; i < 2; i++) bookings.push(await createBooking(tenant.admin, { service_id: service.id }));
    const tour = await tourEnRoute(tenant.admin, bookings.map((b) => b.id), created.id);
    stopIds = (tour.stops as { id: string; tour_position: number }[]).sort((a, b) => a.tour_position - b.tour_position).map((s) => s.id);
  });
  afterAll(async () => app?.close());

  it('refetches the driven tours at most once every two seconds during the burst, and once after its last event', async () => {
    const watched = await openPage(app);
    const { page } = watched;
    const listRequests: number[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/hailing/tours') listRequests.push(Date.now());
    });
    await signIn(page, app.url, adminEmail, PASSWORD);
    await page.getByRole('link', { name: 'Map' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Show Busy Driver on the map' }).count(), { timeout: 30_000 }).toBe(1);
    // The stream is open once the page used its ticket; give the first load a moment to finish.
    await expect.poll(() => page.locator('[data-drawn-at]').count(), { timeout: 30_000 }).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 2_500));

    const burstStarted = Date.now();
    listRequests.length = 0;
    // 12 tour events: the four stops approached, arrived at and completed, as fast as the API answers.
    for (const stopId of stopIds) await driveStop(driver, stopId, 'completed');
    const burstEnded = Date.now();
    // The trailing refetch comes at most two seconds after the last event reached the page.
    await expect.poll(() => listRequests.some((at) => at >= burstEnded), { timeout: 15_000 }).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 2_500));

    const allowed = Math.ceil((Date.now() - burstStarted) / 2_000) + 1;
    expect(stopIds.length * 3).toBe(12);
    expect(listRequests.length).toBeLessThanOrEqual(allowed);
    expect(listRequests.length).toBeLessThan(12);
    watched.expectClean();
    await watched.context.close();
  });
});
