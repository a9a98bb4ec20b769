// A row the import cannot locate, pinned on the map by hand (issue 37, contract §14 "Console import"): on the Monaco
// region, a file with a real house and an unknown street — the unknown row is left out in words and offers "Place row N
// on the map"; the pin (Enter on the focused map puts it at the map's centre) becomes the tenant's place of that
// address, the row imports onto it, and a second import of the file finds the address among the tenant's places.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { importRegion } from '../../src/modules/region/index.ts';
import { createPlace, createService, createServiceArea, createUser, expectOk, type Client } from '../factories.ts';
import { axeViolations, LAPTOP, openPage, PHONE, screenshot, startBrowserApp, type BrowserApp } from './harness.ts';

const PASSWORD = 'correct horse battery staple';
const MONACO = path.resolve(import.meta.dirname, '../../regions/monaco.osm.pbf');
/** Two rows: a house of the extract, and a street the region does not have (its number one per test: a new address). */
const file = (prefix: string, number: number) =>
  ['Order number,Recipient,Street,House number,Postcode,City,Country', `${prefix}-1,Léa Rossi,Quai Antoine 1er,6,98000,Monaco,MC`, `${prefix}-2,Marc Blanc,Rue Inconnue,${number},98000,Monaco,MC`, ''].join('\r\n');

const WORDS = {
  en: { email: 'Email', password: 'Password', signIn: 'Sign in', signOut: 'Sign out', bookings: 'Bookings', importCsv: 'Import CSV', csv: 'CSV file', pickup: 'Pickup place for all rows', ready: 'can be imported', pin: 'Place row 2 on the map', map: 'Map for placing the pin', pinAt: 'Pin at', save: 'Save the pin', import: 'Import', created: 'created,', pinned: 'where it was pinned', places: 'at the house · your places', notFound: "no street 'Rue Inconnue " },
  de: { email: 'E-Mail', password: 'Passwort', signIn: 'Anmelden', signOut: 'Abmelden', bookings: 'Buchungen', importCsv: 'CSV importieren', csv: 'CSV-Datei', pickup: 'Abholort für alle Zeilen', ready: 'importierbar', pin: 'Zeile 2 auf der Karte setzen', map: 'Karte zum Setzen der Markierung', pinAt: 'Markierung bei', save: 'Markierung speichern', import: 'Importieren', created: 'angelegt,', pinned: 'an der gesetzten Markierung', places: 'am Haus · Ihre Orte', notFound: 'keine Straße „Rue Inconnue ' },
} as const;

