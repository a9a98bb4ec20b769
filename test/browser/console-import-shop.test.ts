// Importing a shop's export in Chromium through the real server (issue 37, contract §14 "Console import"): a German
// file of 200 rows with bad rows of every kind — the preview's words at their rows, nothing written — imported, then
// imported again after signing out and in (nothing new: "already imported" with links), a row a script created
// first named as already imported; files the parser cannot read cleanly (an unterminated quote) import nothing; UTF-16
// and Windows-1252 files read right; hostile files (5 MB in one cell, 10,000 rows, every script) never a 5xx.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createPlace, createService, createServiceArea, createUser, expectOk, type Client } from '../factories.ts';
import { axeViolations, LAPTOP, openPage, PHONE, screenshot, signIn, startBrowserApp, type BrowserApp } from './harness.ts';

const PASSWORD = 'correct horse battery staple';
const HEAD = 'Bestellnummer;Empfänger;Straße;Hausnummer;PLZ;Ort;Land;Telefon;E-Mail;Datum;Zeitfenster von;Zeitfenster bis;Pakete;Bemerkungen;Sprache;lat;lng';
const STREETS = ['Boulevard des Moulins', 'Rue Grimaldi', 'Avenue de la Costa', 'Boulevard Princesse Charlotte', 'Rue Caroline'];

/** Row n of the German file; the bad rows are bad in exactly one way each. */
function germanRow(n: number, prefix: string): string {
  const cells = {
    id: `${prefix}-${n}`,
    name: `Empfänger ${n}`,
    street: STREETS[n % STREETS.length]!,
    number: String(1 + (n % 30)),
    zip: '98000',
    city: 'Monaco',
    country: 'MC',
    phone: `+377 93 ${String(10 + Math.floor(n / 100) % 90).padStart(2, '0')} ${String(n % 100).padStart(2, '0')} 00`,
    email: `kunde${n}@example.com`,
    date: '01.12.2026',
    from: '14:00',
    to: '16:00',
    parcels: String(1 + (n % 3)),
    notes: n % 7 === 0 ? '"Klingeln; dann warten"' : '',
    lang: n % 2 ? 'de' : 'en',
    lat: (43.73 + (n % 50) / 10_000).toFixed(5),
    lng: (7.42 + (n % 40) / 10_000).toFixed(5),
  };
  if (n === 10) cells.email = 'bob@';
  if (n === 20) cells.to = '13:00';
  if (n === 30) cells.parcels = 'two';
  if (n === 40) cells.id = `${prefix}-5`;
  if (n === 50) cells.lang = 'Klingonisch';
  if (n === 60) cells.phone = '12';
  if (n === 70) cells.from = 'mittags';
  if (n === 80) cells.lat = 'north';
  if (n === 90) cells.city = '';
  return Object.values(cells).join(';');
}
const BAD = [10, 20, 30, 40, 50, 60, 70, 80, 90];
const germanFile = (prefix: string, rows = 200) => `${[HEAD, ...Array.from({ length: rows }, (_, i) => germanRow(i + 1, prefix))].join('\r\n')}\r\n`;

