// The console's Analytics page and a tour's "Planned vs actual" in Chromium through the real server: a week of three
// drivers seeded through the API on the test clock (on time, late, failed with two reasons, positions), read with the
// date range picker (the browser's clock is not the test clock); the headline figures equal the API's JSON, the
// driver table sorts by keyboard, the downloaded CSV equals the API's byte for byte, German labels, axe clean, and
// screenshots on a laptop and a phone in English and German.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBooking, createOrganization, createService, createServiceArea, createUser, driveStop, expectOk, tourEnRoute, type Client, type CreatedUser } from '../factories.ts';
import { axeViolations, openPage, PHONE, screenshot, signIn, startBrowserApp, type BrowserApp } from './harness.ts';

const PASSWORD = 'correct horse battery staple';
const LAPTOP = { width: 1440, height: 900 };
// Monday 2 to Sunday 8 November 2026 in Berlin (CET, +01:00).
const FIRST = '2026-11-02';
const LAST = '2026-11-08';
const PERIOD = { from: '2026-11-01T23:00:00.000Z', to: '2026-11-08T23:00:00.000Z' };
const DRIVERS = ['Cem Çelik', 'Anna Adler', 'Ben Brandt'];

describe('the Analytics page in a browser', { timeout: 240_000 }, () => {
  let app: BrowserApp;
  let admin: Client;
  let adminToken: string;
  let adminEmail: string;
  const tours: { planned?: string; unplanned?: string } = {};

  const day = (date: string, hhmm: string) => new Date(`${date}T${hhmm}:00.000Z`).toISOString();
  const at = async (iso: string, step: () => Promise<unknown>) => {
    app.t.clock.set(iso);
    await step();
  };

  /**
   * Each day each driver runs one tour: a pickup and 1–3 drop-offs (so the drivers differ in stops), windows ending
   * 10:00Z; the second drop-off on alternate days comes after its window (late); every fifth drop-off fails, the
   * reason alternating between "nobody present" and "location closed"; the first driver sends positions. The day's
   * steps run in the order of their times, so the test clock only moves forward.
   */
  async function seedWeek(area: { id: string }, org: string): Promise<CreatedUser[]> {
    const service = await createService(admin, { service_area_id: area.id });
    const drivers = [];
    for (const name of DRIVERS) drivers.push(await createUser(admin, { role: 'driver', organization_ids: [org], name }));
    let dropoffs = 0;
    for (let d = 0; d < 7; d++) {
      const date = `2026-11-0${d + 2}`;
      const steps: { when: string; run: () => Promise<unknown> }[] = [];
      for (const [k, driver] of drivers.entries()) {
        app.t.clock.set(day(date, '07:00'));
        const window = { starts_at: day(date, '07:00'), ends_at: day(date, '10:00') };
        const stops = [
          { type: 'pickup', location: { lat: 52.5 + k / 100, lng: 13.4 }, address: { street: 'Invalidenstraße', number: String(k + 1), city: 'Berlin' } },
          ...Array.from({ length: k + 1 }, (_, i) => ({
            type: 'dropoff',
            location: { lat: 52.51 + k / 100 + i / 200, lng: 13.42 + i / 200 },
            address: { street: 'Danziger Straße', number: String(10 + i), city: 'Berlin' },
            time_window: window,
          })),
        ];
        const booking = await createBooking(admin, { service_id: service.id, managing_organization_ids: [org], stops });
        const tour = await tourEnRoute(admin, [booking.id], driver.id);
        if (d === 0 && k === 0) tours.unplanned = tour.id;
        const position = (iso: string, lat: number) => () =>
          expectOk(driver.client.post(`/api/hailing/tours/${tour.id}/driver_location`, { location: { lat, lng: 13.4, recorded_at: iso } }));
        const minute = `0${k}`;
        if (k === 0) steps.push({ when: day(date, '07:30'), run: position(day(date, '07:30'), 52.49) });
        steps.push({ when: day(date, `08:${minute}`), run: () => driveStop(driver.client, booking.stops[0].id, 'completed') });
        for (const [i, stop] of booking.stops.slice(1).entries()) {
          dropoffs += 1;
          const when = day(date, i === 1 && d % 2 === 0 ? `10:3${k}` : [`08:3${k}`, `09:3${k}`, `09:4${k}`][i]!);
          if (k === 0) steps.push({ when, run: position(when, 52.51 + i / 200) });
          const reason = dropoffs % 10 === 0 ? 'location_closed' : 'customer_absent';
          steps.push({
            when,
            run:
              dropoffs % 5 === 0
                ? async () => {
                    await driveStop(driver.client, stop.id, 'arrived');
                    await expectOk(driver.client.post(`/api/stops/${stop.id}/fail`, { reason_key: reason }));
                  }
                : () => driveStop(driver.client, stop.id, 'completed'),
          });
        }
      }
      for (const step of steps.sort((a, b) => a.when.localeCompare(b.when))) await at(step.when, step.run);
    }
    return drivers;
  }

  // A week of stops through the API: minutes, not the hook's default seconds, on a loaded machine.
  beforeAll(async () => {
    app = await startBrowserApp();
    const tenant = await app.t.createTenant();
    admin = tenant.admin;
    adminToken = tenant.adminToken;
    const area = await createServiceArea(admin, { name: 'Berlin', time_zone: 'Europe/Berlin' });
    const org = await createOrganization(admin, { name: 'Kurier Nord', service_area_ids: [area.id] });
    const drivers = await seedWeek(area, org.id);
    // The week's last day, after its tours: a tour an applied plan made, which the first driver drives (planned vs actual per driver-day).
    const berlin = (hhmm: string) => `2026-11-08T${hhmm}:00.000Z`;
    app.t.clock.set(berlin('12:00'));
    const inWeek = await createBooking(admin, {
      service_id: (await createService(admin, { service_area_id: area.id, name: 'Planned in the week' })).id,
      managing_organization_ids: [org.id],
      stops: [
        { type: 'pickup', location: { lat: 52.52, lng: 13.38 }, address: { street: 'Invalidenstraße', number: '60', city: 'Berlin' } },
        { type: 'dropoff', location: { lat: 52.53, lng: 13.42 }, address: { street: 'Danziger Straße', number: '60', city: 'Berlin' } },
      ],
    });
    const weekPlan = await expectOk(admin.post('/api/hailing/dispatch/plan', { booking_ids: [inWeek.id], apply: true }), 201);
    await expectOk(admin.post(`/api/hailing/tours/${weekPlan.plan.tours[0].tour_id}/force_assign`, { driver_id: drivers[0]!.id, start: true }));
    await at(berlin('12:30'), () => driveStop(drivers[0]!.client, inWeek.stops[0].id, 'completed'));
    await at(berlin('13:00'), () => driveStop(drivers[0]!.client, inWeek.stops[1].id, 'completed'));
    // A tour an applied plan made (no drivers: it promises its stops and its last ETA).
    app.t.clock.set('2026-11-09T08:00:00.000Z');
    const planService = await createService(admin, { service_area_id: area.id, name: 'Planned' });
    const booking = await createBooking(admin, {
      service_id: planService.id,
      managing_organization_ids: [org.id],
      stops: [
        { type: 'pickup', location: { lat: 52.52, lng: 13.38 }, address: { street: 'Invalidenstraße', number: '50', city: 'Berlin' } },
        { type: 'dropoff', location: { lat: 52.53, lng: 13.42 }, address: { street: 'Danziger Straße', number: '50', city: 'Berlin' } },
      ],
    });
    const plan = await expectOk(admin.post('/api/hailing/dispatch/plan', { booking_ids: [booking.id], apply: true }), 201);
    tours.planned = plan.plan.tours[0].tour_id;
    // Sessions run on the server's clock; the browser's is the real one.
    app.t.clock.set(new Date());
    adminEmail = `analytics-admin-${Date.now()}@example.com`;
    await createUser(admin, { role: 'admin', email: adminEmail, password: PASSWORD, name: 'Lea Lead' });
  }, 240_000);
  afterAll(async () => app?.close());

  /** The API's own answer for the seeded week, JSON and CSV as bytes. */
  const apiFigures = async () => (await expectOk(admin.get(`/api/analytics/deliveries?from=${PERIOD.from}&to=${PERIOD.to}`))).analytics;
  async function apiCsv(query: string): Promise<{ bytes: Buffer; disposition: string | null }> {
    const res = await fetch(`${app.url}/api/analytics/deliveries?${query}`, { headers: { authorization: `Bearer ${adminToken}`, accept: 'text/csv' } });
    expect(res.status).toBe(200);
    return { bytes: Buffer.from(await res.arrayBuffer()), disposition: res.headers.get('content-disposition') };
  }

  async function chooseWeek(page: Page, labels: { range: string; from: string; to: string; show: string }): Promise<URL> {
    await page.getByRole('radio', { name: labels.range }).check();
    await page.getByLabel(labels.from, { exact: true }).fill(FIRST);
    await page.getByLabel(labels.to, { exact: true }).fill(LAST);
    const [response] = await Promise.all([
      // The week's request, not an earlier one for the preset still under way.
      page.waitForResponse((r) => {
        const asked = new URL(r.url());
        return asked.pathname === '/api/analytics/deliveries' && asked.searchParams.get('from') === PERIOD.from && asked.searchParams.get('to') === PERIOD.to;
      }),
      page.getByRole('button', { name: labels.show }).click(),
    ]);
    return new URL(response.url());
  }

  const figure = (page: Page, label: string) => page.locator('dl[aria-label] > div', { has: page.locator('dt', { hasText: new RegExp(`^${label}$`) }) }).locator('dd').first();

  it('shows the week’s headline figures as the API answers them, sorts drivers by keyboard and downloads the API’s CSV', async () => {
    const expected = await apiFigures();
    // The seeded week has all three kinds of day bar, two failure reasons, ETAs and distance.
    expect(expected.stops.late).toBeGreaterThan(0);
    expect(expected.stops.failed).toBeGreaterThan(0);
    expect(expected.by_failure_reason.length).toBe(2);
    expect(expected.distance_km).not.toBeNull();

    const watched = await openPage(app, { viewport: LAPTOP });
    const { page } = watched;
    await signIn(page, app.url, adminEmail, PASSWORD);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Analytics' }).click();
    await page.getByRole('heading', { name: 'Analytics', level: 1 }).waitFor();
    // Yesterday (of the real clock) has no stops: the page says so in words.
    await page.getByText('No finished stops in this period.').waitFor();

    const asked = await chooseWeek(page, { range: 'Date range', from: 'From', to: 'To', show: 'Show' });
    // The period is the Berlin days' midnights (decision 1746), narrowed to the one service area.
    expect(asked.searchParams.get('from')).toBe(PERIOD.from);
    expect(asked.searchParams.get('to')).toBe(PERIOD.to);

    const percent = new Intl.NumberFormat('en-GB', { style: 'percent', maximumFractionDigits: 1 });
    const number = new Intl.NumberFormat('en-GB');
    const km = new Intl.NumberFormat('en-GB', { style: 'unit', unit: 'kilometer', maximumFractionDigits: 1 });
    const duration = (s: number) => (s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`);
    await expect.poll(() => figure(page, 'Completed').textContent()).toBe(number.format(expected.stops.completed));
    expect(await figure(page, 'Failed').textContent()).toBe(number.format(expected.stops.failed));
    expect(await figure(page, 'On time').textContent()).toBe(percent.format(expected.on_time_rate));
    expect(await figure(page, 'First attempt success').textContent()).toBe(percent.format(expected.first_attempt_success_rate));
    expect(await figure(page, 'Stops per hour').textContent()).toBe(number.format(expected.stops_per_hour));
    expect(await figure(page, 'Distance driven').textContent()).toBe(km.format(expected.distance_km));
    expect(expected.eta_error_s).not.toBeNull();
    expect(await figure(page, 'ETA error \\(mean\\)').textContent()).toBe(duration(expected.eta_error_s.mae));
    expect(await page.getByText(`90th percentile ${duration(expected.eta_error_s.p90)}, from ${expected.eta_error_s.samples} stops`).count()).toBe(1);

    // The chart is an image with a name, and its table says the same per day.
    await expect.poll(() => page.getByRole('img', { name: /Finished stops per day/ }).count()).toBe(1);
    await page.getByText('Show the days as a table').click();
    const dayTable = page.getByRole('table', { name: 'Stops per day' });
    expect(await dayTable.getByRole('row').count()).toBe(8);
    const tuesday = expected.by_day.find((d: { date: string }) => d.date === '2026-11-03');
    expect(await dayTable.getByRole('row', { name: /3 Nov 2026/ }).getByRole('cell').allTextContents()).toEqual([String(tuesday.on_time), String(tuesday.late), String(tuesday.failed)]);

    // Planned against actual per driver-day: the one tour a plan made this week, beside what it did, on Berlin's clock.
    expect(expected.by_driver_day).toHaveLength(1);
    const [planned] = expected.by_driver_day;
    const berlinTime = new Intl.DateTimeFormat('en-GB', { timeStyle: 'short', timeZone: 'Europe/Berlin' });
    const planTable = page.getByRole('table', { name: 'Planned vs actual' });
    expect(await planTable.getByRole('rowheader').allTextContents()).toEqual([planned.name]);
    expect(await planTable.getByRole('row', { name: new RegExp(planned.name) }).getByRole('cell').allTextContents()).toEqual([
      '8 Nov 2026',
      String(planned.planned.stops),
      String(planned.actual.stops_completed),
      berlinTime.format(new Date(planned.planned.finish_at)),
      berlinTime.format(new Date(planned.actual.finish_at)),
      '—',
      '—',
    ]);
    expect(berlinTime.format(new Date(planned.actual.finish_at))).toBe('14:00');

    // Failures by reason with the catalogue's labels, never the keys.
    const reasons = page.getByRole('table', { name: 'Failures by reason' });
    expect(await reasons.getByRole('rowheader').allTextContents()).toEqual(expect.arrayContaining(['Nobody present', 'Location closed']));

    // The driver table: the API's order first (most stops), then by name with the keyboard, and reversed.
    const drivers = page.getByRole('table', { name: 'Drivers' });
    const names = () => drivers.getByRole('rowheader').allTextContents();
    expect(await names()).toEqual(expected.by_driver.map((d: { name: string }) => d.name));
    const byName = drivers.getByRole('button', { name: 'Driver' });
    await byName.focus();
    await page.keyboard.press('Enter');
    expect(await names()).toEqual(['Anna Adler', 'Ben Brandt', 'Cem Çelik']);
    expect(await drivers.getByRole('columnheader', { name: 'Driver' }).getAttribute('aria-sort')).toBe('ascending');
    await page.keyboard.press('Space');
    expect(await names()).toEqual(['Cem Çelik', 'Ben Brandt', 'Anna Adler']);
    expect(await drivers.getByRole('columnheader', { name: 'Driver' }).getAttribute('aria-sort')).toBe('descending');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    expect(await drivers.getByRole('columnheader', { name: 'Stops completed' }).getAttribute('aria-sort')).toBe('descending');
    expect(await drivers.getByRole('columnheader', { name: 'Driver' }).getAttribute('aria-sort')).toBeNull();

    // The download is the API's CSV, byte for byte (its byte-order mark too), under the API's file name.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tourbook-analytics-'));
    const file = path.join(dir, download.suggestedFilename());
    await download.saveAs(file);
    const downloaded = fs.readFileSync(file);
    fs.rmSync(dir, { recursive: true, force: true });
    const api = await apiCsv(asked.searchParams.toString());
    expect(downloaded.equals(api.bytes)).toBe(true);
    expect(api.disposition).toContain(`filename="${download.suggestedFilename()}"`);
    expect(download.suggestedFilename()).toBe('deliveries-2026-11-01-2026-11-08.csv');

    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'console-analytics-en-1440');
    watched.expectClean();
    await watched.context.close();
  });

  it('shows a manager only its organizations’ tours: another organization’s manager finds no stops in the week', async () => {
    const other = await createOrganization(admin, { name: 'Kurier Süd' });
    const email = `analytics-manager-${Date.now()}@example.com`;
    await createUser(admin, { role: 'manager', email, password: PASSWORD, name: 'Mo Manager', organization_ids: [other.id] });
    const watched = await openPage(app, { viewport: LAPTOP });
    const { page } = watched;
    await signIn(page, app.url, email, PASSWORD, '/console/analytics');
    await chooseWeek(page, { range: 'Date range', from: 'From', to: 'To', show: 'Show' });
    await page.getByText('No finished stops in this period.').waitFor();
    expect(await page.getByRole('button', { name: 'Download CSV' }).count()).toBe(0);
    watched.expectClean();
    await watched.context.close();
  });

  it('reads in German on a phone, laptop screenshots too, and shows planned against actual on the tour page', async () => {
    for (const [locale, viewport, mobile] of [
      ['de-DE', LAPTOP, false],
      ['de-DE', PHONE, true],
      ['en-GB', PHONE, true],
    ] as const) {
      const watched = await openPage(app, { locale, viewport, mobile });
      const { page } = watched;
      const de = locale === 'de-DE';
      await page.goto(`${app.url}/console/analytics`);
      await page.getByLabel(de ? 'E-Mail' : 'Email').fill(adminEmail);
      await page.getByLabel(de ? 'Passwort' : 'Password').fill(PASSWORD);
      await page.getByRole('button', { name: de ? 'Anmelden' : 'Sign in' }).click();
      await page.getByRole('heading', { name: de ? 'Auswertung' : 'Analytics', level: 1 }).waitFor();
      if (de) expect(await page.getByRole('navigation').getByRole('link', { name: 'Auswertung' }).count()).toBe(1);
      await chooseWeek(page, de ? { range: 'Datumsbereich', from: 'Von', to: 'Bis', show: 'Anzeigen' } : { range: 'Date range', from: 'From', to: 'To', show: 'Show' });
      await page.getByRole('table', { name: de ? 'Fahrer' : 'Drivers' }).waitFor();
      if (de) {
        for (const label of ['Erledigt', 'Fehlgeschlagen', 'Pünktlich', 'Erfolg beim ersten Versuch', 'ETA-Abweichung \\(Mittel\\)', 'Stopps pro Stunde', 'Gefahrene Strecke']) {
          expect(await figure(page, label).count(), label).toBe(1);
        }
        const reasons = page.getByRole('table', { name: 'Fehlschläge nach Grund' });
        await expect.poll(() => reasons.getByRole('rowheader').allTextContents()).toEqual(expect.arrayContaining(['Niemand angetroffen']));
        expect(await page.getByRole('button', { name: 'CSV herunterladen' }).count()).toBe(1);
      }
      expect(await axeViolations(page)).toEqual([]);
      // The page never scrolls sideways as a whole on a phone (the chart scrolls in its own box).
      expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
      await screenshot(page, `console-analytics-${locale.slice(0, 2)}-${viewport.width}`);

      // The tour page: a planned tour shows the plan's promise beside what happened; an unplanned one says so.
      await page.goto(`${app.url}/console/tours/${tours.planned}`);
      const section = page.getByRole('region', { name: de ? 'Plan und Ist' : 'Planned vs actual' });
      await section.waitFor();
      const table = section.getByRole('table');
      await expect.poll(() => table.getByRole('columnheader').allTextContents()).toEqual(de ? ['Plan', 'Ist'] : ['Planned', 'Actual']);
      expect(await table.getByRole('row', { name: de ? /Stopps/ : /Stops/ }).getByRole('cell').allTextContents()).toEqual(['2', de ? '0 erledigt, 0 fehlgeschlagen' : '0 completed, 0 failed']);
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, `console-tour-plan-actual-${locale.slice(0, 2)}-${viewport.width}`);
      await page.goto(`${app.url}/console/tours/${tours.unplanned}`);
      await page.getByText(de ? /Diese Tour stammt aus keinem Plan/ : /No plan made this tour/).waitFor();
      expect(await page.getByRole('region', { name: de ? 'Plan und Ist' : 'Planned vs actual' }).getByRole('columnheader').allTextContents()).toEqual([de ? 'Ist' : 'Actual']);
      watched.expectClean();
      await watched.context.close();
    }
  });
});
