// Dispatch in the console, in Chromium through the real server: bookings merged into a tour by pointer drag and drop
// and by keyboard on the dispatch board; a tour's stops reordered by keyboard, and a reorder the API refuses (a
// drop-off before its pickup) shown in words with the stop back in place; a stop moved to another tour; bookings
// selected in the list and made a tour or added to one; force-assign, unassign and cancel as the tour's state allows.
// Every page is checked with axe-core and photographed on a laptop and a phone, in English and German.
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBooking, createOrganization, createService, createServiceArea, createUser, expectOk, mergeIntoTour, type Client } from '../factories.ts';
import { axeViolations, LAPTOP, openPage, PHONE, screenshot, signIn, startBrowserApp, type BrowserApp } from './harness.ts';

const PASSWORD = 'correct horse battery staple';
/** A board lane's stop list: the tour's name (decision 1603), then its short reference (decision 1681). */
const laneName = (tourId: string, de = false) => new RegExp(`^${de ? 'Stopps der Tour' : 'Stops of tour'} .+ · ${tourId.slice(-8)}$`);

/** A booking whose stops' streets carry its name, so the board's stop rows tell bookings apart. */
const booking = (admin: Client, serviceId: string, name: string, orgId: string) =>
  createBooking(admin, {
    service_id: serviceId,
    external_id: name,
    managing_organization_ids: [orgId],
    stops: [
      { type: 'pickup', location: { lat: 52.5, lng: 13.4 }, address: { street: `${name} Abholweg`, number: '1', city: 'Berlin' } },
      { type: 'dropoff', location: { lat: 52.51, lng: 13.41 }, address: { street: `${name} Zielweg`, number: '2', city: 'Berlin' } },
    ],
  });

/** Presses `key` until `target` (or, unless `exact`, something inside it) has the focus: keyboard only, no clicks. */
async function pressUntilFocused(page: Page, key: string, target: Locator, { max = 40, exact = false } = {}): Promise<void> {
  for (let i = 0; i < max; i++) {
    // Runs in the page; the test's own TypeScript has no DOM types, so the element's document is reached through it.
    const focused = await target.evaluate((el: { ownerDocument: { activeElement: unknown }; contains(node: unknown): boolean }, exactly: boolean) => {
      const active = el.ownerDocument.activeElement;
      return el === active || (!exactly && el.contains(active));
    }, exact);
    if (focused) return;
    await page.keyboard.press(key);
  }
  throw new Error(`${key} never reached the target`);
}

/** Moves the focus to a row of a grid the focus is in: Home, then down. */
async function focusRow(page: Page, row: Locator): Promise<void> {
  await page.keyboard.press('Home');
  await pressUntilFocused(page, 'ArrowDown', row, { exact: true });
}

