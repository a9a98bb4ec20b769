import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { buildTestApp, type TestApp } from '../../../test/app.ts';
import { queryRows } from '../../db/sql.ts';
import { createBooking, createPlace, createService, createServiceArea, createUser, driveStop, expectOk, tourEnRoute } from '../../../test/factories.ts';
import { ETA_ERROR_MIN_SAMPLES, ETA_ERROR_REFRESH_MS, etaErrorReadsSettled } from './eta-error.ts';
import { etaWindow } from './views.ts';

let t: TestApp;

beforeAll(async () => {
  // A server deployment always holds a master key (decision 0207): the links are derived under it.
  t = await buildTestApp({ publicUrl: 'https://track.example', reportsMasterKey: randomBytes(32).toString('base64'), rateLimit: { perSecond: 1000, burst: 1000 } });
});
afterAll(async () => t.close());

const at = (secondsFromNow = 0) => new Date(t.clock.now().getTime() + secondsFromNow * 1000).toISOString();
const tokenOf = (url: string) => url.split('/').pop()!;

/** Two bookings of two recipients on one en-route tour, a driver named "Erika Mustermann", and their links. */
async function scene() {
  const tn = await t.createTenant();
  const area = await createServiceArea(tn.admin, { average_speed_kmh: 36 });
  const service = await createService(tn.admin, { service_area_id: area.id });
  const places = await Promise.all([0, 1, 2, 3].map((i) => createPlace(tn.admin, { service_area_id: area.id, location: { lat: 52.5 + i * 0.01, lng: 13.4 } })));
  const customer = await createUser(tn.admin, { role: 'customer' });
  const b1 = await createBooking(tn.admin, { service_id: service.id, places: [places[0].id, places[1].id], customer_id: customer.id });
  const b2 = await createBooking(tn.admin, { service_id: service.id, places: [places[2].id, places[3].id] });
  const driver = await createUser(tn.admin, { role: 'driver', name: 'Erika Mustermann' });
  const tour = await tourEnRoute(tn.admin, [b1.id, b2.id], driver.id);
  const ordered: { id: string; booking_id: string }[] = tour.stops;
  const nearId = ordered[0]!.booking_id;
  const farId = ordered.find((s) => s.booking_id !== nearId)!.booking_id;
  const link = async (id: string) => (await expectOk(tn.admin.get(`/api/hailing/bookings/${id}`))).booking.tracking;
  return { tn, tour, driver, customer, b1, b2, nearId, farId, ordered, link, post: (lat: number) => driver.client.post(`/api/hailing/tours/${tour.id}/driver_location`, { location: { lat, lng: 13.4, recorded_at: at() } }) };
}

/** Every key the read may ever answer (docs/tracking.md), by path: anything else is a leak. */
const ALLOWED: Record<string, string[]> = {
  tracking: ['booking_status', 'sender', 'stops', 'driver', 'stops_before_yours', 'feedback'],
  'tracking.sender': ['name', 'logo_url'],
  'tracking.stops[]': ['kind', 'status', 'time_window', 'eta', 'eta_window', 'completed_at', 'failure', 'next_attempt', 'proof', 'address', 'date'],
  'tracking.stops[].address': ['street', 'number', 'zip_code', 'city'],
  'tracking.stops[].time_window': ['starts_at', 'ends_at'],
  'tracking.stops[].eta_window': ['earliest', 'latest'],
  'tracking.stops[].failure': ['reason'],
  'tracking.stops[].next_attempt': ['time_window'],
  'tracking.stops[].next_attempt.time_window': ['starts_at', 'ends_at'],
  'tracking.stops[].proof': ['recipient_name', 'photo_url'],
  'tracking.driver': ['first_name', 'position'],
  'tracking.driver.position': ['lat', 'lng', 'recorded_at'],
  'tracking.feedback': ['rating', 'comment'],
};

/** Every object key of `value` with its path, so a test can compare them against the allow-list. */
function keysByPath(value: unknown, path: string, out: [string, string][] = []): [string, string][] {
  if (Array.isArray(value)) value.forEach((v) => keysByPath(v, `${path}[]`, out));
  else if (value && typeof value === 'object') {
    for (const [key, v] of Object.entries(value)) {
      out.push([path, key]);
      keysByPath(v, path ? `${path}.${key}` : key, out);
    }
  }
  return out;
}

