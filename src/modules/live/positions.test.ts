import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type Client, type TestApp, type TestTenant } from '../../../test/app.ts';
import { createBooking, createPlace, createService, createServiceArea, createUser, driveStop, eventsOf, expectOk, tourEnRoute } from '../../../test/factories.ts';
import { createWorker, type Worker } from '../../worker/loop.ts';
import { DETOUR_FACTOR } from './routing.ts';
import { haversineMeters } from './geo.ts';

let t: TestApp;
let worker: Worker;

beforeAll(async () => {
  t = await buildTestApp();
  worker = createWorker(t.deps);
});
afterAll(async () => t.close());

const SPEED_KMH = 36; // 10 m/s: travel seconds = metres × 1.3 / 10

/** A tenant with a driver on an en_route tour of two bookings (pickup + drop-off each) at known Berlin places. */
async function tracked(tenant?: TestTenant) {
  const tn = tenant ?? (await t.createTenant());
  const area = await createServiceArea(tn.admin, { average_speed_kmh: SPEED_KMH });
  const service = await createService(tn.admin, { service_area_id: area.id });
  const places = await Promise.all([0, 1, 2, 3].map((i) => createPlace(tn.admin, { service_area_id: area.id, location: { lat: 52.5 + i * 0.01, lng: 13.4 } })));
  const customer = await createUser(tn.admin, { role: 'customer' });
  const b1 = await createBooking(tn.admin, { service_id: service.id, places: [places[0].id, places[1].id], customer_id: customer.id });
  const b2 = await createBooking(tn.admin, { service_id: service.id, places: [places[2].id, places[3].id] });
  const driver = await createUser(tn.admin, { role: 'driver' });
  const tour = await tourEnRoute(tn.admin, [b1.id, b2.id], driver.id);
  const post = (location: Record<string, unknown>, client = driver.client) => client.post(`/api/hailing/tours/${tour.id}/driver_location`, { location });
  return { tenant: tn, area, tour, driver, customer, bookings: [b1, b2], places, post };
}

const at = (secondsFromNow = 0) => new Date(t.clock.now().getTime() + secondsFromNow * 1000).toISOString();
const legSeconds = (a: { lat: number; lng: number }, b: { lat: number; lng: number }) => (haversineMeters(a, b) * DETOUR_FACTOR) / (SPEED_KMH / 3.6);

