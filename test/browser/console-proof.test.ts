// The console's tour page shows a completed stop's proof of delivery (decision 1250): a driver completes a stop with a
// photo, a signature, the recipient's name and a note through the API; the page shows the name and note, the photo
// as a thumbnail that links to the full image, and the signature — all loaded same-origin under the page's CSP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBooking, createService, createServiceArea, createUser, driveStop, expectOk, tourEnRoute, type Client } from '../factories.ts';
import { pngImage } from '../proof-images.ts';
import { axeViolations, openPage, screenshot, signIn, startBrowserApp, type BrowserApp } from './harness.ts';

const PASSWORD = 'correct horse battery staple';

describe('the console tour page and a proof of delivery', () => {
  let app: BrowserApp;
  let admin: Client;
  let adminEmail: string;
  let tourId: string;
  let stopId: string;

  beforeAll(async () => {
    app = await startBrowserApp();
    const tenant = await app.t.createTenant();
    admin = tenant.admin;
    const area = await createServiceArea(admin, { name: 'Berlin' });
    const service = await createService(admin, { service_area_id: area.id });
    adminEmail = `proof-admin-${Date.now()}@example.com`;
    await createUser(admin, { role: 'admin', email: adminEmail, password: PASSWORD, name: 'Proof Admin' });
    const driver = await createUser(admin, { role: 'driver', name: 'Proof Driver' });
    const booking = await createBooking(admin, { service_id: service.id, external_id: 'PROOF-1' });
    tourId = (await tourEnRoute(admin, [booking.id], driver.id)).id;
    stopId = booking.stops[0].id;
    await driveStop(driver.client, stopId, 'arrived');
    const proof = {
      photo: pngImage(160, 120, [220, 120, 40]).toString('base64'),
      signature: pngImage(180, 60, [20, 20, 20]).toString('base64'),
      recipient_name: 'Ada Lovelace',
      note: 'Handed over at the door',
    };
    await expectOk(driver.client.post(`/api/stops/${stopId}/complete`, { proof }));
  });
  afterAll(async () => app?.close());

  it('shows the recipient, the note, the photo opening the full image and the signature; axe clean', async () => {
    const watched = await openPage(app);
    const { page } = watched;
    await signIn(page, app.url, adminEmail, PASSWORD);
    await page.goto(`${app.url}/console/tours/${tourId}`);
    const first = page.locator('ol.timeline > li').first();
    await expect.poll(() => first.getByText('Received by Ada Lovelace').count()).toBe(1);
    expect(await first.getByText('Note: Handed over at the door').count()).toBe(1);

    const photo = first.getByRole('img', { name: 'Photo' });
    const signature = first.getByRole('img', { name: 'Signature' });
    // Decoded by the browser: the API answered an image the page's CSP let it load.
    await expect.poll(() => photo.evaluate((img: { complete: boolean; naturalWidth: number }) => img.complete && img.naturalWidth)).toBe(160);
    await expect.poll(() => signature.evaluate((img: { complete: boolean; naturalWidth: number }) => img.complete && img.naturalWidth)).toBe(180);
    const link = first.getByRole('link', { name: 'Photo' });
    expect(await link.getAttribute('href')).toBe(`/api/stops/${stopId}/proof/photo`);

    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'console-tour-proof-en');

    // The thumbnail opens the full image in a new tab, with the session cookie.
    const [full] = await Promise.all([page.context().waitForEvent('page'), link.click()]);
    await full.waitForLoadState();
    await expect.poll(() => full.locator('img').evaluate((img: { complete: boolean; naturalWidth: number }) => img.complete && img.naturalWidth)).toBe(160);
    watched.expectClean();
    await watched.context.close();
  });
});