describe('tracking links on bookings', () => {
  it('carries a PUBLIC_URL/track/<token> link for admins and the customer, and none for the driver', async () => {
    const { tn, b1, customer, driver, link } = await scene();
    const tracking = await link(b1.id);
    expect(tracking).toEqual({ url: expect.stringMatching(/^https:\/\/track\.example\/track\/[A-Za-z0-9_-]{43}$/), expires_at: null });
    expect((await expectOk(tn.admin.get(`/api/hailing/bookings/${b1.id}`))).booking.tracking).toEqual(tracking);
    expect((await expectOk(customer.client.get(`/api/hailing/bookings/${b1.id}`))).booking.tracking).toEqual(tracking);
    const seenByDriver = (await expectOk(driver.client.get(`/api/hailing/bookings/${b1.id}`))).booking;
    expect(seenByDriver).not.toHaveProperty('tracking');
    expect((await driver.client.post(`/api/hailing/bookings/${b1.id}/tracking/rotate`)).status).toBe(403);
  });

  it('stores only the hash of the token', async () => {
    const { b1, link } = await scene();
    const token = tokenOf((await link(b1.id)).url);
    const rows = await queryRows(t.deps.db, sql`SELECT * FROM booking_tracking_links WHERE booking_id = ${b1.id}`);
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  it("is written by the create's own statement, and the create answers the link the booking keeps (decision 1453)", async () => {
    const tn = await t.createTenant();
    const service = await createService(tn.admin);
    // Every statement naming the links table while the create runs, at the driver (PGlite's instance or the pool).
    const target = (t.deps.database.pglite ?? t.deps.database.pool) as unknown as { query: (...args: unknown[]) => unknown };
    const original = target.query;
    const linkStatements: string[] = [];
    target.query = function (this: unknown, ...args: unknown[]) {
      const [first] = args;
      const text = typeof first === 'string' ? first : (first as { text?: string }).text;
      if (text?.includes('booking_tracking_links')) linkStatements.push(text);
      return original.apply(this, args);
    };
    const created = await createBooking(tn.admin, { service_id: service.id }).finally(() => void (target.query = original));
    expect(linkStatements).toEqual([]);
    expect(created.tracking).toEqual({ url: expect.stringMatching(/^https:\/\/track\.example\/track\/[A-Za-z0-9_-]{43}$/), expires_at: null });
    const rows = await queryRows<{ token_hash: string }>(t.deps.db, sql`SELECT token_hash FROM booking_tracking_links WHERE booking_id = ${created.id}`);
    expect(rows.map((r) => r.token_hash)).toEqual([createHash('sha256').update(tokenOf(created.tracking.url), 'utf8').digest('hex')]);
    expect((await expectOk(tn.admin.get(`/api/hailing/bookings/${created.id}`))).booking.tracking).toEqual(created.tracking);
    expect((await t.anonymous.get(`/api/tracking/${tokenOf(created.tracking.url)}`)).status).toBe(200);
  });

  it('rotation gives a new link and the old one answers 404 at once', async () => {
    const { tn, b1, link } = await scene();
    const old = await link(b1.id);
    const rotated = (await expectOk(tn.admin.post(`/api/hailing/bookings/${b1.id}/tracking/rotate`))).booking.tracking;
    expect(rotated.url).not.toBe(old.url);
    expect((await link(b1.id)).url).toBe(rotated.url);
    const gone = await t.anonymous.get(`/api/tracking/${tokenOf(old.url)}`);
    expect(gone.status).toBe(404);
    expect(gone.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(gone.body.error_code).toBe('not_found');
    expect((await t.anonymous.get(`/api/tracking/${tokenOf(rotated.url)}`)).status).toBe(200);
  });
});

describe('GET /api/tracking/{token}', () => {
  it('answers without a credential, uncached and open to any origin, only the fields of the allow-list', async () => {
    const { nearId, link, post } = await scene();
    expect((await post(52.49)).status).toBe(200);
    const res = await t.anonymous.get(`/api/tracking/${tokenOf((await link(nearId)).url)}`);
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    for (const [path, key] of keysByPath(res.body, '')) expect(path === '' ? ['tracking'] : ALLOWED[path], `${path}.${key}`).toContain(key);
    expect(Object.keys(res.body)).toEqual(['tracking']);
  });

  it("shows the driver's first name and position while the driver heads to this booking's stop, with an ETA window", async () => {
    const { nearId, link, post } = await scene();
    await expectOk(post(52.49));
    const { tracking } = await expectOk(t.anonymous.get(`/api/tracking/${tokenOf((await link(nearId)).url)}`));
    expect(tracking.booking_status).toBe('dispatched');
    expect(tracking.driver).toEqual({ first_name: 'Erika', position: { lat: 52.49, lng: 13.4, recorded_at: at() } });
    expect(tracking.stops_before_yours).toBeNull();
    expect(tracking.stops.map((s: { kind: string }) => s.kind)).toEqual(['pickup', 'dropoff']);
    const [pickup] = tracking.stops;
    expect(pickup.eta).not.toBeNull();
    expect(Date.parse(pickup.eta_window.earliest)).toBeLessThanOrEqual(Date.parse(pickup.eta));
    expect(Date.parse(pickup.eta_window.latest)).toBeGreaterThan(Date.parse(pickup.eta));
  });

  it('a second booking on the same tour reveals nothing of the first: no position, only how many stops come before', async () => {
    const { nearId, farId, link, post, ordered } = await scene();
    await expectOk(post(52.49));
    const res = await t.anonymous.get(`/api/tracking/${tokenOf((await link(farId)).url)}`);
    const { tracking } = res.body;
    expect(tracking.driver).toEqual({ first_name: 'Erika', position: null });
    expect(tracking.stops_before_yours).toBe(ordered.findIndex((s) => s.booking_id === farId));
    expect(tracking.stops).toHaveLength(2);
    for (const id of [nearId, farId, ...ordered.map((s) => s.id)]) expect(res.text).not.toContain(id);
    expect(res.text).not.toContain('Mustermann');
    for (const [path, key] of keysByPath(res.body, '')) expect(path === '' ? ['tracking'] : ALLOWED[path], `${path}.${key}`).toContain(key);
  });

  it('keeps answering until TRACKING_LINK_TTL after the last stop is final, then 410 tracking_expired', async () => {
    const { tn, nearId, link, driver } = await scene();
    const booking = (await expectOk(tn.admin.get(`/api/hailing/bookings/${nearId}`))).booking;
    for (const stop of booking.stops) await driveStop(driver.client, stop.id, 'completed');
    const tracking = await link(nearId);
    expect(tracking.expires_at).toBe(at(7 * 86_400));
    // A list page's standard view takes the link and when the booking finished from the rows it read (decision 1453).
    const listed = (await expectOk(tn.admin.get('/api/hailing/bookings'))).bookings.find((b: { id: string }) => b.id === nearId);
    expect(listed.tracking).toEqual(tracking);
    const url = `/api/tracking/${tokenOf(tracking.url)}`;
    const done = (await expectOk(t.anonymous.get(url))).tracking;
    expect(done.booking_status).toBe('completed');
    expect(done.stops.map((s: { completed_at: string | null }) => s.completed_at)).toEqual([at(), at()]);
    t.clock.advance(7 * 86_400 * 1000 - 1000);
    expect((await t.anonymous.get(url)).status).toBe(200);
    t.clock.advance(1000);
    const expired = await t.anonymous.get(url, { headers: { 'accept-language': 'de' } });
    expect(expired.status).toBe(410);
    expect(expired.body.error_code).toBe('tracking_expired');
    expect(expired.body.detail).toMatch(/abgelaufen/);
  });

  it.each([
    ['an unknown token', 'A'.repeat(43)],
    ['a short token', 'x'],
    ['percent-encoded garbage', '%00%ff%2F..%2F'],
    ['a token of quotes and SQL', "'%20OR%201=1--"],
    ['unicode', encodeURIComponent('😀💥')],
  ])('answers %s with 404 problem+json, never a 5xx', async (_name, token) => {
    const res = await t.anonymous.get(`/api/tracking/${token}`);
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
  });

  it('refuses an over-long token without a 5xx', async () => {
    const res = await t.anonymous.get(`/api/tracking/${'a'.repeat(5000)}`);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
  });
});

describe('the public read is limited per address', () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await buildTestApp({ reportsMasterKey: randomBytes(32).toString('base64'), rateLimit: { perSecond: 1, burst: 3 } });
  });
  afterAll(async () => limited.close());

  it('answers 429 rate_limited with Retry-After once the address spent its burst', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await limited.anonymous.get(`/api/tracking/${'B'.repeat(43)}`)).status);
    expect(statuses).toEqual([404, 404, 404, 429, 429]);
    const res = await limited.anonymous.get(`/api/tracking/${'B'.repeat(43)}`);
    expect(res.body.error_code).toBe('rate_limited');
    expect(res.headers['retry-after']).toBe('1');
  });

  it('counts the proof photo route against the same address (decision 1250)', async () => {
    limited.clock.advance(60_000);
    const statuses: number[] = [];
    for (let i = 0; i < 2; i++) statuses.push((await limited.anonymous.get(`/api/tracking/${'C'.repeat(43)}`)).status);
    for (let i = 0; i < 2; i++) statuses.push((await limited.anonymous.get(`/api/tracking/${'C'.repeat(43)}/stops/0/proof/photo`)).status);
    // A full bucket again for the other test, whichever order the shuffle gives (decision 0114).
    limited.clock.advance(60_000);
    expect(statuses).toEqual([404, 404, 404, 429]);
  });
});

