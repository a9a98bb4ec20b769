// The recipient's later day through the tracking link (decision 1788): offered where the service area allows it,
// once, while nothing of the booking is under way; the booking's open stops keep their wall-clock windows on the new
// day and leave their tour, so the booking is planned again, whole.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/app.ts';
import { createBooking, createService, createServiceArea, createUser, driveStop, expectOk, mergeIntoTour, tourEnRoute } from '../../../test/factories.ts';
import { waitUntilSomeoneWaitsForALock } from '../../../test/locks.ts';

let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp({ publicUrl: 'https://track.example', reportsMasterKey: randomBytes(32).toString('base64'), rateLimit: { perSecond: 1000, burst: 1000 } });
});
afterAll(async () => t.close());

const tokenOf = (url: string) => url.split('/').pop()!;
type Stop = { id: string; status: string; tour_id: string | null; tour_position: number | null; time_window: { starts_at: string; ends_at: string } | null };

/**
 * Two bookings of one area (Europe/Berlin) on one planned tour, each a pickup 09:00–10:00 and a drop-off 14:00–16:00
 * Berlin time on 2 June 2026; the clock at 1 June, 10:00 Berlin. `days`: the area's recipient_reschedule_days.
 */
async function scene(days = 3) {
  t.clock.set('2026-06-01T08:00:00Z');
  const tn = await t.createTenant();
  const area = await createServiceArea(tn.admin, { recipient_reschedule_days: days });
  const service = await createService(tn.admin, { service_area_id: area.id });
  const booking = (lng: number) =>
    createBooking(tn.admin, {
      service_id: service.id,
      stops: [
        { type: 'pickup', location: { lat: 52.5, lng }, address: { street: 'Chausseestraße', number: '1', city: 'Berlin' }, time_window: { starts_at: '2026-06-02T07:00:00Z', ends_at: '2026-06-02T08:00:00Z' } },
        { type: 'dropoff', location: { lat: 52.51, lng }, address: { street: 'Torstraße', number: '2', city: 'Berlin' }, time_window: { starts_at: '2026-06-02T12:00:00Z', ends_at: '2026-06-02T14:00:00Z' } },
      ],
    });
  const moving = await booking(13.4);
  const staying = await booking(13.41);
  const token = tokenOf((await expectOk(tn.admin.get(`/api/hailing/bookings/${moving.id}`))).booking.tracking.url);
  const bookingOf = async (id: string) => (await expectOk(tn.admin.get(`/api/hailing/bookings/${id}`))).booking as { status: string; stops: Stop[] };
  return { tn, service, moving, staying, token, url: `/api/tracking/${token}/delivery_date`, bookingOf };
}

