// The console's Today and Plan pages in Chromium through the real server: Today lists a waiting booking, a late tour,
// a failed stop awaiting a decision and a paused tip distribution, each linking to its page; Plan proposes tours for
// three waiting bookings, shows them listed and on the map, and applies them (the tours exist in the API). Both pages
// are checked with axe-core and photographed on a laptop and a phone, in English and German.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorker } from '../../src/worker/loop.ts';
import { createBooking, createOrganization, createService, createServiceArea, createUser, driveStop, expectOk, mergeIntoTour, tourEnRoute, type Client } from '../factories.ts';
import { axeViolations, LAPTOP, openPage, PHONE, screenshot, signIn, startBrowserApp, type BrowserApp } from './harness.ts';

const PASSWORD = 'correct horse battery staple';

// The machine running the suite may be loaded: each test gets minutes, not the default seconds.
describe('the Today and Plan pages in a browser', { timeout: 180_000 }, () => {
  let app: BrowserApp;
  let admin: Client;
  let adminEmail: string;
  let managerEmail: string;
  const ids: Record<string, string> = {};
  let areaId: string;
  const orgIds: string[] = [];

  /**
   * Bookings to plan in a service of their own, created by the test that plans them (tests run in random order): the
   * newest bookings, so the plan page chooses them, and only them, at first.
   */
  async function bookingsToPlan(prefix: string, count: number): Promise<string[]> {
    const service = await createService(admin, { service_area_id: areaId, name: `Plan ${prefix}` });
    const created: string[] = [];
    for (let i = 0; i < count; i++) {
      const lat = 52.52 + i * 0.01;
      const booking = await createBooking(admin, {
        service_id: service.id,
        external_id: `${prefix}-${i + 1}`,
        managing_organization_ids: orgIds,
        stops: [
          { type: 'pickup', location: { lat, lng: 13.38 }, address: { street: 'Invalidenstraße', number: String(i + 1), city: 'Berlin' } },
          { type: 'dropoff', location: { lat: lat + 0.004, lng: 13.42 }, address: { street: 'Danziger Straße', number: String(i + 10), city: 'Berlin' } },
        ],
      });
      created.push(booking.id);
    }
    return created;
  }

  const now0 = () => app.t.clock.now().getTime();
  /** What `read` says once the worker has run what is due: every plan runs as a job (decision 1645), polled by the page. */
  const afterWorker = async <T,>(read: () => Promise<T>): Promise<T> => {
    await createWorker(app.t.deps).drain();
    return read();
  };

  beforeAll(async () => {
    app = await startBrowserApp();
    // The server's clock reads the browser's time, so "late" and "running out" mean the same on both sides.
    app.t.clock.set(new Date());
    const tenant = await app.t.createTenant();
    admin = tenant.admin;
    const area = await createServiceArea(admin, { name: 'Berlin' });
    const service = await createService(admin, { service_area_id: area.id });
    const tipping = await createService(admin, { service_area_id: area.id, tip_distribution_strategy: 'completed_dropoffs_on_tour' });
    const org = await createOrganization(admin, { name: 'Kurier Nord' });
    areaId = area.id;
    orgIds.push(org.id);
    const person = async (role: 'admin' | 'manager' | 'driver', key: string) => {
      const email = `${key}-${Date.now()}@example.com`;
      const created = await createUser(admin, { role, email, password: PASSWORD, name: `${key} Person`, organization_ids: role === 'admin' ? [] : [org.id] });
      return { email, ...created };
    };
    adminEmail = (await person('admin', 'admin')).email;
    managerEmail = (await person('manager', 'manager')).email;
    const lateDriver = await person('driver', 'late');
    const failDriver = await person('driver', 'fail');
    const tipDriver = await person('driver', 'tip');
    const spare = await person('driver', 'spare');
    // The spare driver works now: plans with drivers use their shifts.
    await expectOk(admin.post(`/api/drivers/${spare.id}/shifts`, { shift: { starts_at: new Date(now0() - 3_600_000).toISOString(), ends_at: new Date(now0() + 8 * 3_600_000).toISOString(), start_location: { lat: 52.52, lng: 13.4 } } }), 201);
    const managed = { managing_organization_ids: [org.id] };

    // Waiting for dispatch.
    ids.waiting = (await createBooking(admin, { service_id: service.id, external_id: 'WAIT-1', ...managed })).id;

    // En route and late: the drop-off's window ends in a minute, the driver is 30 km away.
    const now = app.t.clock.now().getTime();
    const window = { starts_at: new Date(now - 3_600_000).toISOString(), ends_at: new Date(now + 60_000).toISOString() };
    const late = await createBooking(admin, {
      service_id: service.id,
      external_id: 'LATE-1',
      ...managed,
      stops: [
        { type: 'pickup', location: { lat: 52.5, lng: 13.4 }, address: { street: 'Chausseestraße', number: '1', city: 'Berlin' } },
        { type: 'dropoff', location: { lat: 52.51, lng: 13.41 }, address: { street: 'Torstraße', number: '2', city: 'Berlin' }, time_window: window },
      ],
    });
    ids.lateTour = (await tourEnRoute(admin, [late.id], lateDriver.id)).id;
    await expectOk(lateDriver.client.post(`/api/hailing/tours/${ids.lateTour}/driver_location`, { location: { lat: 52.77, lng: 13.4, recorded_at: new Date(now).toISOString() } }));

    // A failed stop whose reattempt waits for a dispatcher.
    const failing = await createBooking(admin, { service_id: service.id, external_id: 'FAIL-1', ...managed });
    ids.failed = failing.id;
    const failTour = await tourEnRoute(admin, [failing.id], failDriver.id);
    const pickup = failTour.stops.find((s: { type: string }) => s.type === 'pickup');
    await driveStop(failDriver.client, pickup.id, 'arrived');
    await expectOk(failDriver.client.post(`/api/stops/${pickup.id}/fail`, { outcome: 'reattempt_later', reason_key: 'customer_absent' }));

    // A tip in another currency than the tour's compensation pauses the tour's distribution once the tour completes.
    const tipped = await createBooking(admin, { service_id: tipping.id, external_id: 'TIP-1', ...managed, tip: { amount: 500, currency: 'USD' }, packages: [] });
    const tipTour = await mergeIntoTour(admin, [tipped.id]);
    ids.tipTour = tipTour.id;
    await expectOk(admin.post(`/api/hailing/tours/${tipTour.id}/force_assign`, { driver_id: tipDriver.id, start: true }));
    for (const stop of tipTour.stops) await driveStop(tipDriver.client, stop.id, 'completed');
    await createWorker(app.t.deps).drain();
    expect((await expectOk(admin.get(`/api/hailing/bookings/${tipped.id}`))).booking.tip_distribution.status).toBe('paused');

  }, 180_000);
  afterAll(async () => app?.close());

  it('lists on Today a waiting booking, a late tour, a failed stop and a paused tip distribution, each linking to its page', async () => {
    const watched = await openPage(app);
    const { page } = watched;
    await signIn(page, app.url, adminEmail, PASSWORD);
    const section = (name: string) => page.getByRole('region', { name });
    await expect.poll(() => section('Bookings waiting for dispatch').getByRole('link', { name: 'Booking WAIT-1' }).count(), { timeout: 20_000 }).toBe(1);
    await expect.poll(() => section('Tours running late').getByRole('link', { name: new RegExp(`^Tour .+ · ${ids.lateTour!.slice(-6)}$`) }).count(), { timeout: 20_000 }).toBe(1);
    await expect.poll(() => section('Failed stops awaiting a decision').getByRole('link', { name: 'Booking FAIL-1' }).count()).toBe(1);
    await expect.poll(() => section('Paused tip distributions').getByRole('link', { name: `Tour ${ids.tipTour!.slice(-6)}` }).count()).toBe(1);
    expect(await section('Tours running late').textContent()).toMatch(/window ends/);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'console-today-en-1366');

    // Each links to its page.
    await section('Tours running late').getByRole('link', { name: new RegExp(`^Tour .+ · ${ids.lateTour!.slice(-6)}$`) }).click();
    await expect.poll(() => page.url()).toBe(`${app.url}/console/tours/${ids.lateTour}`);
    await page.goBack();
    await section('Failed stops awaiting a decision').getByRole('link', { name: 'Booking FAIL-1' }).click();
    await expect.poll(() => page.url()).toBe(`${app.url}/console/bookings/${ids.failed}`);
    await page.goBack();
    await section('Paused tip distributions').getByRole('link', { name: `Tour ${ids.tipTour!.slice(-6)}` }).click();
    await expect.poll(() => page.url()).toBe(`${app.url}/console/tours/${ids.tipTour}`);
    await page.goBack();
    await section('Bookings waiting for dispatch').getByRole('link', { name: 'Booking WAIT-1' }).click();
    await expect.poll(() => page.url()).toBe(`${app.url}/console/bookings/${ids.waiting}`);
    watched.expectClean();
    await watched.context.close();
  });

  it('shows Today in German on a phone, and to a manager', async () => {
    for (const [locale, viewport, email] of [
      ['de-DE', PHONE, adminEmail],
      ['en-GB', PHONE, managerEmail],
      ['de-DE', LAPTOP, managerEmail],
    ] as const) {
      const watched = await openPage(app, { locale, viewport });
      const { page } = watched;
      await page.goto(`${app.url}/console`);
      await page.getByLabel(locale === 'en-GB' ? 'Email' : 'E-Mail').fill(email);
      await page.getByLabel(locale === 'en-GB' ? 'Password' : 'Passwort').fill(PASSWORD);
      await page.getByRole('button', { name: locale === 'en-GB' ? 'Sign in' : 'Anmelden' }).click();
      const late = locale === 'en-GB' ? 'Tours running late' : 'Verspätete Touren';
      await expect.poll(() => page.getByRole('region', { name: late }).getByRole('link').count(), { timeout: 20_000 }).toBe(1);
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, `console-today-${email === managerEmail ? 'manager-' : ''}${locale}-${viewport.width}`);
      watched.expectClean();
      await watched.context.close();
    }
  });

  it('plans three waiting bookings, shows the proposal listed and on the map, and applies it', async () => {
    const planned = await bookingsToPlan('PLAN', 3);
    const watched = await openPage(app);
    const { page } = watched;
    await signIn(page, app.url, adminEmail, PASSWORD);
    await page.getByRole('navigation').getByRole('link', { name: 'Plan' }).click();
    for (const name of ['PLAN-1', 'PLAN-2', 'PLAN-3']) await expect.poll(() => page.getByLabel(`Booking ${name}`).isChecked(), { timeout: 20_000 }).toBe(true);
    expect(await page.getByLabel('Booking WAIT-1').isChecked()).toBe(false);
    await page.getByRole('button', { name: 'Plan tours' }).click();
    const list = page.getByRole('list', { name: 'Proposed tours' });
    await expect.poll(() => afterWorker(() => list.getByRole('listitem').filter({ has: page.getByRole('heading', { name: /^Tour \d+$/ }) }).count()), { timeout: 30_000 }).toBeGreaterThan(0);
    // Every stop of the three bookings is listed once, and drawn on the map.
    await expect.poll(() => list.getByText(/of booking PLAN-\d/).count()).toBe(6);
    const map = page.locator('[data-tours]');
    await expect.poll(() => map.getAttribute('data-stops'), { timeout: 20_000 }).toBe('6');
    expect(Number(await map.getAttribute('data-tours'))).toBeGreaterThan(0);
    expect(await page.getByRole('region', { name: 'Not placed' }).textContent()).toMatch(/Every chosen booking/);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'console-plan-en-1366');

    await page.getByRole('button', { name: /^Apply the tours kept: \d+$/ }).click();
    await expect.poll(() => page.getByText(/^Tours created: \d+\.$/).count(), { timeout: 30_000 }).toBe(1);
    // The tours exist: every stop of the three bookings is on a tour, and the bookings are dispatched.
    for (const id of planned) {
      const { booking } = await expectOk(admin.get(`/api/hailing/bookings/${id}`));
      expect(booking.status).toBe('dispatched');
      for (const stop of booking.stops) expect(stop.tour_id).not.toBeNull();
    }
    await page.getByRole('link', { name: /^Tour 1 created$/ }).click();
    await expect.poll(() => page.url()).toMatch(/\/console\/tours\/[0-9a-f-]{36}$/);
    watched.expectClean();
    await watched.context.close();
  });

  it('leaves a booking out, plans again, and assigns the chosen driver to the applied tour', async () => {
    const [first, second] = await bookingsToPlan('LATER', 2);
    const watched = await openPage(app);
    const { page } = watched;
    await signIn(page, app.url, adminEmail, PASSWORD, '/console/plan');
    await expect.poll(() => page.getByLabel('Booking LATER-2').isChecked(), { timeout: 20_000 }).toBe(true);
    await page.getByLabel('spare Person').check();
    expect(await page.getByLabel('Plan for').inputValue()).toBe('balanced');
    await page.getByRole('button', { name: 'Plan tours' }).click();
    // With drivers the plan runs as a job: the page shows it running and polls until the worker has planned it.
    await expect.poll(() => page.getByText(/A large plan: running since/).count(), { timeout: 30_000 }).toBe(1);
    const planned = async (name: string) => {
      await createWorker(app.t.deps).drain();
      return page.getByRole('button', { name }).count();
    };
    await expect.poll(() => planned('Leave out booking LATER-1'), { timeout: 30_000 }).toBe(1);
    expect(await page.getByText('Driver: spare Person').count()).toBe(1);
    await page.getByRole('button', { name: 'Leave out booking LATER-1' }).click();
    await expect.poll(() => page.getByText('The choice changed since this proposal').count()).toBe(1);
    expect(await page.getByRole('button', { name: /^Apply/ }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Plan tours' }).click();
    await expect.poll(async () => (await planned('Leave out booking LATER-2')) + (await page.getByText('The choice changed since this proposal').count()), { timeout: 30_000 }).toBe(1);
    await expect.poll(() => page.getByRole('list', { name: 'Proposed tours' }).getByText(/of booking LATER-1/).count()).toBe(0);
    expect(await page.getByLabel('Driver for tour 1').inputValue()).not.toBe('');
    await page.getByRole('button', { name: 'Apply the tours kept: 1' }).click();
    await expect.poll(() => page.getByText('Tours created: 1.').count(), { timeout: 30_000 }).toBe(1);
    const dispatched = (await expectOk(admin.get(`/api/hailing/bookings/${second}`))).booking;
    const tour = (await expectOk(admin.get(`/api/hailing/tours/${dispatched.stops[0].tour_id}`))).tour;
    expect(tour).toMatchObject({ status: 'claimed' });
    expect((await expectOk(admin.get(`/api/hailing/bookings/${first}`))).booking.status).toBe('to_be_dispatched');
    expect(await axeViolations(page)).toEqual([]);
    watched.expectClean();
    await watched.context.close();
  });

  it('lists more waiting bookings than one API page holds (130 of a tenant of its own) and plans them all', async () => {
    const own = await app.t.createTenant();
    const area = await createServiceArea(own.admin, { name: 'Berlin' });
    const service = await createService(own.admin, { service_area_id: area.id });
    const email = `many-${Date.now()}@example.com`;
    await createUser(own.admin, { role: 'admin', email, password: PASSWORD, name: 'Many Bookings' });
    const booking = (i: number) => ({
      idempotency_key: `many-${i}`,
      booking: {
        service_id: service.id,
        external_id: `MANY-${i + 1}`,
        stops: [
          { type: 'pickup', location: { lat: 52.5, lng: 13.38 }, address: { street: 'Invalidenstraße', number: '1', city: 'Berlin' } },
          { type: 'dropoff', location: { lat: 52.45 + (i % 13) * 0.01, lng: 13.3 + Math.floor(i / 13) * 0.02 }, address: { street: 'Danziger Straße', number: String(i + 1), city: 'Berlin' } },
        ],
      },
    });
    for (const from of [0, 100]) {
      const chunk = Array.from({ length: from ? 30 : 100 }, (_, k) => booking(from + k));
      await expectOk(own.admin.post('/api/hailing/bookings/bulk', { dry_run: false, bookings: chunk }));
    }
    const watched = await openPage(app, { viewport: LAPTOP, locale: 'en-GB' });
    const { page } = watched;
    await signIn(page, app.url, email, PASSWORD, '/console/plan');
    // Every one listed and chosen: the page reads the waiting bookings page by page (contract §16: up to 1,000).
    await page.getByText('130 of 130 chosen').waitFor({ timeout: 30_000 });
    expect(await page.getByRole('checkbox', { name: /^Booking MANY-/ }).count()).toBe(130);
    await page.getByRole('button', { name: 'Plan tours' }).click();
    await expect.poll(() => afterWorker(() => page.locator('[data-tours]').getAttribute('data-stops')), { timeout: 60_000 }).toBe('260');
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'console-plan-130-en-1366');
    watched.expectClean();
    await watched.context.close();
  });

  it('shows a proposal on a phone in English and German, and on a laptop in German', async () => {
    for (const [locale, viewport] of [
      ['en-GB', PHONE],
      ['de-DE', PHONE],
      ['de-DE', LAPTOP],
    ] as const) {
      const [booking] = await bookingsToPlan(`SHOWN-${locale}-${viewport.width}`, 1);
      const name = (await expectOk(admin.get(`/api/hailing/bookings/${booking}`))).booking.external_id;
      const en = locale === 'en-GB';
      const watched = await openPage(app, { locale, viewport });
      const { page } = watched;
      await page.goto(`${app.url}/console/plan`);
      await page.getByLabel(en ? 'Email' : 'E-Mail').fill(adminEmail);
      await page.getByLabel(en ? 'Password' : 'Passwort').fill(PASSWORD);
      await page.getByRole('button', { name: en ? 'Sign in' : 'Anmelden' }).click();
      await expect.poll(() => page.getByLabel(`${en ? 'Booking' : 'Buchung'} ${name}`).isChecked(), { timeout: 20_000 }).toBe(true);
      await page.getByRole('button', { name: en ? 'Plan tours' : 'Touren planen' }).click();
      await expect.poll(() => afterWorker(() => page.locator('[data-tours]').getAttribute('data-stops')), { timeout: 30_000 }).toBe('2');
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, `console-plan-${locale}-${viewport.width}`);
      watched.expectClean();
      await watched.context.close();
    }
  });
});