describe('POST /api/tracking/{token}/feedback', () => {
  it('takes one rating after the last drop-off was completed, records booking.feedback_received, and refuses a second with 409', async () => {
    const { tn, nearId, link, driver } = await scene();
    const token = tokenOf((await link(nearId)).url);
    const early = await t.anonymous.post(`/api/tracking/${token}/feedback`, { feedback: { rating: 5 } });
    expect(early.status).toBe(409);
    expect(early.body.error_code).toBe('feedback_not_open');
    const booking = (await expectOk(tn.admin.get(`/api/hailing/bookings/${nearId}`))).booking;
    for (const stop of booking.stops) await driveStop(driver.client, stop.id, 'completed');
    const rated = await expectOk(t.anonymous.post(`/api/tracking/${token}/feedback`, { feedback: { rating: 4, comment: ' Friendly driver ' } }));
    expect(rated.tracking.feedback).toEqual({ rating: 4, comment: 'Friendly driver' });
    const again = await t.anonymous.post(`/api/tracking/${token}/feedback`, { feedback: { rating: 1 } });
    expect(again.status).toBe(409);
    expect(again.body.error_code).toBe('feedback_exists');
    expect((await expectOk(t.anonymous.get(`/api/tracking/${token}`))).tracking.feedback).toEqual({ rating: 4, comment: 'Friendly driver' });
    const events = (await expectOk(tn.admin.get(`/api/admin/events?filters[type]=booking.feedback_received&filters[resource_id]=${nearId}`))).events;
    expect(events.map((e: { data: Record<string, unknown> }) => e.data)).toEqual([expect.objectContaining({ booking_id: nearId, rating: 4, comment: 'Friendly driver' })]);
  });

  it.each([
    ['a rating of 0', { feedback: { rating: 0 } }, '/feedback/rating'],
    ['a rating of 6', { feedback: { rating: 6 } }, '/feedback/rating'],
    ['a rating that is text', { feedback: { rating: 'five' } }, '/feedback/rating'],
    ['an unknown field', { feedback: { rating: 3, stars: 3 } }, '/feedback/stars'],
    ['a missing rating', { feedback: {} }, '/feedback/rating'],
  ])('refuses %s with 422 and the field pointer', async (_name, body, pointer) => {
    const { nearId, link } = await scene();
    const res = await t.anonymous.post(`/api/tracking/${tokenOf((await link(nearId)).url)}/feedback`, body);
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: { pointer: string }) => e.pointer)).toContain(pointer);
  });

  it('answers an unknown token with 404', async () => {
    const res = await t.anonymous.post(`/api/tracking/${'C'.repeat(43)}/feedback`, { feedback: { rating: 3 } });
    expect(res.status).toBe(404);
    expect(res.body.error_code).toBe('not_found');
  });
});