describe('GET/PUT /api/tracking/{token}/delivery_date', () => {
  it('moves the booking to a later day offered: same wall-clock windows, off its tour, to be dispatched again, audited', async () => {
    const s = await scene();
    const tour = await mergeIntoTour(s.tn.admin, [s.moving.id, s.staying.id]);
    expect((await expectOk(t.anonymous.get(s.url))).delivery_date).toEqual({
      date: '2026-06-02',
      options: ['2026-06-03', '2026-06-04', '2026-06-05'],
      changeable: true,
      closed_reason: null,
      moved_from: null,
    });

    const moved = await expectOk(t.anonymous.put(s.url, { delivery_date: { date: '2026-06-04' } }));
    expect(moved.delivery_date).toEqual({ date: '2026-06-04', options: [], changeable: false, closed_reason: 'moved', moved_from: '2026-06-02' });
    const booking = await s.bookingOf(s.moving.id);
    expect(booking.status).toBe('to_be_dispatched');
    expect(booking.stops.map((stop) => [stop.status, stop.tour_id, stop.time_window])).toEqual([
      ['to_be_dispatched', null, { starts_at: '2026-06-04T07:00:00.000Z', ends_at: '2026-06-04T08:00:00.000Z' }],
      ['to_be_dispatched', null, { starts_at: '2026-06-04T12:00:00.000Z', ends_at: '2026-06-04T14:00:00.000Z' }],
    ]);
    // The other booking keeps the tour, its gaps closed.
    const left = (await expectOk(s.tn.admin.get(`/api/hailing/tours/${tour.id}`))).tour.stops as Stop[];
    expect(left.map((stop) => stop.tour_position)).toEqual([0, 1]);
    expect((await s.bookingOf(s.staying.id)).status).toBe('dispatched');
    // The recipient's page says the new day.
    const tracking = (await expectOk(t.anonymous.get(`/api/tracking/${s.token}`))).tracking;
    expect(tracking.stops.find((stop: { kind: string }) => stop.kind === 'dropoff').date).toBe('2026-06-04');

    const events = (await expectOk(s.tn.admin.get(`/api/admin/events?filters[resource_id]=${s.moving.id}&limit=50`))).events as { type: string; actor: unknown; data: Record<string, unknown> }[];
    const changed = events.filter((e) => e.type === 'booking.delivery_date_changed');
    expect(changed.map((e) => e.data)).toEqual([expect.objectContaining({ booking_id: s.moving.id, from_date: '2026-06-02', to_date: '2026-06-04' })]);
    expect(changed[0]!.actor).toEqual({ type: 'system', id: null, api_key_id: null });
    expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(['booking.route_changed', 'booking.transition']));

    // Once per booking.
    const again = await t.anonymous.put(s.url, { delivery_date: { date: '2026-06-05' } });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error_code: 'delivery_date_closed', reason: 'moved' });
  });

  it('is not offered where the service area allows no days (the default)', async () => {
    const s = await scene(0);
    expect((await expectOk(t.anonymous.get(s.url))).delivery_date).toMatchObject({ date: '2026-06-02', options: [], changeable: false, closed_reason: 'not_offered' });
    const res = await t.anonymous.put(s.url, { delivery_date: { date: '2026-06-03' } }, { headers: { 'accept-language': 'de' } });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ error_code: 'delivery_date_closed', reason: 'not_offered' });
    expect(res.body.detail).toBe('Der Absender bietet keinen anderen Zustelltag an.');
  });

  it('offers only days after today on the area clock', async () => {
    const s = await scene(3);
    // 3 June, 01:00 in Berlin (still 2 June in UTC): the 3rd is today there, so it is not offered.
    t.clock.set('2026-06-02T23:00:00Z');
    expect((await expectOk(t.anonymous.get(s.url))).delivery_date.options).toEqual(['2026-06-04', '2026-06-05']);
  });

  it.each([
    ['a day not offered', { delivery_date: { date: '2026-06-06' } }, '/delivery_date/date'],
    ['the same day', { delivery_date: { date: '2026-06-02' } }, '/delivery_date/date'],
    ['a day that is no date', { delivery_date: { date: 'tomorrow' } }, '/delivery_date/date'],
    ['an unknown field', { delivery_date: { date: '2026-06-03', window: 'afternoon' } }, '/delivery_date/window'],
  ])('refuses %s with 422 at its pointer and moves nothing', async (_name, body, pointer) => {
    const s = await scene();
    const res = await t.anonymous.put(s.url, body);
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: { pointer: string }) => e.pointer)).toContain(pointer);
    expect((await s.bookingOf(s.moving.id)).stops.map((stop) => stop.time_window?.starts_at)).toEqual(['2026-06-02T07:00:00.000Z', '2026-06-02T12:00:00.000Z']);
    expect((await expectOk(t.anonymous.get(s.url))).delivery_date.changeable).toBe(true);
  });

  it('leaves an en-route tour whose driver has not set out for the booking, and closes once a stop is approached', async () => {
    const s = await scene();
    const driver = await createUser(s.tn.admin, { role: 'driver' });
    const tour = await tourEnRoute(s.tn.admin, [s.staying.id, s.moving.id], driver.id);
    const staying = (tour.stops as (Stop & { booking_id: string })[]).filter((stop) => stop.booking_id === s.staying.id);
    await driveStop(driver.client, staying[0]!.id, 'approaching');
    // Approaching the other booking's pickup is not this one's: it may still move.
    await expectOk(t.anonymous.put(s.url, { delivery_date: { date: '2026-06-03' } }));
    expect((await expectOk(s.tn.admin.get(`/api/hailing/tours/${tour.id}`))).tour).toMatchObject({ status: 'en_route' });

    const other = await scene();
    const otherDriver = await createUser(other.tn.admin, { role: 'driver' });
    const otherTour = await tourEnRoute(other.tn.admin, [other.moving.id], otherDriver.id);
    await driveStop(otherDriver.client, otherTour.stops[0].id, 'approaching');
    expect((await expectOk(t.anonymous.get(other.url))).delivery_date).toMatchObject({ changeable: false, closed_reason: 'under_way' });
    const res = await t.anonymous.put(other.url, { delivery_date: { date: '2026-06-03' } });
    expect(res.status).toBe(409);
    expect(res.body.reason).toBe('under_way');
  });

  it('answers an unknown token with 404 for both', async () => {
    const url = `/api/tracking/${'C'.repeat(43)}/delivery_date`;
    expect((await t.anonymous.get(url)).status).toBe(404);
    expect((await t.anonymous.put(url, { delivery_date: { date: '2026-06-03' } })).status).toBe(404);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('a later day racing the driver on PostgreSQL', () => {
  it('a move waiting on the tour answers 409 when the driver approached the pickup meanwhile, and moves nothing', async () => {
    const s = await scene();
    const driver = await createUser(s.tn.admin, { role: 'driver' });
    const tour = await tourEnRoute(s.tn.admin, [s.moving.id], driver.id);
    const pool = t.deps.database.pool!;
    const other = await pool.connect();
    try {
      // The driver's approach holds the tour (as the driver flow does) and sets out for the pickup.
      await other.query('BEGIN');
      await other.query('SELECT id FROM tours WHERE tenant_id = $1 AND id = $2 FOR UPDATE', [s.tn.tenantId, tour.id]);
      const moving = t.anonymous.put(s.url, { delivery_date: { date: '2026-06-03' } });
      await waitUntilSomeoneWaitsForALock(pool);
      await other.query(`UPDATE stops SET status = 'approaching', approached_at = now() WHERE tenant_id = $1 AND id = $2`, [s.tn.tenantId, s.moving.stops[0].id]);
      await other.query('COMMIT');
      const res = await moving;
      expect(res.status).toBe(409);
      expect(res.body.reason).toBe('under_way');
    } finally {
      other.release();
    }
    const stops = (await s.bookingOf(s.moving.id)).stops;
    expect(stops.map((stop) => [stop.tour_id, stop.time_window?.starts_at])).toEqual([
      [tour.id, '2026-06-02T07:00:00.000Z'],
      [tour.id, '2026-06-02T12:00:00.000Z'],
    ]);
  });
});