describe('POST /api/hailing/tours/{id}/driver_location', () => {
  it('stores the position of the tour\'s driver and answers it as the current one', async () => {
    const { post, tour, tenant } = await tracked();
    const res = await post({ lat: 52.49, lng: 13.4, heading: 90, speed: 8.5, accuracy: 5, recorded_at: at(-2) });
    expect(res.status).toBe(200);
    expect(res.body.location).toMatchObject({ lat: 52.49, lng: 13.4, heading: 90, speed: 8.5, accuracy: 5, recorded_at: at(-2), filtered: null, current: true });
    const page = await expectOk(tenant.admin.get(`/api/hailing/tours/${tour.id}/positions`));
    expect(page.positions.map((p: { id: string }) => p.id)).toEqual([res.body.location.id]);
  });

  it.each([
    ['a latitude beyond 90', { lat: 90.5, lng: 13.4 }, '/location/lat'],
    ['a longitude beyond -180', { lat: 52.5, lng: -180.1 }, '/location/lng'],
    ['a missing recorded_at', { lat: 52.5, lng: 13.4, recorded_at: undefined }, '/location/recorded_at'],
    ['a recorded_at more than 5 minutes ahead', { lat: 52.5, lng: 13.4, recorded_at: 'future' }, '/location/recorded_at'],
  ])('refuses %s with 422 and the field pointer', async (_name, location, pointer) => {
    const { post, tour, tenant } = await tracked();
    const body = { recorded_at: at(), ...location } as Record<string, unknown>;
    if (body.recorded_at === 'future') body.recorded_at = at(5 * 60 + 1);
    const res = await post(body);
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: { pointer: string }) => e.pointer)).toContain(pointer);
    const page = await expectOk(tenant.admin.get(`/api/hailing/tours/${tour.id}/positions`));
    expect(page.positions).toEqual([]);
  });

  it('accepts a recorded_at exactly 5 minutes ahead', async () => {
    const { post } = await tracked();
    expect((await post({ lat: 52.5, lng: 13.4, recorded_at: at(300) })).status).toBe(200);
  });

  it('answers 404 to a driver who does not see the tour and 403 to anyone else who does', async () => {
    const { post, tenant, customer } = await tracked();
    const stranger = await createUser(tenant.admin, { role: 'driver' });
    const location = { lat: 52.5, lng: 13.4, recorded_at: at() };
    expect((await post(location, stranger.client)).status).toBe(404);
    expect((await post(location, tenant.admin)).status).toBe(403);
    expect((await post(location, customer.client)).status).toBe(403);
    const other = await t.createTenant();
    const foreign = await createUser(other.admin, { role: 'driver' });
    expect((await post(location, foreign.client)).status).toBe(404);
  });

  it('refuses positions once the tour is cancelled (409), after the visibility check', async () => {
    const { post, tour, tenant, driver } = await tracked();
    await expectOk(tenant.admin.post(`/api/hailing/tours/${tour.id}/cancel`, {}));
    const res = await post({ lat: 52.5, lng: 13.4, recorded_at: at() }, driver.client);
    expect(res.status).toBe(409);
    expect(res.body.error_code).toBe('tour_not_tracked');
  });

  it('refuses the position of a driver the tour was taken from, even right after that driver\'s last position was written', async () => {
    const { post, tour, tenant } = await tracked();
    // The first position makes the tracking row; the second is written by the fast path, which keeps what it read.
    await expectOk(post({ lat: 52.49, lng: 13.4, recorded_at: at(-20) }));
    await expectOk(post({ lat: 52.4901, lng: 13.4, recorded_at: at(-10) }));
    await expectOk(tenant.admin.post(`/api/hailing/tours/${tour.id}/force_unassign`, {}));
    const res = await post({ lat: 52.4902, lng: 13.4, recorded_at: at() });
    // The driver still sees the tour (its organization's); it is no longer the tour's driver.
    expect(res.status).toBe(403);
  });

  it('flags (0, 0), exact duplicates and impossible jumps, and keeps late older fixes as history only', async () => {
    const { post, tour, tenant } = await tracked();
    const first = await expectOk(post({ lat: 52.49, lng: 13.4, recorded_at: at(-60) }));
    const zero = await expectOk(post({ lat: 0, lng: 0, recorded_at: at(-50) }));
    const duplicate = await expectOk(post({ lat: 52.49, lng: 13.4, recorded_at: at(-60) }));
    // 5.5 km in 10 s is ~2,000 km/h.
    const jump = await expectOk(post({ lat: 52.54, lng: 13.4, recorded_at: at(-50) }));
    const older = await expectOk(post({ lat: 52.488, lng: 13.4, recorded_at: at(-120) }));
    expect([first, zero, duplicate, jump, older].map((b) => [b.location.filtered, b.location.current])).toEqual([
      [null, true],
      ['zero', false],
      ['duplicate', false],
      ['jump', false],
      [null, false],
    ]);
    const page = await expectOk(tenant.admin.get(`/api/hailing/tours/${tour.id}/positions?limit=2`));
    expect(page.positions.map((p: { id: string }) => p.id)).toEqual([older.location.id, jump.location.id]);
    const rest = await expectOk(tenant.admin.get(`/api/hailing/tours/${tour.id}/positions?limit=10&cursor=${page.meta.next_cursor}`));
    expect(rest.positions.map((p: { id: string }) => p.id)).toEqual([duplicate.location.id, zero.location.id, first.location.id]);
    expect(rest.meta.has_more).toBe(false);
    // Only the first fix moved the ETAs: one recalculation.
    expect(await eventsOf(tenant.admin, tour.id, 'tour.etas_recalculated')).toHaveLength(1);
  });

  it('honours a configured maximum speed', async () => {
    const slow = await buildTestApp({ live: { ...t.config.live, maxSpeedKmh: 50 } });
    try {
      const tenant = await slow.createTenant();
      const area = await createServiceArea(tenant.admin);
      const service = await createService(tenant.admin, { service_area_id: area.id });
      const booking = await createBooking(tenant.admin, { service_id: service.id });
      const driver = await createUser(tenant.admin, { role: 'driver' });
      const tour = await tourEnRoute(tenant.admin, [booking.id], driver.id);
      const url = `/api/hailing/tours/${tour.id}/driver_location`;
      const now = slow.clock.now().getTime();
      await expectOk(driver.client.post(url, { location: { lat: 52.5, lng: 13.4, recorded_at: new Date(now - 60_000).toISOString() } }));
      // 1.1 km in 60 s: 67 km/h, over 50.
      const res = await expectOk(driver.client.post(url, { location: { lat: 52.51, lng: 13.4, recorded_at: new Date(now).toISOString() } }));
      expect(res.location.filtered).toBe('jump');
    } finally {
      await slow.close();
    }
  });
});