describe('pinning a row of the import on the map', () => {
  let app: BrowserApp;
  let admin: Client;
  let email: string;
  let depot: { id: string };

  beforeAll(async () => {
    app = await startBrowserApp();
    await importRegion(app.t.deps, MONACO, { name: 'monaco' });
    const tenant = await app.t.createTenant();
    admin = tenant.admin;
    const area = await createServiceArea(admin, { name: 'Monaco', time_zone: 'Europe/Monaco', country_code: 'MC' });
    await createService(admin, { service_area_id: area.id, name: 'Same day' });
    depot = await createPlace(admin, { name: 'Dépôt Fontvieille', service_area_id: area.id, location: { lat: 43.7275, lng: 7.4165 }, address: { street: 'Rue du Gabian', number: '2', zip_code: '98000', city: 'Monaco', country: 'MC' } });
    email = `dispatch-pin-${Date.now()}@example.com`;
    await createUser(admin, { role: 'admin', email, password: PASSWORD, name: 'Dora Dispatch' });
  }, 240_000);
  afterAll(async () => app?.close());

  const bookingOf = async (externalId: string) => {
    const listed = await expectOk(admin.get(`/api/hailing/bookings?filters[external_id]=${encodeURIComponent(externalId)}`));
    return listed.bookings as { id: string; stops: { place_id: string | null; location: { lat: number; lng: number } }[] }[];
  };

  async function openImport(page: Page, w: (typeof WORDS)['en' | 'de'], prefix: string, number: number) {
    await page.goto(`${app.url}/console`);
    await page.getByLabel(w.email).fill(email);
    await page.getByLabel(w.password).fill(PASSWORD);
    await page.getByRole('button', { name: w.signIn }).click();
    await page.getByRole('button', { name: w.signOut }).waitFor({ timeout: 20_000 });
    await page.getByRole('link', { name: w.bookings }).click();
    await page.getByRole('button', { name: w.importCsv }).click();
    await page.getByLabel(w.csv).setInputFiles({ name: `${prefix}.csv`, mimeType: 'text/csv', buffer: Buffer.from(file(prefix, number)) });
    await page.getByLabel(w.pickup).selectOption(depot.id);
  }

  for (const [lang, viewport, number] of [['en', LAPTOP, 3], ['de', PHONE, 5]] as const) {
    it(`pins the row that cannot be located, imports it there, and the next import finds the place (${lang}, ${viewport.width} px)`, { timeout: 240_000 }, async () => {
      const w = WORDS[lang];
      const prefix = `PIN${lang}${viewport.width}`;
      const watched = await openPage(app, { viewport, locale: lang === 'de' ? 'de-DE' : 'en-GB' });
      const { page } = watched;
      await openImport(page, w, prefix, number);
      const rowsList = page.getByRole('region', { name: lang === 'de' ? 'Zeilen der Datei' : 'Rows of the file' });
      const row2 = rowsList.getByRole('listitem', { name: lang === 'de' ? 'Zeile 2' : 'Row 2' });
      await expect.poll(() => page.getByRole('status').filter({ hasText: w.ready }).textContent(), { timeout: 120_000 }).toMatch(lang === 'de' ? /^1 Zeile importierbar/ : /^1 row can be imported/);
      expect(await page.getByText(w.notFound, { exact: false }).count()).toBeGreaterThan(0);

      await row2.getByRole('button', { name: w.pin }).click();
      const dialog = page.getByRole('dialog');
      const map = dialog.getByLabel(w.map);
      await map.waitFor({ timeout: 60_000 });
      // The keyboard's way: the focused map pans with the arrow keys, Enter sets the pin at its centre.
      await map.focus();
      await page.keyboard.press('ArrowRight');
      // The map takes the key once it has loaded its style: Enter again until the pin is set.
      await expect
        .poll(async () => {
          await map.press('Enter');
          return dialog.getByRole('status').textContent();
        }, { timeout: 60_000, interval: 1000 })
        .toMatch(new RegExp(`^${w.pinAt} 43\\.\\d+, 7\\.\\d+$`));
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, `console-import-pin-dialog-${lang}-${viewport.width}`);
      await dialog.getByRole('button', { name: w.save }).click();
      await expect.poll(() => dialog.count(), { timeout: 30_000 }).toBe(0);
      await expect.poll(() => row2.textContent(), { timeout: 30_000 }).toContain(w.pinned);
      await expect.poll(() => page.getByRole('status').filter({ hasText: w.ready }).textContent(), { timeout: 120_000 }).toMatch(lang === 'de' ? /^2 Zeilen importierbar/ : /^2 rows can be imported/);
      await page.getByRole('button', { name: w.import, exact: true }).click();
      await expect.poll(() => page.getByRole('status').filter({ hasText: w.created }).textContent(), { timeout: 120_000 }).toMatch(/^2 /);

      const [pinned] = await bookingOf(`${prefix}-2`);
      const placeId = pinned!.stops[1]!.place_id!;
      const place = (await expectOk(admin.get(`/api/places/${placeId}`))).place;
      expect(place).toMatchObject({ address: { street: 'Rue Inconnue', number: String(number), zip_code: '98000', city: 'Monaco' }, location: pinned!.stops[1]!.location });
      expect(place.location.lat).toBeGreaterThan(43.7);
      expect(place.location.lat).toBeLessThan(43.8);
      await screenshot(page, `console-import-pin-done-${lang}-${viewport.width}`);

      watched.expectClean();
      await watched.context.close();

      // The same file again under new order numbers, in a new session (the page's own memory of the pin is gone): the
      // address is found among the tenant's places, no pin needed.
      const second = await openPage(app, { viewport, locale: lang === 'de' ? 'de-DE' : 'en-GB' });
      const page2 = second.page;
      await openImport(page2, w, `${prefix}X`, number);
      const row2again = page2.getByRole('region', { name: lang === 'de' ? 'Zeilen der Datei' : 'Rows of the file' }).getByRole('listitem', { name: lang === 'de' ? 'Zeile 2' : 'Row 2' });
      await expect.poll(() => page2.getByRole('status').filter({ hasText: w.ready }).textContent(), { timeout: 120_000 }).toMatch(lang === 'de' ? /^2 Zeilen importierbar/ : /^2 rows can be imported/);
      await expect.poll(() => row2again.textContent(), { timeout: 30_000 }).toContain(w.places);
      expect(await row2again.getByRole('button', { name: w.pin }).count()).toBe(0);
      expect(await axeViolations(page2)).toEqual([]);
      await screenshot(page2, `console-import-pin-again-${lang}-${viewport.width}`);
      await page2.getByRole('button', { name: w.import, exact: true }).click();
      await expect.poll(() => page2.getByRole('status').filter({ hasText: w.created }).textContent(), { timeout: 120_000 }).toMatch(/^2 /);
      const [again] = await bookingOf(`${prefix}X-2`);
      expect(again!.stops[1]!.place_id).toBe(placeId);
      second.expectClean();
      await second.context.close();
    });
  }
});