describe('dispatch in the console', () => {
  let app: BrowserApp;
  let admin: Client;
  let serviceId: string;
  let orgA: string;
  let orgB: string;
  const people: Record<string, { email: string; id: string }> = {};

  const stopsOf = async (tourId: string) => {
    const body = await expectOk(admin.get(`/api/hailing/tours/${tourId}`));
    return [...body.tour.stops].sort((a: { tour_position: number }, b: { tour_position: number }) => a.tour_position - b.tour_position) as { id: string; booking_id: string; type: string; tour_id: string }[];
  };
  const tourOf = async (bookingId: string): Promise<string | null> => {
    const body = await expectOk(admin.get(`/api/hailing/bookings/${bookingId}`));
    const ids = [...new Set(body.booking.stops.map((s: { tour_id: string | null }) => s.tour_id))];
    return ids.length === 1 ? (ids[0] as string | null) : null;
  };

  beforeAll(async () => {
    app = await startBrowserApp();
    const tenant = await app.t.createTenant();
    admin = tenant.admin;
    const area = await createServiceArea(admin, { name: 'Berlin' });
    serviceId = (await createService(admin, { service_area_id: area.id })).id;
    orgA = (await createOrganization(admin, { name: 'Kurier Nord' })).id;
    orgB = (await createOrganization(admin, { name: 'Kurier Süd' })).id;
    for (const [key, role, orgs] of [
      ['admin', 'admin', []],
      ['managerA', 'manager', [orgA]],
      ['driverA', 'driver', [orgA]],
      ['driverB', 'driver', [orgB]],
    ] as const) {
      const email = `${key.toLowerCase()}-${Date.now()}@example.com`;
      const created = await createUser(admin, { role, email, password: PASSWORD, name: `${key} Person`, organization_ids: [...orgs] });
      people[key] = { email, id: created.id };
    }
  });
  afterAll(async () => app?.close());

  it('merges two bookings into a new tour by pointer drag and drop on the dispatch board', async () => {
    const one = await booking(admin, serviceId, 'PTR-1', orgA);
    const two = await booking(admin, serviceId, 'PTR-2', orgA);
    const watched = await openPage(app);
    const { page } = watched;
    await signIn(page, app.url, people.admin!.email, PASSWORD);
    await page.getByRole('link', { name: 'Dispatch' }).click();
    const waiting = page.getByRole('grid', { name: 'Waiting bookings' });
    await waiting.getByRole('row', { name: 'PTR-1' }).click();
    await waiting.getByRole('row', { name: 'PTR-2' }).click();
    await waiting.getByRole('row', { name: 'PTR-2' }).dragTo(page.getByText('Drop bookings here to make a tour of them.'));
    await expect.poll(() => tourOf(one.id)).not.toBeNull();
    expect(await tourOf(two.id)).toBe(await tourOf(one.id));
    await expect.poll(() => waiting.getByRole('row', { name: 'PTR-1' }).count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    watched.expectClean();
    await watched.context.close();
  });

  it('merges two bookings into a new tour by keyboard: select with Space, Enter to pick up, Tab to "New tour", Enter to drop', async () => {
    const one = await booking(admin, serviceId, 'KBD-1', orgA);
    const two = await booking(admin, serviceId, 'KBD-2', orgA);
    const watched = await openPage(app);
    const { page } = watched;
    await signIn(page, app.url, people.admin!.email, PASSWORD);
    await page.getByRole('link', { name: 'Dispatch' }).click();
    const waiting = page.getByRole('grid', { name: 'Waiting bookings' });
    await expect.poll(() => waiting.getByRole('row', { name: 'KBD-1' }).count()).toBe(1);
    await pressUntilFocused(page, 'Tab', waiting);
    await focusRow(page, waiting.getByRole('row', { name: 'KBD-1' }));
    await page.keyboard.press('Space');
    await focusRow(page, waiting.getByRole('row', { name: 'KBD-2' }));
    await page.keyboard.press('Space');
    await pressUntilFocused(page, 'ArrowRight', waiting.getByRole('button', { name: 'Drag KBD-2' }), { max: 3 });
    await page.keyboard.press('Enter');
    await pressUntilFocused(page, 'Tab', page.getByRole('button', { name: 'New tour' }), { max: 10 });
    await page.keyboard.press('Enter');
    await expect.poll(() => tourOf(one.id)).not.toBeNull();
    expect(await tourOf(two.id)).toBe(await tourOf(one.id));
    watched.expectClean();
    await watched.context.close();
  });

  it('shows a manager only its organization\'s bookings and tours on the board, and lets it make a tour of them', async () => {
    const own = await booking(admin, serviceId, 'MGR-NORD', orgA);
    await booking(admin, serviceId, 'MGR-SUED', orgB);
    const othersTour = await mergeIntoTour(admin, [(await booking(admin, serviceId, 'MGR-SUED-TOUR', orgB)).id]);
    const watched = await openPage(app);
    const { page } = watched;
    await signIn(page, app.url, people.managerA!.email, PASSWORD);
    await page.getByRole('link', { name: 'Dispatch' }).click();
    const waiting = page.getByRole('grid', { name: 'Waiting bookings' });
    await expect.poll(() => waiting.getByRole('row', { name: 'MGR-NORD' }).count()).toBe(1);
    expect(await waiting.getByRole('row', { name: 'MGR-SUED' }).count()).toBe(0);
    expect(await page.getByRole('grid', { name: laneName(othersTour.id) }).count()).toBe(0);
    await waiting.getByRole('row', { name: 'MGR-NORD' }).dragTo(page.getByText('Drop bookings here to make a tour of them.'));
    await expect.poll(() => tourOf(own.id)).not.toBeNull();
    expect(await axeViolations(page)).toEqual([]);
    watched.expectClean();
    await watched.context.close();
  });

  it('reorders a tour\'s stops by keyboard, and puts a stop back with the API\'s words when a drop-off would come before its pickup', async () => {
    const one = await booking(admin, serviceId, 'ORD-1', orgA);
    const two = await booking(admin, serviceId, 'ORD-2', orgA);
    const tour = await mergeIntoTour(admin, [one.id, two.id]);
    const before = await stopsOf(tour.id);
    const watched = await openPage(app);
    const { page } = watched;
    await signIn(page, app.url, people.admin!.email, PASSWORD);
    await page.getByRole('link', { name: 'Dispatch' }).click();
    const lane = page.getByRole('grid', { name: laneName(tour.id) });
    const firstPickup = '1. Pickup · ORD-1 Abholweg 1, Berlin';
    await expect.poll(() => lane.getByRole('row', { name: firstPickup }).count()).toBe(1);

    // ORD-2's pickup (third) to the front: Enter on its drag button, up to "before the first stop", Enter.
    await pressUntilFocused(page, 'Tab', lane);
    await focusRow(page, lane.getByRole('row', { name: '3. Pickup · ORD-2 Abholweg 1, Berlin' }));
    await pressUntilFocused(page, 'ArrowRight', lane.getByRole('button', { name: 'Drag stop 3. Pickup · ORD-2 Abholweg 1, Berlin' }), { max: 3 });
    await page.keyboard.press('Enter');
    await pressUntilFocused(page, 'ArrowUp', lane.getByLabel(`Insert before ${firstPickup}`), { max: 8 });
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await stopsOf(tour.id)).map((s) => s.id)).toEqual([before[2]!.id, before[0]!.id, before[1]!.id, before[3]!.id]);
    await expect.poll(() => lane.getByRole('row', { name: '1. Pickup · ORD-2 Abholweg 1, Berlin' }).count()).toBe(1);

    // ORD-1's drop-off before its own pickup: the API refuses (422 pickup_after_dropoff), the order stays.
    const dropoff = '3. Drop-off · ORD-1 Zielweg 2, Berlin';
    await pressUntilFocused(page, 'Tab', lane);
    await focusRow(page, lane.getByRole('row', { name: dropoff }));
    await pressUntilFocused(page, 'ArrowRight', lane.getByRole('button', { name: `Drag stop ${dropoff}` }), { max: 3 });
    await page.keyboard.press('Enter');
    await pressUntilFocused(page, 'ArrowUp', lane.getByLabel('Insert between 1. Pickup · ORD-2 Abholweg 1, Berlin and 2. Pickup · ORD-1 Abholweg 1, Berlin'), { max: 8 });
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('alert').filter({ hasText: /pickup/i }).count()).toBe(1);
    expect((await stopsOf(tour.id)).map((s) => s.id)).toEqual([before[2]!.id, before[0]!.id, before[1]!.id, before[3]!.id]);
    expect(await lane.getByRole('row', { name: dropoff }).count()).toBe(1);
    expect(await axeViolations(page)).toEqual([]);
    watched.expectClean();
    await watched.context.close();
  });

  it('moves a booking to another tour by dragging its drop-off: its pickup goes with it (never a split)', async () => {
    const one = await booking(admin, serviceId, 'MOV-1', orgA);
    const two = await booking(admin, serviceId, 'MOV-2', orgA);
    const from = await mergeIntoTour(admin, [one.id]);
    const to = await mergeIntoTour(admin, [two.id]);
    const watched = await openPage(app);
    const { page } = watched;
    await signIn(page, app.url, people.admin!.email, PASSWORD);
    await page.getByRole('link', { name: 'Dispatch' }).click();
    const source = page.getByRole('grid', { name: laneName(from.id) });
    const target = page.getByRole('grid', { name: laneName(to.id) });
    const dropoff = source.getByRole('row', { name: '2. Drop-off · MOV-1 Zielweg 2, Berlin' });
    // Dropped on the upper edge of MOV-2's drop-off: MOV-1's open stops, pickup and drop-off, go before it together.
    await dropoff.dragTo(target.getByRole('row', { name: '2. Drop-off · MOV-2 Zielweg 2, Berlin' }), { targetPosition: { x: 40, y: 4 } });
    await expect.poll(async () => (await stopsOf(to.id)).map((s) => `${s.booking_id === one.id ? 'MOV-1' : 'MOV-2'} ${s.type}`)).toEqual(['MOV-2 pickup', 'MOV-1 pickup', 'MOV-1 dropoff', 'MOV-2 dropoff']);
    expect(await stopsOf(from.id)).toEqual([]);
    await expect.poll(() => target.getByRole('row', { name: '3. Drop-off · MOV-1 Zielweg 2, Berlin' }).count()).toBe(1);
    watched.expectClean();
    await watched.context.close();
  });

  it('makes a tour of two bookings selected in the bookings list and opens it', async () => {
    const one = await booking(admin, serviceId, 'LST-1', orgA);
    const two = await booking(admin, serviceId, 'LST-2', orgA);
    const watched = await openPage(app);
    const { page } = watched;
    await signIn(page, app.url, people.admin!.email, PASSWORD);
    await page.getByRole('link', { name: 'Bookings' }).click();
    await page.getByLabel('Select LST-1').check();
    await page.getByLabel('Select LST-2').check();
    await expect.poll(() => page.getByText('2 selected').count()).toBe(1);
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Make a tour' }).click();
    await expect.poll(() => tourOf(one.id)).not.toBeNull();
    const tourId = await tourOf(one.id);
    expect(await tourOf(two.id)).toBe(tourId);
    await expect.poll(() => new URL(page.url()).pathname).toBe(`/console/tours/${tourId}`);
    watched.expectClean();
    await watched.context.close();
  });

  it('adds a booking selected in the bookings list to an open tour', async () => {
    const first = await booking(admin, serviceId, 'ADD-1', orgA);
    const second = await booking(admin, serviceId, 'ADD-2', orgA);
    const tour = await mergeIntoTour(admin, [first.id]);
    const watched = await openPage(app);
    const { page } = watched;
    await signIn(page, app.url, people.admin!.email, PASSWORD);
    await page.getByRole('link', { name: 'Bookings' }).click();
    expect(await page.getByLabel('Select ADD-1').count()).toBe(0);
    await page.getByLabel('Select ADD-2').check();
    await page.getByRole('button', { name: 'Add to tour…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add to a tour (1 selected)' });
    // The tour is offered by its name (no driver yet, and its day), never by its id (decision 1603).
    const option = dialog.locator(`option[value="${tour.id}"]`);
    await expect.poll(() => option.count()).toBe(1);
    expect(await option.textContent()).toMatch(/^No driver yet · /);
    expect(await option.textContent()).not.toContain(tour.id.slice(-8));
    await dialog.getByLabel('Tour').selectOption(tour.id);
    expect(await axeViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Add to tour', exact: true }).click();
    await expect.poll(() => tourOf(second.id)).toBe(tour.id);
    expect((await stopsOf(tour.id)).map((s) => s.booking_id)).toEqual([first.id, first.id, second.id, second.id]);
    await expect.poll(() => new URL(page.url()).pathname).toBe(`/console/tours/${tour.id}`);
    watched.expectClean();
    await watched.context.close();
  });

  it('offers a tour\'s actions only in the states that allow them: force-assign, unassign, hold back, cancel', async () => {
    const one = await booking(admin, serviceId, 'ACT-1', orgA);
    const tour = await mergeIntoTour(admin, [one.id]);
    const status = async () => (await expectOk(admin.get(`/api/hailing/tours/${tour.id}`))).tour as { status: string; driver_id: string | null };
    const watched = await openPage(app);
    const { page } = watched;
    await signIn(page, app.url, people.admin!.email, PASSWORD);
    await page.goto(`${app.url}/console/tours/${tour.id}`);
    const offered = async () => {
      const names = ['Schedule', 'Open for drivers to pick', 'Hold back', 'Unassign driver', 'Cancel tour', 'Assign driver'];
      const present = await Promise.all(names.map(async (name) => ((await page.getByRole('button', { name, exact: true }).count()) ? name : null)));
      return present.filter(Boolean);
    };
    await expect.poll(offered).toEqual(['Schedule', 'Open for drivers to pick', 'Cancel tour', 'Assign driver']);
    expect(await axeViolations(page)).toEqual([]);

    // A driver of an organization that does not manage the tour: the API's refusal in words, nothing changes.
    await page.getByLabel('Driver to assign').selectOption(people.driverB!.id);
    await page.getByRole('button', { name: 'Assign driver', exact: true }).click();
    await expect.poll(() => page.getByRole('alert').count()).toBeGreaterThan(0);
    expect((await status()).status).toBe('to_be_dispatched');

    await page.getByLabel('Driver to assign').selectOption(people.driverA!.id);
    await page.getByRole('button', { name: 'Assign driver', exact: true }).click();
    await expect.poll(async () => (await status()).status).toBe('claimed');
    expect((await status()).driver_id).toBe(people.driverA!.id);
    await expect.poll(offered).toEqual(['Unassign driver', 'Cancel tour']);

    await page.getByRole('button', { name: 'Unassign driver' }).click();
    const confirm = page.getByRole('dialog', { name: 'Unassign the driver?' });
    expect(await axeViolations(page)).toEqual([]);
    await confirm.getByRole('button', { name: 'Unassign driver' }).click();
    await expect.poll(async () => (await status()).status).toBe('scheduled');
    expect((await status()).driver_id).toBeNull();
    await expect.poll(offered).toEqual(['Open for drivers to pick', 'Hold back', 'Cancel tour', 'Assign driver']);

    await page.getByRole('button', { name: 'Hold back' }).click();
    await expect.poll(async () => (await status()).status).toBe('to_be_dispatched');
    await expect.poll(offered).toEqual(['Schedule', 'Open for drivers to pick', 'Cancel tour', 'Assign driver']);

    await page.getByRole('button', { name: 'Cancel tour' }).click();
    await page.getByRole('dialog', { name: 'Cancel this tour?' }).getByRole('button', { name: 'Cancel tour' }).click();
    await expect.poll(async () => (await status()).status).toBe('cancelled');
    await expect.poll(offered).toEqual([]);
    expect(await page.getByText('No dispatcher action is possible in this state.').count()).toBe(1);
    watched.expectClean();
    await watched.context.close();
  });

  it('shows the dispatch board, the selection and the tour actions in English and German on a laptop and a phone', async () => {
    const [a, b, c, d] = await Promise.all(['SHOT-1', 'SHOT-2', 'SHOT-3', 'SHOT-4'].map((name) => booking(admin, serviceId, name, orgA)));
    const tour = await mergeIntoTour(admin, [c!.id, d!.id]);
    for (const [locale, viewport] of [
      ['en-GB', LAPTOP],
      ['en-GB', PHONE],
      ['de-DE', LAPTOP],
      ['de-DE', PHONE],
    ] as const) {
      const de = locale === 'de-DE';
      const size = viewport === LAPTOP ? 'laptop' : 'phone';
      const watched = await openPage(app, { locale, viewport });
      const { page } = watched;
      await page.goto(`${app.url}/console`);
      await page.getByLabel(de ? 'E-Mail' : 'Email').fill(people.admin!.email);
      await page.getByLabel(de ? 'Passwort' : 'Password').fill(PASSWORD);
      await page.getByRole('button', { name: de ? 'Anmelden' : 'Sign in' }).click();
      await page.getByRole('link', { name: de ? 'Disposition' : 'Dispatch' }).click();
      await expect.poll(() => page.getByRole('grid', { name: laneName(tour.id, de) }).count()).toBe(1);
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, `console-dispatch-${locale}-${size}`);

      await page.getByRole('link', { name: de ? 'Buchungen' : 'Bookings' }).click();
      await page.getByLabel(de ? 'SHOT-1 auswählen' : 'Select SHOT-1').check();
      await page.getByLabel(de ? 'SHOT-2 auswählen' : 'Select SHOT-2').check();
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, `console-bookings-selection-${locale}-${size}`);

      await page.goto(`${app.url}/console/tours/${tour.id}`);
      await expect.poll(() => page.getByRole('button', { name: de ? 'Fahrer zuweisen' : 'Assign driver', exact: true }).count()).toBe(1);
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, `console-tour-actions-${locale}-${size}`);
      watched.expectClean();
      await watched.context.close();
    }
    expect([a!.id, b!.id]).toHaveLength(2);
  }, 180_000);
});