describe('POST /api/hailing/tours/{id}/driver_locations', () => {
  const batch = async (tour: { id: string }, locations: Record<string, unknown>[], client: Client) =>
    client.post(`/api/hailing/tours/${tour.id}/driver_locations`, { locations });
  const history = async (tenant: TestTenant, tour: { id: string }) =>
    (await expectOk(tenant.admin.get(`/api/hailing/tours/${tour.id}/positions?limit=100`))).positions as { id: string; lat: number; current: boolean; filtered: string | null }[];

  it('stores every fix, sent in any order, and makes only the newest current: ETAs and the webhook once per batch', async () => {
    const { tour, tenant, driver, places } = await tracked();
    // A dead zone's track, sent shuffled: answers in the order sent.
    const track = [0, 1, 2, 3, 4].map((i) => ({ lat: 52.48 + i * 0.001, lng: 13.4, recorded_at: at(-50 + i * 10) }));
    const sent = [track[3], track[0], track[4], track[2], track[1]] as typeof track;
    const res = await batch(tour, sent, driver.client);
    expect(res.status).toBe(200);
    expect(res.body.locations.map((l: { lat: number; current: boolean; filtered: string | null }) => [l.lat, l.current, l.filtered])).toEqual(sent.map((f) => [f.lat, f === track[4], null]));
    expect((await history(tenant, tour)).map((p) => p.id).sort()).toEqual(res.body.locations.map((l: { id: string }) => l.id).sort());
    // The ETAs start from the newest fix, computed and told once.
    const told = await eventsOf(tenant.admin, tour.id, 'tour.etas_recalculated');
    expect(told).toHaveLength(1);
    const firstStop = places.find((p) => p.id === tour.stops[0].place_id).location;
    const expected = t.clock.now().getTime() + legSeconds(track[4]!, firstStop) * 1000;
    expect(Math.abs(new Date(told[0].data.unfinished_stops_info[0].eta).getTime() - expected)).toBeLessThan(2);
    t.clock.advanceSeconds(10);
    await worker.drain();
    const updated = await eventsOf(tenant.admin, tour.id, 'tour.driver_location_updated');
    expect(updated).toHaveLength(1);
    expect(updated[0].data.location).toMatchObject({ lat: track[4]!.lat, recorded_at: track[4]!.recorded_at });
  });

  it('keeps a batch older than the current position as history only, moving nothing', async () => {
    const { post, tour, tenant, driver } = await tracked();
    const current = await expectOk(post({ lat: 52.49, lng: 13.4, recorded_at: at(-10) }));
    const res = await expectOk(batch(tour, [{ lat: 52.489, lng: 13.4, recorded_at: at(-30) }, { lat: 52.4895, lng: 13.4, recorded_at: at(-20) }], driver.client));
    expect(res.locations.map((l: { current: boolean; filtered: string | null }) => [l.current, l.filtered])).toEqual([[false, null], [false, null]]);
    const after = (await expectOk(tenant.admin.get(`/api/hailing/tours/${tour.id}/positions?limit=1`))).positions;
    expect(after[0].id).toBe(res.locations[1].id);
    expect(await eventsOf(tenant.admin, tour.id, 'tour.etas_recalculated')).toHaveLength(1);
    // A single fix between the two still compares against the current one: the batch did not move it.
    const later = await expectOk(post({ lat: 52.4901, lng: 13.4, recorded_at: at(-15) }));
    expect(later.location.current).toBe(false);
    expect(current.location.current).toBe(true);
  });

  it('flags (0, 0), fixes stored already or repeated in the batch, and jumps from the fix before them', async () => {
    const { post, tour, driver } = await tracked();
    await expectOk(post({ lat: 52.49, lng: 13.4, recorded_at: at(-100) }));
    const res = await expectOk(
      batch(
        tour,
        [
          { lat: 52.49, lng: 13.4, recorded_at: at(-100) }, // stored already: a retried upload
          { lat: 0, lng: 0, recorded_at: at(-90) },
          { lat: 52.491, lng: 13.4, recorded_at: at(-80) },
          { lat: 52.491, lng: 13.4, recorded_at: at(-80) }, // twice in the batch
          { lat: 52.55, lng: 13.4, recorded_at: at(-70) }, // 6.5 km in 10 s from the fix before
          { lat: 52.492, lng: 13.4, recorded_at: at(-60) },
        ],
        driver.client,
      ),
    );
    expect(res.locations.map((l: { current: boolean; filtered: string | null }) => [l.filtered, l.current])).toEqual([
      ['duplicate', false],
      ['zero', false],
      [null, false],
      ['duplicate', false],
      ['jump', false],
      [null, true],
    ]);
  });

  it('judges each fix against the fix before it in time, not against the position before the batch', async () => {
    const { post, tour, driver } = await tracked();
    await expectOk(post({ lat: 52.4, lng: 13.4, recorded_at: at(-3600) }));
    // 11 km in 58 minutes, then back 10 km in 100 s (360 km/h): a jump from the fix before it, though only 1.1 km
    // from where the hour began.
    const res = await expectOk(batch(tour, [{ lat: 52.41, lng: 13.4, recorded_at: at() }, { lat: 52.5, lng: 13.4, recorded_at: at(-100) }], driver.client));
    expect(res.locations.map((l: { current: boolean; filtered: string | null }) => [l.filtered, l.current])).toEqual([
      ['jump', false],
      [null, true],
    ]);
  });

  it.each([
    ['a latitude beyond 90 in the fourth fix', (ok: Record<string, unknown>[]) => ok.map((f, i) => (i === 3 ? { ...f, lat: 90.5 } : f)), '/locations/3/lat'],
    ['an unknown field in the second fix', (ok: Record<string, unknown>[]) => ok.map((f, i) => (i === 1 ? { ...f, altitude: 3 } : f)), '/locations/1/altitude'],
    ['a recorded_at more than 5 minutes ahead in the third fix', (ok: Record<string, unknown>[]) => ok.map((f, i) => (i === 2 ? { ...f, recorded_at: at(301) } : f)), '/locations/2/recorded_at'],
    ['no fix', () => [], '/locations'],
    ['more than 720 fixes', (ok: Record<string, unknown>[]) => Array.from({ length: 721 }, () => ok[0]!), '/locations'],
  ])('refuses %s with 422 and the pointer, storing nothing', async (_name, make, pointer) => {
    const { tour, tenant, driver } = await tracked();
    const ok = [0, 1, 2, 3].map((i) => ({ lat: 52.49, lng: 13.4 + i * 0.0001, recorded_at: at(-40 + i * 10) }));
    const res = await batch(tour, make(ok), driver.client);
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: { pointer: string }) => e.pointer)).toContain(pointer);
    expect(await history(tenant, tour)).toEqual([]);
  });

  it('answers 404 to a driver who does not see the tour, 403 to anyone else who does, 409 once it is cancelled', async () => {
    const { tour, tenant, customer, driver } = await tracked();
    const locations = [{ lat: 52.5, lng: 13.4, recorded_at: at() }];
    const stranger = await createUser(tenant.admin, { role: 'driver' });
    expect((await batch(tour, locations, stranger.client)).status).toBe(404);
    const other = await t.createTenant();
    expect((await batch(tour, locations, (await createUser(other.admin, { role: 'driver' })).client)).status).toBe(404);
    expect((await batch(tour, locations, tenant.admin)).status).toBe(403);
    expect((await batch(tour, locations, customer.client)).status).toBe(403);
    await expectOk(tenant.admin.post(`/api/hailing/tours/${tour.id}/cancel`, {}));
    const res = await batch(tour, locations, driver.client);
    expect(res.status).toBe(409);
    expect(res.body.error_code).toBe('tour_not_tracked');
    expect(await history(tenant, tour)).toEqual([]);
  });
});

