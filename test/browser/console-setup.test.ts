// The day's set-up in the console through the real server (issue 37, docs/console.md "Services" and "Shifts"): a
// service created (a bad stop type refused at its field) and edited; a week of shifts for eight drivers made from one
// day — one shift by hand, the rest of Monday, then Monday copied to Tuesday–Friday by keyboard — an overlap refused in
// words, a shift edited and one deleted; times on the service area's clock (Monaco); English and German, laptop and
// phone, axe-clean. A user invited by e-mail sets a password with the link and is signed in; the link works once.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/sql.ts';
import { createOrganization, createPlace, createServiceArea, createUser, expectOk, type Client } from '../factories.ts';
import { axeViolations, openPage, PHONE, screenshot, signIn, startBrowserApp, type BrowserApp } from './harness.ts';

const PASSWORD = 'correct horse battery staple';
const MONDAY = '2026-12-07';
const DRIVERS = ['Anna Adler', 'Bruno Berger', 'Chiara Conti', 'Dario Duval', 'Elena Ernst', 'Felix Faure', 'Greta Gallo', 'Hugo Hart'];

describe('the console\'s set-up pages in a browser', () => {
  let app: BrowserApp;
  let admin: Client;
  let email: string;
  let areaId: string;
  let depotId: string;
  const drivers: { id: string; name: string }[] = [];

  beforeAll(async () => {
    app = await startBrowserApp();
    const tenant = await app.t.createTenant();
    admin = tenant.admin;
    const area = await createServiceArea(admin, { name: 'Monaco', time_zone: 'Europe/Monaco' });
    areaId = area.id;
    const org = await createOrganization(admin, { name: 'Riviera Kurier', service_area_ids: [area.id] });
    depotId = (await createPlace(admin, { name: 'Depot Fontvieille', is_hub: true, service_area_id: area.id, location: { lat: 43.7285, lng: 7.4155 } })).id;
    for (const name of DRIVERS) drivers.push({ id: (await createUser(admin, { role: 'driver', name, organization_ids: [org.id] })).id, name });
    email = `setup-admin-${Date.now()}@example.com`;
    await createUser(admin, { role: 'admin', name: 'Ada Admin', email, password: PASSWORD });
  }, 180_000);
  afterAll(async () => {
    await app?.close();
  });

  const shiftsOf = async (driverId: string) =>
    (await expectOk(admin.get(`/api/drivers/${driverId}/shifts?filters[from]=2026-12-07T00:00:00Z&filters[to]=2026-12-14T00:00:00Z&limit=100`))).shifts as { id: string; starts_at: string; ends_at: string; start_place_id: string | null }[];

  it('creates a service (a bad stop type refused at its field) and edits it', { timeout: 240_000 }, async () => {
    const watched = await openPage(app);
    const { page } = watched;
    await signIn(page, app.url, email, PASSWORD);
    await page.goto(`${app.url}/console/settings/services`);
    await page.getByRole('button', { name: 'New service' }).click();
    const form = page.getByRole('dialog', { name: 'New service' });
    await form.getByLabel('Name', { exact: true }).fill('Riviera same day');
    await form.getByLabel('Service area').selectOption({ label: 'Monaco' });
    await form.getByLabel('Stop types').fill('pickup, dropoff, Cold Box');
    await form.getByLabel('Most stops per tour').fill('60');
    await form.getByRole('group', { name: 'Delivery proof required' }).getByLabel('Photo').check();
    await form.getByRole('group', { name: 'Failure outcomes for driver' }).getByLabel('Return now').uncheck();
    await form.getByRole('button', { name: 'Create' }).click();
    // The API's pattern error shows at the field, in words.
    const stopTypes = form.getByLabel('Stop types');
    await expect.poll(() => stopTypes.getAttribute('aria-invalid')).toBe('true');
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'console-setup-service-error-en-GB-1366');
    await stopTypes.fill('pickup, dropoff, return');
    await form.getByLabel('Stop type for returns').selectOption('return');
    await form.getByRole('button', { name: 'Create' }).click();
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    const row = page.getByRole('row').filter({ hasText: 'Riviera same day' });
    await expect.poll(() => row.count()).toBe(1);

    const services = (await expectOk(admin.get('/api/admin/hailing/services'))).services as { id: string; name: string; [k: string]: unknown }[];
    const made = services.find((s) => s.name === 'Riviera same day')!;
    expect(made).toMatchObject({ service_area_id: areaId, stop_types: ['pickup', 'dropoff', 'return'], return_stop_type: 'return', max_stops_per_tour: 60, force_delivery_proof: ['photo'] });
    expect((made.failure_outcomes as { driver: string[] }).driver).not.toContain('return_now');

    await page.getByRole('button', { name: 'Edit Riviera same day' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Riviera same day' });
    await edit.getByLabel('Dispatch mode').selectOption({ label: 'Automatic' });
    await edit.getByLabel('Stop type for returns').selectOption({ label: 'None: no returns' });
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    await expect.poll(() => row.textContent()).toContain('Automatic');
    expect((await expectOk(admin.get(`/api/admin/hailing/services/${made.id}`))).service).toMatchObject({ dispatch_mode: 'auto', return_stop_type: null });
    watched.expectClean();
    await watched.context.close();
  });

  it('makes a week of shifts for eight drivers by copying one day, refuses an overlap in words, edits and deletes a shift', { timeout: 300_000 }, async () => {
    const watched = await openPage(app);
    const { page } = watched;
    await signIn(page, app.url, email, PASSWORD);
    await page.getByRole('link', { name: 'Shifts' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Shifts' }).count()).toBe(1);
    // The zone is said once, on the page.
    await expect.poll(() => page.locator('.times-note').allInnerTexts()).toEqual([expect.stringMatching(/^Times: .+ \(Europe\/Monaco\)$/)]);
    await page.getByLabel('Day', { exact: true }).fill(MONDAY);

    // One shift by hand: 07:00–15:00 on Monaco's clock is 06:00–14:00 UTC in December.
    await page.getByRole('button', { name: 'Add a shift for Anna Adler' }).click();
    const form = page.getByRole('dialog', { name: 'New shift' });
    await form.getByLabel('Starts', { exact: true }).fill('07:00');
    await form.getByLabel('Ends', { exact: true }).fill('15:00');
    await form.getByLabel('Starts at').selectOption({ label: 'Depot Fontvieille' });
    await form.getByLabel('Parcels the vehicle carries').fill('120');
    await form.getByLabel('Skills').fill('cooling');
    await form.getByRole('button', { name: 'Create shift' }).click();
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    const anna = drivers[0]!;
    const [first] = await shiftsOf(anna.id);
    expect(first).toMatchObject({ starts_at: '2026-12-07T06:00:00.000Z', ends_at: '2026-12-07T14:00:00.000Z', start_place_id: depotId });
    const annaRow = page.getByRole('row').filter({ hasText: 'Anna Adler' });
    await expect.poll(() => annaRow.textContent()).toContain('07:00–15:00');
    expect(await annaRow.textContent()).toContain('Depot Fontvieille');

    // An overlapping shift is refused at its start, naming the other shift on the area's clock.
    await page.getByRole('button', { name: 'Add a shift for Anna Adler' }).click();
    await form.getByLabel('Starts', { exact: true }).fill('14:00');
    await form.getByLabel('Ends', { exact: true }).fill('18:00');
    await form.getByRole('button', { name: 'Create shift' }).click();
    await expect.poll(() => form.getByText('The driver already has a shift at that time.').count()).toBe(1);
    const said = await form.textContent();
    expect(said).toMatch(/It overlaps Anna Adler, Monday.* 07:00–15:00\./);
    expect(said).not.toContain(first!.id);
    expect(await axeViolations(page)).toEqual([]);
    await form.getByRole('button', { name: 'Cancel' }).click();

    // The other seven Mondays through the API, as the first.
    for (const driver of drivers.slice(1)) {
      await expectOk(admin.post(`/api/drivers/${driver.id}/shifts`, { shift: { starts_at: '2026-12-07T06:00:00Z', ends_at: '2026-12-07T14:00:00Z', start_place_id: depotId } }), 201);
    }
    await page.reload();
    await page.getByLabel('Day', { exact: true }).fill(MONDAY);
    await expect.poll(() => page.getByRole('row').filter({ hasText: '07:00–15:00' }).count()).toBe(8);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'console-setup-shifts-day-en-GB-1366');

    // Monday copied to Tuesday–Friday for all drivers, keyboard only.
    await page.getByRole('button', { name: 'Copy a day…' }).focus();
    await page.keyboard.press('Enter');
    const copy = page.getByRole('dialog', { name: 'Copy a day to other days' });
    await expect.poll(() => copy.count()).toBe(1);
    for (let i = 0; i < 20 && (await page.evaluate('document.activeElement?.textContent')) !== 'The rest of the work week'; i++) await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    expect(await copy.getByRole('checkbox', { checked: true }).count()).toBe(4);
    await screenshot(page, 'console-setup-shifts-copy-en-GB-1366');
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement?.textContent')).toBe('Copy');
    await page.keyboard.press('Enter');
    await expect.poll(() => copy.getByText('32 shifts created.').count(), { timeout: 30_000 }).toBe(1);
    for (const driver of drivers) {
      const week = await shiftsOf(driver.id);
      expect(week.map((s) => s.starts_at)).toEqual(['07', '08', '09', '10', '11'].map((d) => `2026-12-${d}T06:00:00.000Z`));
    }
    // Copying again creates nothing: each refusal in words, with the driver and the day.
    await copy.getByRole('button', { name: 'Copy' }).click();
    await expect.poll(() => copy.getByText('32 not created:').count(), { timeout: 30_000 }).toBe(1);
    expect(await copy.textContent()).toMatch(/Hugo Hart, Friday.*: The driver already has a shift at that time\./);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);

    // One driver's week: edit Wednesday, delete Friday.
    await page.getByLabel('View').selectOption({ label: 'One week, one driver' });
    await page.getByLabel('Driver', { exact: true }).selectOption({ label: 'Bruno Berger' });
    const week = page.getByRole('table', { name: /Shifts of Bruno Berger/ });
    await expect.poll(() => week.getByRole('row').filter({ hasText: '07:00–15:00' }).count()).toBe(5);
    await week.getByRole('button', { name: /^Edit the shift Bruno Berger, Wednesday/ }).click();
    const edit = page.getByRole('dialog', { name: /^Edit the shift Bruno Berger, Wednesday/ });
    await edit.getByLabel('Starts', { exact: true }).fill('08:00');
    await edit.getByLabel('Ends', { exact: true }).fill('16:30');
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    await week.getByRole('button', { name: /^Delete the shift Bruno Berger, Friday/ }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => week.getByRole('row').filter({ hasText: '07:00–15:00' }).count()).toBe(3);
    expect(await week.textContent()).toContain('08:00–16:30');
    const bruno = await shiftsOf(drivers[1]!.id);
    expect(bruno.map((s) => [s.starts_at, s.ends_at])).toEqual([
      ['2026-12-07T06:00:00.000Z', '2026-12-07T14:00:00.000Z'],
      ['2026-12-08T06:00:00.000Z', '2026-12-08T14:00:00.000Z'],
      ['2026-12-09T07:00:00.000Z', '2026-12-09T15:30:00.000Z'],
      ['2026-12-10T06:00:00.000Z', '2026-12-10T14:00:00.000Z'],
    ]);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'console-setup-shifts-week-en-GB-1366');
    watched.expectClean();
    await watched.context.close();
  });

  it('shows the shifts in German on a phone', { timeout: 240_000 }, async () => {
    const watched = await openPage(app, { viewport: PHONE, locale: 'de-DE', mobile: true });
    const { page } = watched;
    await page.goto(`${app.url}/console/shifts`);
    await page.getByLabel('E-Mail').fill(email);
    await page.getByLabel('Passwort').fill(PASSWORD);
    await page.getByRole('button', { name: 'Anmelden' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Schichten' }).count()).toBe(1);
    await expect.poll(() => page.locator('.times-note').allInnerTexts()).toEqual([expect.stringMatching(/^Zeitangaben: .+ \(Europe\/Monaco\)$/)]);
    // Its own day (tests run in random order): a shift for every driver on Tuesday the 15th, 07:00–15:00 in Monaco.
    for (const driver of drivers) {
      await expectOk(admin.post(`/api/drivers/${driver.id}/shifts`, { shift: { starts_at: '2026-12-15T06:00:00Z', ends_at: '2026-12-15T14:00:00Z', start_place_id: depotId } }), 201);
    }
    await page.getByLabel('Tag', { exact: true }).fill('2026-12-15');
    await expect.poll(() => page.getByRole('row').filter({ hasText: '07:00–15:00' }).count()).toBe(drivers.length);
    expect(await page.getByRole('button', { name: 'Einen Tag kopieren…' }).count()).toBe(1);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'console-setup-shifts-day-de-DE-390');
    await page.goto(`${app.url}/console/settings/services`);
    await page.getByRole('button', { name: 'Neuer Service' }).click();
    await expect.poll(() => page.getByRole('dialog', { name: 'Neuer Service' }).count()).toBe(1);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'console-setup-service-new-de-DE-390');
    watched.expectClean();
    await watched.context.close();
  });

  it('invites a user by e-mail; the link sets the password and signs in, once', { timeout: 240_000 }, async () => {
    const watched = await openPage(app);
    const { page } = watched;
    await signIn(page, app.url, email, PASSWORD);
    await page.goto(`${app.url}/console/settings/users`);
    await page.getByRole('button', { name: 'New user' }).click();
    const form = page.getByRole('dialog', { name: 'New user' });
    const invitee = `mara-${Date.now()}@example.com`;
    await form.getByLabel('Name', { exact: true }).fill('Mara Manager');
    await form.getByLabel('Email').fill(invitee);
    await form.getByLabel('Role').selectOption({ label: 'Manager' });
    await form.getByRole('checkbox', { name: 'Riviera Kurier' }).check();
    expect(await form.getByRole('checkbox', { name: /E-mail an invitation/ }).isChecked()).toBe(true);
    await form.getByRole('button', { name: 'Create' }).click();
    await expect.poll(() => page.getByText(`Invitation sent to ${invitee}.`).count()).toBe(1);
    await watched.context.close();

    const rows = await queryRows<{ payload: { to: string[]; text: string } }>(app.t.deps.db, sql`SELECT payload FROM jobs WHERE kind = 'mail.send'`);
    const mail = rows.find((r) => r.payload.to.includes(invitee))!;
    const link = /(\S+\/console\/welcome#token=\S+)/.exec(mail.payload.text)![1]!;
    const path = link.slice(link.indexOf('/console/'));

    const invited = await openPage(app, { locale: 'de-DE' });
    await invited.page.goto(`${app.url}${path}`);
    await expect.poll(() => invited.page.getByRole('heading', { name: 'Willkommen bei Tourbook' }).count()).toBe(1);
    // The token leaves the address bar at once.
    expect(invited.page.url()).not.toContain('token');
    expect(await axeViolations(invited.page)).toEqual([]);
    await screenshot(invited.page, 'console-setup-welcome-de-DE-1366');
    await invited.page.getByLabel('Neues Passwort').fill('Maras eigenes Passwort');
    await invited.page.getByLabel('Passwort wiederholen').fill('Maras eigenes Passwort');
    await invited.page.getByRole('button', { name: 'Passwort festlegen und anmelden' }).click();
    await invited.page.getByRole('button', { name: 'Abmelden' }).waitFor({ timeout: 20_000 });
    expect(await invited.page.getByText(/Mara Manager/).count()).toBeGreaterThan(0);
    invited.expectClean();
    await invited.context.close();

    // The same link a second time: refused in words, nothing changed.
    const again = await openPage(app, { viewport: PHONE, mobile: true });
    await again.page.goto(`${app.url}${path}`);
    await again.page.getByLabel('New password').fill('another password entirely');
    await again.page.getByLabel('Repeat the password').fill('another password entirely');
    await again.page.getByRole('button', { name: 'Set password and sign in' }).click();
    await expect.poll(() => again.page.getByText('This link has been used already.', { exact: false }).count()).toBe(1);
    expect(await axeViolations(again.page)).toEqual([]);
    await screenshot(again.page, 'console-setup-welcome-used-en-GB-390');
    await again.context.close();
    await signIn((await openPage(app)).page, app.url, invitee, 'Maras eigenes Passwort');
  });
});