describe('importing a shop’s export in the console', () => {
  let app: BrowserApp;
  let admin: Client;
  let email: string;
  let serviceId: string;
  let depot: { id: string; name: string };

  beforeAll(async () => {
    app = await startBrowserApp();
    const tenant = await app.t.createTenant();
    admin = tenant.admin;
    const area = await createServiceArea(admin, { name: 'Monaco', time_zone: 'Europe/Monaco', country_code: 'MC' });
    serviceId = (await createService(admin, { service_area_id: area.id, name: 'Same day' })).id;
    depot = await createPlace(admin, { name: 'Dépôt Fontvieille', service_area_id: area.id, location: { lat: 43.7275, lng: 7.4165 }, address: { street: 'Rue du Gabian', number: '2', zip_code: '98000', city: 'Monaco', country: 'MC' } });
    email = `dispatch-shop-${Date.now()}@example.com`;
    await createUser(admin, { role: 'admin', email, password: PASSWORD, name: 'Dora Dispatch' });
  });
  afterAll(async () => app?.close());

  const bookingsWith = async (prefix: string) => {
    const found: { id: string; external_id: string | null }[] = [];
    let cursor: string | null = null;
    do {
      const body: { bookings: unknown[]; meta: { next_cursor: string | null } } = await expectOk(admin.get(`/api/hailing/bookings?limit=100&view=compact${cursor ? `&cursor=${cursor}` : ''}`));
      found.push(...(body.bookings as { id: string; external_id: string | null }[]));
      cursor = body.meta.next_cursor;
    } while (cursor);
    return found.filter((b) => b.external_id?.startsWith(`${prefix}-`));
  };

  const openImport = async (page: Page) => {
    await page.getByRole('link', { name: 'Bookings' }).click();
    await page.getByRole('button', { name: 'Import CSV' }).click();
  };
  const choose = async (page: Page, name: string, content: string | Buffer) =>
    page.getByLabel('CSV file').setInputFiles({ name, mimeType: 'text/csv', buffer: typeof content === 'string' ? Buffer.from(content) : content });
  const previewStatus = (page: Page) => page.getByRole('status').filter({ hasText: 'rows can be imported' });

  it('previews a German file of 200 rows with every kind of bad row in words at its row, imports the rest once, and nothing again after signing out and in', { timeout: 300_000 }, async () => {
    // A script created B-7 before: the import names it as already imported.
    const scripted = await expectOk(admin.post('/api/hailing/bookings', { booking: { service_id: serviceId, external_id: 'B-7', stops: [{ type: 'pickup', place_id: depot.id }, { type: 'dropoff', place_id: depot.id }] } }), 201);
    const watched = await openPage(app, { viewport: LAPTOP });
    const { page } = watched;
    await signIn(page, app.url, email, PASSWORD);
    await openImport(page);
    await choose(page, 'lieferungen.csv', germanFile('B'));
    await expect.poll(() => page.getByText('200 rows, 17 columns read from lieferungen.csv.').count()).toBe(1);
    // No pickup column: one select for all rows; the mapping's own pickup control has another name.
    await page.getByLabel('Pickup place for all rows').selectOption(depot.id);
    expect(await page.getByLabel('Pickup place id').inputValue()).toBe('');
    expect(await page.getByLabel('Recipient').inputValue()).toBe('1');
    expect(await page.getByLabel('Drop-off window end').inputValue()).toBe('11');

    await expect.poll(() => previewStatus(page).textContent(), { timeout: 120_000 }).toBe('190 rows can be imported, 1 already imported, 9 with errors.');
    const errors = page.getByRole('table', { name: 'Rows with errors' });
    expect(await errors.getByRole('rowheader').allTextContents()).toEqual(BAD.map(String));
    const texts = await errors.locator('tbody tr').allTextContents();
    expect(texts.slice(0, 5)).toEqual([
      "10B-10E-mail'bob@' is not an e-mail address",
      '20B-20Drop-off window endwindow ends before it starts',
      "30B-30Parcels'two' is not a number of parcels",
      '40B-5Order number (external id)order B-5 is already in row 5',
      "50B-50Language'Klingonisch' is not a language the messages are written in (English, German)",
    ]);
    expect(texts[5]).toMatch(/^60B-60Phone.+/);
    expect(texts.slice(6)).toEqual(["70B-70Drop-off window start'mittags' is not a date and time", "80B-80Latitude'north' is not a coordinate", '90B-90Cityno city']);
    await page.getByText('1 already imported', { exact: true }).click();
    expect(await page.getByRole('link', { name: 'Row 7: order B-7' }).getAttribute('href')).toBe(`/console/bookings/${scripted.booking.id}`);
    expect(await bookingsWith('B'), 'the preview writes nothing').toHaveLength(1);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'console-import-shop-preview-en-1366');

    await page.getByRole('button', { name: 'Import', exact: true }).click();
    const summary = page.getByRole('status').filter({ hasText: 'created' });
    await expect.poll(() => summary.textContent(), { timeout: 120_000 }).toBe('190 created, 1 already imported, 9 failed.');
    const imported = await bookingsWith('B');
    expect(imported).toHaveLength(191);
    const one = await expectOk(admin.get(`/api/hailing/bookings/${imported.find((b) => b.external_id === 'B-3')!.id}`));
    expect(one.booking.stops[1].contact).toMatchObject({ name: 'Empfänger 3', email: 'kunde3@example.com', locale: 'de' });
    // 14:00–16:00 on 1 December in Monaco is 13:00–15:00 UTC.
    expect([Date.parse(one.booking.stops[1].time_window.starts_at), Date.parse(one.booking.stops[1].time_window.ends_at)]).toEqual([Date.parse('2026-12-01T13:00:00Z'), Date.parse('2026-12-01T15:00:00Z')]);
    expect(one.booking.packages).toHaveLength(1);
    await screenshot(page, 'console-import-shop-done-en-1366');

    // Signed out and in again: a new session, and the same file creates nothing new.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await signIn(page, app.url, email, PASSWORD);
    await openImport(page);
    await choose(page, 'lieferungen.csv', germanFile('B'));
    await page.getByLabel('Pickup place for all rows').selectOption(depot.id);
    await expect.poll(() => previewStatus(page).textContent(), { timeout: 120_000 }).toBe('0 rows can be imported, 191 already imported, 9 with errors.');
    await page.getByText('191 already imported', { exact: true }).click();
    expect(await page.getByRole('link', { name: /^Row \d+: order B-\d+$/ }).count()).toBe(191);
    // Importing anyway creates nothing: every row is already imported or left out.
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await expect.poll(() => summary.textContent(), { timeout: 120_000 }).toBe('0 created, 191 already imported, 9 failed.');
    expect(await bookingsWith('B')).toHaveLength(191);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'console-import-shop-reimport-en-1366');
    watched.expectClean();
    await watched.context.close();
  });

  it('reads Shopify’s order export as it is: one booking per order, its line items’ quantities its parcels', { timeout: 120_000 }, async () => {
    const watched = await openPage(app, { viewport: LAPTOP });
    const { page } = watched;
    await signIn(page, app.url, email, PASSWORD);
    await openImport(page);
    await choose(page, 'orders_export_1.csv', readFileSync(new URL('../fixtures/shopify-orders-export.csv', import.meta.url)));
    await expect.poll(() => page.getByText('10 rows, 79 columns read from orders_export_1.csv.').count()).toBe(1);
    expect(await page.getByText('Recognized as a Shopify order export', { exact: false }).count()).toBe(1);
    await page.getByLabel('Pickup place for all rows').selectOption(depot.id);
    expect(await page.getByLabel('Order number (external id)').inputValue()).toBe('0');
    expect(await page.getByLabel('Recipient').inputValue()).toBe('34');
    const list = page.getByRole('region', { name: 'Rows of the file' });
    await expect.poll(() => list.locator('li[aria-label^="Row"]').evaluateAll((items) => items.map((i) => i.getAttribute('aria-label')))).toEqual(['Row 1', 'Row 3', 'Row 4', 'Row 7', 'Row 8', 'Row 9']);
    const row4 = list.getByRole('listitem', { name: 'Row 4' });
    expect(await row4.textContent()).toContain('#1003');
    expect(await row4.textContent()).toContain('6 parcels');
    expect(await row4.textContent()).toContain('Sophie Martin');
    expect(await list.getByRole('listitem', { name: 'Row 1' }).textContent()).toContain('Boulevard des Moulins 12, 98000 Monaco, MC');
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'console-import-shopify-en-1366');
    watched.expectClean();
    await watched.context.close();
  });

  it('imports nothing from a file with an unterminated quote and names its row', { timeout: 120_000 }, async () => {
    const watched = await openPage(app, { viewport: LAPTOP });
    const { page } = watched;
    await signIn(page, app.url, email, PASSWORD);
    await openImport(page);
    const lines = germanFile('Q', 5).split('\r\n');
    lines[2] = lines[2]!.replace(/;[^;]*;de;/, ';"unterminated; quote;de;').replace(/;[^;]*;en;/, ';"unterminated; quote;en;');
    await choose(page, 'kaputt.csv', lines.join('\r\n'));
    await expect.poll(() => page.getByRole('alert').filter({ hasText: 'not read cleanly' }).count()).toBe(1);
    const table = page.getByRole('table', { name: 'Problems reading the file' });
    expect(await table.locator('tbody tr').allTextContents()).toEqual(['2a quote opens a cell and is never closed: every line after it would be read into this cell']);
    expect(await page.getByRole('button', { name: 'Import', exact: true }).count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'console-import-unterminated-en-1366');
    expect(await bookingsWith('Q')).toHaveLength(0);
    watched.expectClean();
    await watched.context.close();
  });

  it('reads UTF-16 and Windows-1252 files, saying which', { timeout: 180_000 }, async () => {
    const watched = await openPage(app, { viewport: LAPTOP });
    const { page } = watched;
    await signIn(page, app.url, email, PASSWORD);
    await openImport(page);
    const text = germanFile('U', 3).replace('Empfänger 1', 'Jürgen Groß €');
    await choose(page, 'utf16.csv', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]));
    await expect.poll(() => page.getByText('Read as UTF-16 (little-endian), as the file says.').count()).toBe(1);
    await page.getByLabel('Pickup place for all rows').selectOption(depot.id);
    await expect.poll(() => previewStatus(page).textContent(), { timeout: 60_000 }).toBe('3 rows can be imported, 0 already imported, 0 with errors.');
    expect(await page.getByRole('region', { name: 'Rows of the file' }).getByText('Jürgen Groß €').count()).toBe(1);

    // Windows-1252: é, ß, ü and € in their single bytes; not UTF-8, so read as Windows-1252 with a note.
    // Latin-1 writes U+0080 as the byte 0x80, which is the € in Windows-1252.
    await choose(page, 'ansi.csv', Buffer.from(text.replace('Jürgen Groß €', 'Jürgen Groß Café \x80'), 'latin1'));
    await expect.poll(() => page.getByText('This file is not UTF-8: it was read as Windows-1252', { exact: false }).count()).toBe(1);
    await expect.poll(() => previewStatus(page).textContent(), { timeout: 60_000 }).toBe('3 rows can be imported, 0 already imported, 0 with errors.');
    expect(await page.getByRole('region', { name: 'Rows of the file' }).getByText('Jürgen Groß Café €').count()).toBe(1);
    expect(await page.getByLabel('Recipient').inputValue()).toBe('1');
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'console-import-cp1252-en-1366');
    watched.expectClean();
    await watched.context.close();
  });

  it('survives hostile files: 5 MB in one cell, 10,000 rows, addresses in every script — never a 5xx, nothing half-written', { timeout: 300_000 }, async () => {
    const watched = await openPage(app, { viewport: LAPTOP });
    const { page } = watched;
    const serverErrors: string[] = [];
    page.on('response', (response) => {
      if (response.status() >= 500) serverErrors.push(`${response.status()} ${response.url()}`);
    });
    await signIn(page, app.url, email, PASSWORD);
    await openImport(page);
    // 5 MB in one notes cell: longer than the API takes, named at its column before anything is sent.
    const big = `${HEAD}\r\n${germanRow(1, 'H').replace(/;;(de|en);/, `;"${'x'.repeat(5 * 1024 * 1024)}";$1;`)}\r\n`;
    await choose(page, 'big.csv', big);
    await page.getByLabel('Pickup place for all rows').selectOption(depot.id);
    await expect.poll(() => previewStatus(page).textContent(), { timeout: 120_000 }).toBe('0 rows can be imported, 0 already imported, 1 with errors.');
    expect(await page.getByRole('table', { name: 'Rows with errors' }).locator('tbody tr').first().textContent()).toBe('1H-1Drop-off notesis longer than 2000 characters');

    // Every script in names, streets and notes.
    const scripts = ['Ελένη Παπαδοπούλου', 'Алексей Смирнов', 'محمد الأمين', 'דוד כהן', '王小明', '山田太郎', '김민준', 'राहुल शर्मा', 'สมชาย ใจดี', 'Nguyễn Văn An', '🚚📦'];
    const scriptRows = scripts.map((s, i) => germanRow(i + 101, 'S').replace(`Empfänger ${i + 101}`, s).replace(STREETS[(i + 101) % STREETS.length]!, `${s} Street`));
    await choose(page, 'scripts.csv', `${HEAD}\r\n${scriptRows.join('\r\n')}\r\n`);
    await expect.poll(() => previewStatus(page).textContent(), { timeout: 120_000 }).toBe(`${scripts.length} rows can be imported, 0 already imported, 0 with errors.`);
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'created' }).textContent(), { timeout: 120_000 }).toBe(`${scripts.length} created, 0 already imported, 0 failed.`);
    const written = await bookingsWith('S');
    expect(written).toHaveLength(scripts.length);
    const sample = await expectOk(admin.get(`/api/hailing/bookings/${written.find((b) => b.external_id === 'S-105')!.id}`));
    expect(sample.booking.stops[1].contact.name).toBe(scripts[4]);

    // 10,000 rows: read, listed (virtualized), every row checked; all but 200 refused by the page (an e-mail that is
    // not one), so the server checks 200 in its dry run.
    const many = germanFile('M', 10_000).split('\r\n').map((line, i) => (i > 200 && line ? line.replace(/kunde\d+@example\.com/, 'kunde@') : line));
    await choose(page, 'many.csv', many.join('\r\n'));
    await expect.poll(() => page.getByText('10000 rows, 17 columns read from many.csv.').count(), { timeout: 60_000 }).toBe(1);
    await expect.poll(() => previewStatus(page).textContent(), { timeout: 240_000 }).toBe('191 rows can be imported, 0 already imported, 9809 with errors.');
    expect(await page.getByRole('region', { name: 'Rows of the file' }).locator('li[aria-label]').count()).toBeLessThan(100);
    expect(await bookingsWith('M')).toHaveLength(0);
    expect(serverErrors).toEqual([]);
    watched.expectClean();
    await watched.context.close();
  });

  it('shows the import on a phone in German', { timeout: 180_000 }, async () => {
    const watched = await openPage(app, { viewport: PHONE, locale: 'de-DE' });
    const { page } = watched;
    await page.goto(`${app.url}/console`);
    await page.getByLabel('E-Mail').fill(email);
    await page.getByLabel('Passwort').fill(PASSWORD);
    await page.getByRole('button', { name: 'Anmelden' }).click();
    await page.getByRole('link', { name: 'Buchungen' }).click();
    await page.getByRole('button', { name: 'CSV importieren' }).click();
    await page.getByLabel('CSV-Datei').setInputFiles({ name: 'lieferungen.csv', mimeType: 'text/csv', buffer: Buffer.from(germanFile('D', 30)) });
    await page.getByLabel('Abholort für alle Zeilen').selectOption(depot.id);
    const status = page.getByRole('status').filter({ hasText: 'importierbar' });
    await expect.poll(() => status.textContent(), { timeout: 60_000 }).toBe('27 Zeilen importierbar, 0 bereits importiert, 3 mit Fehlern.');
    expect(await page.getByRole('table', { name: 'Zeilen mit Fehlern' }).locator('tbody tr').allTextContents()).toEqual([
      '10D-10E-Mail„bob@“ ist keine E-Mail-Adresse',
      '20D-20Zustellfenster EndeZeitfenster endet, bevor es beginnt',
      '30D-30Pakete„two“ ist keine Paketanzahl',
    ]);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'console-import-shop-preview-de-390');
    watched.expectClean();
    await watched.context.close();
  });
});