describe('GET /api/hailing/tours/{id}/positions', () => {
  it('is for admins and the executing organization\'s managers only', async () => {
    const { post, tour, tenant, driver, customer } = await tracked();
    await expectOk(post({ lat: 52.5, lng: 13.4, recorded_at: at() }));
    const ownManager = await createUser(tenant.admin, { role: 'manager', organization_ids: driver.user.organization_ids });
    const otherManager = await createUser(tenant.admin, { role: 'manager' });
    expect((await ownManager.client.get(`/api/hailing/tours/${tour.id}/positions`)).body.positions).toHaveLength(1);
    expect((await otherManager.client.get(`/api/hailing/tours/${tour.id}/positions`)).status).toBe(404);
    expect((await driver.client.get(`/api/hailing/tours/${tour.id}/positions`)).status).toBe(403);
    expect((await customer.client.get(`/api/hailing/tours/${tour.id}/positions`)).status).toBe(403);
    expect((await tenant.admin.get(`/api/hailing/tours/${tour.id}/positions?cursor=nonsense`)).status).toBe(400);
  });

  it('forgets positions older than the retention period when the retention job runs', async () => {
    const { post, tour, tenant } = await tracked();
    await expectOk(post({ lat: 52.5, lng: 13.4, recorded_at: at() }));
    t.clock.advanceSeconds(29 * 86_400);
    await expectOk(post({ lat: 52.5, lng: 13.401, recorded_at: at() }));
    t.clock.advanceSeconds(2 * 86_400);
    await worker.drain(); // the retention job runs at start and hourly
    t.clock.advanceSeconds(3_600);
    await worker.drain();
    const page = await expectOk(tenant.admin.get(`/api/hailing/tours/${tour.id}/positions`));
    expect(page.positions.map((p: { lng: number }) => p.lng)).toEqual([13.401]);
  });
});

