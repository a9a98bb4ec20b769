// The recipient's options on the tracking page (decision 1788) in Chromium through the real server. Instructions for
// the driver: given by keyboard alone on a phone, refused in words at the field when the neighbour has no name, seen
// by the driver on the stop in the driver app, and said in words (German) once the delivery is done. A later day:
// allowed by an admin in the console, chosen and confirmed by the recipient in German, shown on the booking's page.
// axe clean, photographed, no request to another host.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBooking, createPlace, createService, createServiceArea, createUser, driveStop, expectOk, mergeIntoTour, tourEnRoute, type Client } from '../factories.ts';
import { axeViolations, LAPTOP, openPage, PHONE, screenshot, signIn, startBrowserApp, type BrowserApp } from './harness.ts';

describe("the recipient's options in a browser", () => {
  let app: BrowserApp;
  let admin: Client;
  const PASSWORD = 'correct horse battery staple';

  beforeAll(async () => {
    app = await startBrowserApp({ reportsMasterKey: randomBytes(32).toString('base64') });
    admin = (await app.t.createTenant()).admin;
  });
  afterAll(async () => app?.close());

  it('takes them by keyboard on a phone, names a missing neighbour at its field, and shows them to the driver; read-only in German after delivery', async () => {
    const area = await createServiceArea(admin, { name: 'Berlin' });
    const service = await createService(admin, { service_area_id: area.id });
    const places = await Promise.all([0, 1].map((i) => createPlace(admin, { service_area_id: area.id, location: { lat: 52.5 + i * 0.01, lng: 13.4 } })));
    const booking = await createBooking(admin, { service_id: service.id, places: places.map((p) => p.id) });
    const email = `instructed-${Date.now()}@example.com`;
    const driver = await createUser(admin, { role: 'driver', email, password: PASSWORD, name: 'Erika Mustermann' });
    const tour = await tourEnRoute(admin, [booking.id], driver.id);
    const path = new URL((await expectOk(admin.get(`/api/hailing/bookings/${booking.id}`))).booking.tracking.url).pathname;
    const token = path.split('/').pop()!;

    const watched = await openPage(app, { locale: 'en-GB', viewport: PHONE, mobile: true });
    const { page } = watched;
    await page.goto(`${app.url}${path}`);
    const section = page.getByRole('region', { name: 'Instructions for the driver' });
    await expect.poll(() => section.count(), { timeout: 15_000 }).toBe(1);
    expect(await section.getByLabel('Keep it and try again').isChecked()).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'track-instructions-phone-en');

    // Keyboard only: the arrow keys move the choice, Tab goes on to the neighbour's field, Enter sends.
    await section.getByLabel('Keep it and try again').focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    expect(await section.getByLabel('Give it to a neighbour').isChecked()).toBe(true);
    await page.keyboard.press('Tab');
    expect(await page.evaluate<string | null>('document.activeElement?.id ?? null')).toBe('track-neighbour');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Code 4711');
    await page.keyboard.press('Enter'); // a new line in the note, not a send
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    // Nobody named: refused at the field, in words, and nothing kept.
    await expect.poll(() => section.getByText('Name the neighbour who may take the parcel.').count(), { timeout: 15_000 }).toBe(1);
    expect(await section.getByLabel("Neighbour's name and door").getAttribute('aria-invalid')).toBe('true');
    expect(await page.evaluate<string | null>('document.activeElement?.id ?? null')).toBe('track-neighbour');
    expect((await expectOk(app.t.anonymous.get(`/api/tracking/${token}/instructions`))).instructions.kind).toBe('none');
    await screenshot(page, 'track-instructions-phone-en-error');

    await page.keyboard.type('Mme Rossi, 2nd floor');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await expect.poll(() => section.getByText(/^Saved at \d\d:\d\d\. The driver will see them\.$/).count(), { timeout: 15_000 }).toBe(1);
    expect(await section.getByLabel("Neighbour's name and door").getAttribute('aria-invalid')).toBeNull();
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'track-instructions-phone-en-saved');
    expect((await expectOk(app.t.anonymous.get(`/api/tracking/${token}/instructions`))).instructions).toMatchObject({ kind: 'neighbour', neighbour: 'Mme Rossi, 2nd floor', note: 'Code 4711' });

    // Opened again, the page shows what was given.
    await page.reload();
    await expect.poll(() => section.getByLabel('Give it to a neighbour').isChecked(), { timeout: 15_000 }).toBe(true);
    expect(await section.getByLabel("Neighbour's name and door").inputValue()).toBe('Mme Rossi, 2nd floor');
    watched.expectClean();
    await watched.context.close();

    // The driver reads them on the drop-off in the driver app.
    const phone = await openPage(app, { locale: 'en-GB', viewport: PHONE, mobile: true });
    await phone.page.goto(`${app.url}/driver/`);
    await phone.page.getByLabel('Email').fill(email);
    await phone.page.getByLabel('Password').fill(PASSWORD);
    await phone.page.getByRole('button', { name: 'Sign in' }).click();
    await phone.page.getByRole('button', { name: 'Sign out' }).waitFor({ timeout: 20_000 });
    await phone.page.goto(`${app.url}/driver/tours/${tour.id}`);
    const dropoff = phone.page.locator('li.drv-stop').filter({ has: phone.page.getByRole('heading', { name: /Drop-off$/ }) });
    await expect.poll(() => dropoff.getByText("Recipient's instructions").count(), { timeout: 20_000 }).toBe(1);
    expect(await dropoff.getByText('Give it to a neighbour: Mme Rossi, 2nd floor · Code 4711').count()).toBe(1);
    expect(await axeViolations(phone.page)).toEqual([]);
    await screenshot(phone.page, 'driver-recipient-instructions');
    phone.expectClean();
    await phone.context.close();

    // Delivered: the page says what was asked, in German, and offers no form any more.
    for (const stop of booking.stops as { id: string }[]) await driveStop(driver.client, stop.id, 'completed');
    const de = await openPage(app, { locale: 'de-DE', viewport: PHONE, mobile: true });
    await de.page.goto(`${app.url}${path}`);
    const done = de.page.getByRole('region', { name: 'Hinweise für die Fahrerin oder den Fahrer' });
    await expect.poll(() => done.getByText('Ihre Hinweise: Bei einem Nachbarn abgeben').count(), { timeout: 15_000 }).toBe(1);
    expect(await done.getByText('Nachbar: Mme Rossi, 2nd floor').count()).toBe(1);
    expect(await done.getByRole('button').count()).toBe(0);
    expect(await axeViolations(de.page)).toEqual([]);
    await screenshot(de.page, 'track-instructions-phone-de-done');
    de.expectClean();
    await de.context.close();
  });

  it('offers the form in German on a laptop while the driver heads there', async () => {
    const area = await createServiceArea(admin, { name: 'Berlin Mitte' });
    const service = await createService(admin, { service_area_id: area.id });
    const booking = await createBooking(admin, { service_id: service.id });
    const driver = await createUser(admin, { role: 'driver', name: 'Erika Mustermann' });
    await tourEnRoute(admin, [booking.id], driver.id);
    await driveStop(driver.client, booking.stops[0].id, 'completed');
    const path = new URL((await expectOk(admin.get(`/api/hailing/bookings/${booking.id}`))).booking.tracking.url).pathname;
    const watched = await openPage(app, { locale: 'de-DE', viewport: LAPTOP });
    await watched.page.goto(`${app.url}${path}`);
    const section = watched.page.getByRole('region', { name: 'Hinweise für die Fahrerin oder den Fahrer' });
    await expect.poll(() => section.getByRole('button', { name: 'Hinweise speichern' }).count(), { timeout: 15_000 }).toBe(1);
    await section.getByLabel('Vor der Tür abstellen').check();
    await section.getByLabel(/Hinweis für die Zustellung/).fill('Hinter dem Tor');
    await section.getByRole('button', { name: 'Hinweise speichern' }).click();
    await expect.poll(() => section.getByText(/^Gespeichert um \d\d:\d\d\./).count(), { timeout: 15_000 }).toBe(1);
    // The neighbour's field belongs to its choice only.
    expect(await section.getByLabel('Name und Tür des Nachbarn').isVisible()).toBe(false);
    expect(await axeViolations(watched.page)).toEqual([]);
    await screenshot(watched.page, 'track-instructions-laptop-de');
    watched.expectClean();
    await watched.context.close();
  });

  it('lets an admin offer later days in the console, and the recipient move the delivery once, confirmed, in German on a phone', async () => {
    app.t.clock.set('2026-06-01T08:00:00Z');
    const area = await createServiceArea(admin, { name: 'Potsdam' });
    const service = await createService(admin, { service_area_id: area.id });
    const booking = await createBooking(admin, {
      service_id: service.id,
      stops: [
        { type: 'pickup', location: { lat: 52.4, lng: 13.06 }, address: { street: 'Breite Straße', number: '1', city: 'Potsdam' }, time_window: { starts_at: '2026-06-02T07:00:00Z', ends_at: '2026-06-02T08:00:00Z' } },
        { type: 'dropoff', location: { lat: 52.41, lng: 13.07 }, address: { street: 'Lindenstraße', number: '5', city: 'Potsdam' }, time_window: { starts_at: '2026-06-02T12:00:00Z', ends_at: '2026-06-02T14:00:00Z' } },
      ],
    });
    await mergeIntoTour(admin, [booking.id]);
    const adminEmail = `days-${Date.now()}@example.com`;
    await createUser(admin, { role: 'admin', email: adminEmail, password: PASSWORD, name: 'Ada Admin' });

    // The admin offers three later days for the area.
    const desk = await openPage(app, { locale: 'en-GB', viewport: LAPTOP });
    await signIn(desk.page, app.url, adminEmail, PASSWORD);
    await desk.page.goto(`${app.url}/console/settings/service-areas`);
    await desk.page.getByRole('button', { name: 'Edit Potsdam' }).click({ timeout: 20_000 });
    const form = desk.page.getByRole('dialog', { name: 'Edit Potsdam' });
    const days = form.getByLabel('Recipients may move a delivery by up to (days)');
    expect(await days.inputValue()).toBe('0');
    await days.fill('15');
    await form.getByRole('button', { name: 'Save' }).click();
    // Over the limit: the browser says so at the field (its own words, from max=14) and nothing is sent.
    expect(await days.evaluate((el) => (el as { validationMessage: string }).validationMessage)).toMatch(/14/);
    expect((await expectOk(admin.get(`/api/admin/service_areas/${area.id}`))).service_area.recipient_reschedule_days).toBe(0);
    await days.fill('3');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect.poll(async () => (await expectOk(admin.get(`/api/admin/service_areas/${area.id}`))).service_area.recipient_reschedule_days, { timeout: 15_000 }).toBe(3);
    desk.expectClean();

    // The recipient, in German on a phone: the day, three later ones, a confirmation.
    const path = new URL((await expectOk(admin.get(`/api/hailing/bookings/${booking.id}`))).booking.tracking.url).pathname;
    const phone = await openPage(app, { locale: 'de-DE', viewport: PHONE, mobile: true });
    const { page } = phone;
    await page.goto(`${app.url}${path}`);
    const section = page.getByRole('region', { name: 'Zustelltag' });
    await expect.poll(() => section.getByText('Am Dienstag, 2. Juni 2026 nicht zu Hause?', { exact: false }).count(), { timeout: 15_000 }).toBe(1);
    const select = section.getByLabel('Späterer Tag');
    expect(await select.locator('option').allTextContents()).toEqual(['Mittwoch, 3. Juni 2026', 'Donnerstag, 4. Juni 2026', 'Freitag, 5. Juni 2026']);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'track-day-phone-de');
    // Keyboard only: choose the Thursday, ask, then keep the day after all.
    await select.focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    const confirm = section.getByRole('group', { name: 'Die Zustellung auf Donnerstag, 4. Juni 2026 verschieben? Der Tag lässt sich nur einmal ändern.' });
    await expect.poll(() => confirm.count()).toBe(1);
    expect(await page.evaluate<string | null>('document.activeElement?.textContent ?? null')).toBe('Ja, verschieben');
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'track-day-phone-de-confirm');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    expect(await confirm.isVisible()).toBe(false);
    expect((await expectOk(app.t.anonymous.get(`${path.replace('/track/', '/api/tracking/')}/delivery_date`))).delivery_date.moved_from).toBeNull();
    // And now for real.
    await section.getByRole('button', { name: 'Zustellung verschieben' }).click();
    await section.getByRole('button', { name: 'Ja, verschieben' }).click();
    await expect.poll(() => section.getByText('Sie haben die Zustellung von Dienstag, 2. Juni 2026 auf Donnerstag, 4. Juni 2026 verschoben.').count(), { timeout: 15_000 }).toBe(1);
    expect(await section.getByRole('button').count()).toBe(0);
    // The stop's card says the new day.
    await expect.poll(() => page.getByText('Donnerstag, 4. Juni 2026', { exact: true }).count(), { timeout: 15_000 }).toBe(1);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'track-day-phone-de-moved');
    phone.expectClean();
    await phone.context.close();

    // The dispatcher sees it on the booking: waiting for dispatch, on the new day, and why.
    await desk.page.goto(`${app.url}/console/bookings/${booking.id}`);
    await expect.poll(() => desk.page.getByText(/^Moved by the recipient from .*2 Jun.* to .*4 Jun/).count(), { timeout: 20_000 }).toBe(1);
    expect(await desk.page.getByText('Not on a tour').count()).toBe(2);
    expect(await axeViolations(desk.page)).toEqual([]);
    await screenshot(desk.page, 'console-booking-moved-by-recipient');
    desk.expectClean();
    await desk.context.close();
  });
});