describe('the ETA window (decisions 1101, 1784, 1786)', () => {
  const now = new Date('2026-06-01T10:00:00.000Z');
  const minutes = (n: number) => new Date(now.getTime() + n * 60_000);
  const offsets = (w: { earliest: string; latest: string }) => [(Date.parse(w.earliest) - now.getTime()) / 60_000, (Date.parse(w.latest) - now.getTime()) / 60_000];
  it.each([
    // [case, minutes to go, heading here, measured share, earliest, latest (minutes from now)]
    ['a queue: a fifth of the time to go', 60, false, null, 48, 72],
    ['a queue: at least 5 minutes, never opening in the past', 3, false, null, 0, 8],
    ['a queue: the measured share does not apply', 60, false, 0.5, 48, 72],
    ['heading here without a measured share: a fifth', 20, true, null, 16, 24],
    ['heading here without a measured share: at most ± 15 minutes', 100, true, null, 85, 115],
    ['heading here, a late tenant: half the time to go', 20, true, 0.5, 10, 30],
    ['heading here, a late tenant further away: still at most 30 minutes wide', 60, true, 0.5, 45, 75],
    ['heading here, a punctual tenant: at least ± 3 minutes', 20, true, 0.05, 17, 23],
    ['heading here, a fair tenant: narrower as the stop comes near', 10, true, 0.4, 6, 14],
    ['heading here, nearly there: never opening in the past', 2, true, 0.5, 0, 5],
    ['an ETA already passed: opens now and does not close before it', -10, true, 0.5, 0, 0],
  ] as const)('%s', (_case, toGo, heading, share, earliest, latest) => {
    const [e, l] = offsets(etaWindow(minutes(toGo), now, heading, share));
    expect(e).toBeCloseTo(earliest, 6);
    expect(l).toBeCloseTo(latest, 6);
  });
});