describe('ETAs', () => {
  it('computes ETAs from the position through the open stops and tells tour and bookings the first time', async () => {
    const { post, tour, tenant, bookings, places } = await tracked();
    const position = { lat: 52.49, lng: 13.4 };
    await expectOk(post({ ...position, recorded_at: at() }));
    const [event] = await eventsOf(tenant.admin, tour.id, 'tour.etas_recalculated');
    const infos = event.data.unfinished_stops_info as { id: string; position: number; type: string; eta: string }[];
    expect(infos).toHaveLength(4);
    // Stops in tour order: the places in the order merged; straight-line legs at 36 km/h; no service time, no windows.
    const stopPlaces = tour.stops.map((s: { place_id: string }) => places.find((p) => p.id === s.place_id).location);
    let clock = t.clock.now().getTime();
    let from = position;
    infos.forEach((info, i) => {
      expect(info.id).toBe(tour.stops[i].id);
      clock += (legSeconds(from, stopPlaces[i]) + 0) * 1000;
      expect(Math.abs(new Date(info.eta).getTime() - clock)).toBeLessThan(2);
      clock += tour.stops[i].service_duration_seconds * 1000;
      from = stopPlaces[i];
    });
    expect(event.data).toMatchObject({ tour_id: tour.id, service_area_id: tour.service_area_id });
    const [bookingEvent] = await eventsOf(tenant.admin, bookings[0].id, 'booking.etas_recalculated');
    expect(bookingEvent.data).toMatchObject({ booking_id: bookings[0].id, customer_id: bookings[0].customer_id });
    expect(bookingEvent.data.unfinished_stops_info.map((s: { id: string }) => s.id)).toEqual(bookings[0].stops.map((s: { id: string }) => s.id));
    expect(await eventsOf(tenant.admin, bookings[1].id, 'booking.etas_recalculated')).toHaveLength(1);
  });

  it('computes from the stops as they are now when a stop changed since the previous position, before its ETA job ran', async () => {
    const { post, tour, tenant, driver, places } = await tracked();
    await expectOk(post({ lat: 52.499, lng: 13.41, recorded_at: at(-20) }));
    await expectOk(post({ lat: 52.4991, lng: 13.41, recorded_at: at(-10) }));
    // No worker.drain(): the recomputation the completion scheduled has not run when the next position arrives.
    await driveStop(driver.client, tour.stops[0].id, 'completed');
    const fix = { lat: 52.4992, lng: 13.41 };
    await expectOk(post({ ...fix, recorded_at: at() }));
    const after = (await expectOk(tenant.admin.get(`/api/hailing/tours/${tour.id}`))).tour;
    // The first booking's drop-off is now the first open stop: straight from the driver, not via the completed pickup.
    const expected = t.clock.now().getTime() + legSeconds(fix, places[1].location) * 1000;
    expect(Math.abs(new Date(after.stops[1].eta).getTime() - expected)).toBeLessThan(2);
  });

  it('stores ETAs that moved by 5 s or more, under the 60 s that events need, without telling anyone', async () => {
    const { post, tour, tenant, places } = await tracked();
    await expectOk(post({ lat: 52.49, lng: 13.4, recorded_at: at(-20) }));
    // 100 m nearer the first stop: 13 s earlier at every stop.
    const fix = { lat: 52.4909, lng: 13.4 };
    await expectOk(post({ ...fix, recorded_at: at(-10) }));
    const firstEta = async () => new Date((await expectOk(tenant.admin.get(`/api/hailing/tours/${tour.id}`))).tour.stops[0].eta).getTime();
    expect(Math.abs((await firstEta()) - (t.clock.now().getTime() + legSeconds(fix, places[0].location) * 1000))).toBeLessThan(2);
    // Back again: this position starts from what the previous one stored (its snapshot), and stores the later ETAs.
    const back = { lat: 52.49, lng: 13.4 };
    await expectOk(post({ ...back, recorded_at: at() }));
    expect(Math.abs((await firstEta()) - (t.clock.now().getTime() + legSeconds(back, places[0].location) * 1000))).toBeLessThan(2);
    // Told once: the first position's ETAs.
    expect(await eventsOf(tenant.admin, tour.id, 'tour.etas_recalculated')).toHaveLength(1);
  });

  it('measures the next move from the ETAs last told, also when the fast path told them', async () => {
    const { post, tour, tenant, driver } = await tracked();
    await expectOk(post({ lat: 52.49, lng: 13.4, recorded_at: at(-120) }));
    // 690 m farther from the first stop: 90 s later everywhere, told (the first fast position of the tour reads).
    await expectOk(post({ lat: 52.4838, lng: 13.4, recorded_at: at(-60) }));
    // A stop changes (still open, same place): the next position reads what is stored, not what this process kept.
    await driveStop(driver.client, tour.stops[0].id, 'approaching');
    // 222 m farther again: 29 s after what was told last, 118 s after the first ETAs.
    await expectOk(post({ lat: 52.4818, lng: 13.4, recorded_at: at() }));
    const told = await eventsOf(tenant.admin, tour.id, 'tour.etas_recalculated');
    expect(told).toHaveLength(2);
  });

  it('records *.etas_recalculated only when some ETA moved by 60 s or more', async () => {
    const { post, tour, tenant } = await tracked();
    await expectOk(post({ lat: 52.49, lng: 13.4, recorded_at: at() }));
    // 30 s later, 30 s of travel closer (231 m of road at 10 m/s, as the crow flies 231 / 1.3): the ETAs hold.
    t.clock.advanceSeconds(30);
    const closer = 52.49 + (30 * 10) / DETOUR_FACTOR / 111_195;
    await expectOk(post({ lat: closer, lng: 13.4, recorded_at: at() }));
    expect(await eventsOf(tenant.admin, tour.id, 'tour.etas_recalculated')).toHaveLength(1);
    // 59 s standing still: every ETA slips 59 s — still not a move.
    t.clock.advanceSeconds(59);
    await expectOk(post({ lat: closer, lng: 13.4, recorded_at: at() }));
    expect(await eventsOf(tenant.admin, tour.id, 'tour.etas_recalculated')).toHaveLength(1);
    // One more second: 60 s behind the ETAs last told (slow drift adds up against what was told, not the last computation).
    t.clock.advanceSeconds(1);
    await expectOk(post({ lat: closer, lng: 13.4, recorded_at: at() }));
    const events = await eventsOf(tenant.admin, tour.id, 'tour.etas_recalculated');
    expect(events).toHaveLength(2);
    const slip = (i: number) => new Date(events[1].data.unfinished_stops_info[i].eta).getTime() - new Date(events[0].data.unfinished_stops_info[i].eta).getTime();
    expect(slip(0)).toBeGreaterThanOrEqual(60_000);
  });
});

