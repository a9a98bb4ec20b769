// The booking timeline in Chromium through the real server (decision 1662): a manager of the booking's organization
// reads it in German with every event in words — labels, statuses, the failure's reason and outcome, never a key —
// axe-clean on a laptop and a phone; a manager of another organization gets the booking's "not found" in words.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createBooking, createOrganization, createService, createServiceArea, createUser, driveStop, expectOk, tourEnRoute, type Client } from '../factories.ts';
import { axeViolations, LAPTOP, openPage, PHONE, screenshot, type BrowserApp, startBrowserApp } from './harness.ts';

const PASSWORD = 'correct horse battery staple';
const KEYS = /booking\.|tour\.|customer_absent|skip_recovery|to_be_dispatched|_dispatched\b|in_transit|awaiting_pickup/;

describe('the booking timeline in a browser', () => {
  let app: BrowserApp;
  let admin: Client;
  let bookingId: string;
  const managers: Record<'A' | 'B', { email: string }> = { A: { email: '' }, B: { email: '' } };

  beforeAll(async () => {
    app = await startBrowserApp();
    const tenant = await app.t.createTenant();
    admin = tenant.admin;
    const area = await createServiceArea(admin, { name: 'Berlin' });
    const service = await createService(admin, { service_area_id: area.id });
    const orgA = await createOrganization(admin, { name: 'Kurier Nord' });
    const orgB = await createOrganization(admin, { name: 'Kurier Süd' });
    for (const [key, org] of [['A', orgA.id], ['B', orgB.id]] as const) {
      managers[key].email = `timeline-manager-${key.toLowerCase()}-${Date.now()}@example.com`;
      await createUser(admin, { role: 'manager', email: managers[key].email, password: PASSWORD, name: `Manager ${key}`, organization_ids: [org] });
    }
    const driver = await createUser(admin, { role: 'driver', organization_ids: [orgA.id] });
    const booking = await createBooking(admin, { service_id: service.id, external_id: 'VERLAUF-1', managing_organization_ids: [orgA.id] });
    bookingId = booking.id;
    await tourEnRoute(admin, [booking.id], driver.id);
    const [pickup, dropoff] = booking.stops as { id: string }[];
    await driveStop(driver.client, pickup!.id, 'completed');
    await driveStop(driver.client, dropoff!.id, 'arrived');
    await expectOk(driver.client.post(`/api/stops/${dropoff!.id}/fail`, { outcome: 'skip_recovery', reason_key: 'customer_absent', note: 'Zweimal geklingelt' }));
  }, 120_000);
  afterAll(async () => app?.close());

  const signInDe = async (page: Page, email: string) => {
    await page.goto(`${app.url}/console`);
    await page.getByLabel('E-Mail').fill(email);
    await page.getByLabel('Passwort').fill(PASSWORD);
    await page.getByRole('button', { name: 'Anmelden' }).click();
    await page.getByRole('button', { name: 'Abmelden' }).waitFor({ timeout: 20_000 });
  };

  it('shows the organization’s manager the timeline in German, in words, on a laptop and a phone', { timeout: 180_000 }, async () => {
    for (const viewport of [LAPTOP, PHONE]) {
      const watched = await openPage(app, { locale: 'de-DE', viewport });
      const { page } = watched;
      await signInDe(page, managers.A.email);
      await page.goto(`${app.url}/console/bookings/${bookingId}`);
      const timeline = page.getByRole('region', { name: 'Verlauf' });
      await expect.poll(() => timeline.getByText('Stopp fehlgeschlagen').count(), { timeout: 30_000 }).toBe(1);
      expect(await timeline.getByText('Buchung erstellt').count()).toBe(1);
      expect(await timeline.getByText(/Grund: Niemand angetroffen · keine Wiederholung/).count()).toBe(1);
      expect(await timeline.getByText('Notiz des Fahrers: Zweimal geklingelt').count()).toBe(1);
      expect(await timeline.getByText('Wartet auf Disposition → Disponiert').count()).toBeGreaterThan(0);
      await page.waitForLoadState('networkidle');
      const shown = (await page.locator('main').innerText()).replace(/VERLAUF-1/g, '');
      expect(shown).not.toMatch(KEYS);
      expect(await axeViolations(page), `booking ${viewport.width}`).toEqual([]);
      await screenshot(page, `console-booking-timeline-manager-de-DE-${viewport.width}`);
      watched.expectClean();
      await watched.context.close();
    }
  });

  it('tells a manager of another organization in words that the booking is not there, and shows no timeline', { timeout: 120_000 }, async () => {
    const watched = await openPage(app, { locale: 'de-DE', viewport: LAPTOP });
    const { page } = watched;
    await signInDe(page, managers.B.email);
    await page.goto(`${app.url}/console/bookings/${bookingId}`);
    await expect.poll(() => page.getByRole('alert').count(), { timeout: 30_000 }).toBeGreaterThan(0);
    expect(await page.getByRole('region', { name: 'Verlauf' }).count()).toBe(0);
    expect(await page.getByText('Stopp fehlgeschlagen').count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'console-booking-timeline-other-manager-de-DE-1366');
    await watched.context.close();
  });
});