describe("the recipient's window from the tenant's measured ETA error (decision 1786)", () => {
  const etaMs = (iso: string | null) => Date.parse(iso ?? 'missing');

  /**
   * A tenant whose `count` stops (one tour, one booking: a pickup and its drop-offs) are measured as §17 measures the
   * ETA error: one position at a whole minute shows every stop's ETA, and each stop arrives `share` of that ETA's time
   * to go after it. `arrive(n)` arrives the next `n` stops in tour order.
   */
  async function measuredTenant(share: number, count: number) {
    const tn = await t.createTenant();
    const area = await createServiceArea(tn.admin, { average_speed_kmh: 36 });
    const service = await createService(tn.admin, { service_area_id: area.id });
    const stops = Array.from({ length: count }, (_, i) => ({
      type: i === 0 ? 'pickup' : 'dropoff',
      location: { lat: 52.5 + i * 0.005, lng: 13.4 },
      address: { street: 'Torstraße', number: String(i + 1), city: 'Berlin' },
    }));
    const booking = await createBooking(tn.admin, { service_id: service.id, stops, packages: stops.slice(1).map((_, i) => ({ pickup_stop_index: 0, dropoff_stop_index: i + 1 })) });
    const driver = await createUser(tn.admin, { role: 'driver' });
    t.clock.set(new Date((Math.floor(t.clock.now().getTime() / 60_000) + 1) * 60_000));
    const tour = await tourEnRoute(tn.admin, [booking.id], driver.id);
    // 10 km south of the pickup: its ETA is some 17 minutes ahead, more than the 5 minutes a share is taken of.
    const shownAt = t.clock.now().getTime();
    await expectOk(driver.client.post(`/api/hailing/tours/${tour.id}/driver_location`, { location: { lat: 52.41, lng: 13.4, recorded_at: t.clock.now().toISOString() } }));
    const ordered = (await expectOk(tn.admin.get(`/api/hailing/tours/${tour.id}`))).tour.stops.sort((a: { tour_position: number }, b: { tour_position: number }) => a.tour_position - b.tour_position);
    const etas: number[] = [];
    for (const s of ordered) etas.push(etaMs((await expectOk(tn.admin.get(`/api/stops/${s.id}`))).stop.eta));
    expect(etas[0]! - shownAt).toBeGreaterThan(5 * 60_000);
    let next = 0;
    const arrive = async (n: number) => {
      for (const end = next + n; next < end; next++) {
        t.clock.set(new Date(etas[next]! + Math.round(share * (etas[next]! - shownAt))));
        await driveStop(driver.client, ordered[next].id, 'completed');
      }
    };
    return { tn, service, arrive, shownAt };
  }

  /** A booking of the tenant on a tour of its own that a new driver heads for from `km` south of its pickup. */
  async function headingHere(m: { tn: Awaited<ReturnType<typeof measuredTenant>>['tn']; service: { id: string } }, km: number) {
    const booking = await createBooking(m.tn.admin, { service_id: m.service.id });
    const driver = await createUser(m.tn.admin, { role: 'driver', name: 'Erika Mustermann' });
    const tour = await tourEnRoute(m.tn.admin, [booking.id], driver.id);
    const url = `/api/tracking/${tokenOf((await expectOk(m.tn.admin.get(`/api/hailing/bookings/${booking.id}`))).booking.tracking.url)}`;
    const post = () => expectOk(driver.client.post(`/api/hailing/tours/${tour.id}/driver_location`, { location: { lat: 52.5 - km / 111.2, lng: 13.4, recorded_at: t.clock.now().toISOString() } }));
    await post();
    /** The pickup's (the tour's next stop's) minutes to go and the width of its window, in minutes. */
    const read = async () => {
      const pickup = (await expectOk(t.anonymous.get(url))).tracking.stops[0];
      return { toGo: (etaMs(pickup.eta) - t.clock.now().getTime()) / 60_000, width: (etaMs(pickup.eta_window.latest) - etaMs(pickup.eta_window.earliest)) / 60_000 };
    };
    return { post, read };
  }

  it('widens the window for a tenant whose stops came late and narrows it for a punctual one, at most 30 minutes wide', async () => {
    const late = await measuredTenant(0.5, ETA_ERROR_MIN_SAMPLES);
    await late.arrive(ETA_ERROR_MIN_SAMPLES);
    const punctual = await measuredTenant(0.05, ETA_ERROR_MIN_SAMPLES);
    await punctual.arrive(ETA_ERROR_MIN_SAMPLES);
    t.clock.advance(60_000);
    // The figure is analytics' own ETA error: every stop is measured.
    const period = `from=${new Date(late.shownAt).toISOString()}&to=${t.clock.now().toISOString()}`;
    expect((await expectOk(late.tn.admin.get(`/api/analytics/deliveries?${period}`))).analytics.eta_error_s.samples).toBe(ETA_ERROR_MIN_SAMPLES);
    // 12 km away, some 20 minutes to go: the fixed rule would say ± a fifth (8 minutes wide).
    const lateNear = await (await headingHere(late, 12)).read();
    expect(lateNear.toGo).toBeGreaterThan(15);
    expect(lateNear.toGo).toBeLessThan(30);
    expect(lateNear.width).toBeCloseTo(lateNear.toGo, 3);
    const punctualNear = await (await headingHere(punctual, 12)).read();
    expect(punctualNear.toGo).toBeCloseTo(lateNear.toGo, 3);
    expect(punctualNear.width).toBe(6);
    expect(lateNear.width).toBeGreaterThan((2 * lateNear.toGo) / 5);
    expect(punctualNear.width).toBeLessThan((2 * punctualNear.toGo) / 5);
    // 30 km away, some 50 minutes to go: half of that either way would be 50 minutes wide.
    const lateFar = await (await headingHere(late, 30)).read();
    expect(lateFar.toGo).toBeGreaterThan(40);
    expect(lateFar.width).toBe(30);
  });

  it('keeps the fixed rule with too few measured stops, and takes a new figure only once it is five minutes old', async () => {
    const m = await measuredTenant(0.5, ETA_ERROR_MIN_SAMPLES);
    await m.arrive(ETA_ERROR_MIN_SAMPLES - 1);
    t.clock.advance(60_000);
    const here = await headingHere(m, 12);
    const readAt = t.clock.now().getTime();
    const few = await here.read();
    expect(few.width).toBeCloseTo((2 * few.toGo) / 5, 3);
    // The stop that makes enough: the window does not follow it at once — the read never runs the aggregate itself.
    await m.arrive(1);
    t.clock.set(new Date(Math.max(t.clock.now().getTime() + 60_000, readAt + ETA_ERROR_REFRESH_MS)));
    await here.post();
    const stale = await here.read();
    expect(stale.width).toBeCloseTo((2 * stale.toGo) / 5, 3);
    // That read, five minutes after the figure, read it again in the background; the next one has it.
    await etaErrorReadsSettled();
    const measured = await here.read();
    expect(measured.width).toBeCloseTo(measured.toGo, 3);
  });
});