describe('tour.driver_location_updated', () => {
  it('coalesces webhooks to one per tour per 10 s carrying the latest position', async () => {
    const { post, tour, tenant, driver } = await tracked();
    await expectOk(post({ lat: 52.49, lng: 13.4, recorded_at: at() }));
    t.clock.advanceSeconds(5);
    await expectOk(post({ lat: 52.4905, lng: 13.4, recorded_at: at() }));
    await worker.drain();
    expect(await eventsOf(tenant.admin, tour.id, 'tour.driver_location_updated')).toHaveLength(0);
    t.clock.advanceSeconds(5);
    await worker.drain();
    let events = await eventsOf(tenant.admin, tour.id, 'tour.driver_location_updated');
    expect(events).toHaveLength(1);
    expect(events[0].data).toEqual({
      tour_id: tour.id,
      service_area_id: tour.service_area_id,
      driver_id: driver.id,
      location: { lat: 52.4905, lng: 13.4, heading: null, speed: null, accuracy: null, recorded_at: at(-5) },
    });
    // Filtered positions open no window.
    await expectOk(post({ lat: 0, lng: 0, recorded_at: at() }));
    t.clock.advanceSeconds(10);
    await worker.drain();
    expect(await eventsOf(tenant.admin, tour.id, 'tour.driver_location_updated')).toHaveLength(1);
    // A position every 5 s for 30 s: three webhooks, 10 s apart.
    for (let i = 0; i < 6; i++) {
      await expectOk(post({ lat: 52.491 + i * 0.0004, lng: 13.4, recorded_at: at() }));
      t.clock.advanceSeconds(5);
      await worker.drain();
    }
    events = await eventsOf(tenant.admin, tour.id, 'tour.driver_location_updated');
    expect(events).toHaveLength(4);
    const times = events.slice(1).map((e) => new Date(e.timestamp).getTime());
    expect(times[1]! - times[0]!).toBe(10_000);  
    expect(times[2]! - times[1]!).toBe(10_000);  
  });
});
