// Tour optimisation and dispatch planning through the HTTP API (docs/api-guide.md "Optimising tours and planning dispatch", decisions 0955–0958).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestTenant } from '../../../../test/app.ts';
import { createBooking, createOrganization, createService, createUser, driveStop, eventsOf, expectOk, tourEnRoute, type CreatedUser } from '../../../../test/factories.ts';
import { createWorker } from '../../../worker/loop.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t?.close());

interface World {
  tenant: TestTenant;
  serviceId: string;
  orgA: string;
  managerA: CreatedUser;
  managerB: CreatedUser;
  driver: CreatedUser;
}

async function world(): Promise<World> {
  const tenant = await t.createTenant();
  const [a, b] = [await createOrganization(tenant.admin), await createOrganization(tenant.admin)];
  return {
    tenant,
    serviceId: (await createService(tenant.admin)).id,
    orgA: a.id,
    managerA: await createUser(tenant.admin, { role: 'manager', organization_ids: [a.id] }),
    managerB: await createUser(tenant.admin, { role: 'manager', organization_ids: [b.id] }),
    driver: await createUser(tenant.admin, { role: 'driver', organization_ids: [a.id] }),
  };
}

interface WireStop {
  id: string;
  booking_id: string | null;
  type: string;
  status: string;
  tour_position: number;
}

const at = (lng: number) => ({ location: { lat: 52.5, lng }, address: { street: 'Torstraße', number: String(Math.round(lng * 1000)), city: 'Berlin' } });

/** A booking managed by organization A: a pickup at `from` and a drop-off at `to` (longitudes on one street). */
async function booking(w: World, from: number, to: number, dropoff: Record<string, unknown> = {}) {
  return createBooking(w.managerA.client, {
    service_id: w.serviceId,
    managing_organization_ids: [w.orgA],
    stops: [
      { type: 'pickup', ...at(from) },
      { type: 'dropoff', ...at(to), ...dropoff },
    ],
  });
}

/** Three bookings along one street, merged in a zig-zag order: east, far west, back east. */
async function zigzag(w: World, optimize?: boolean) {
  const bookings = [await booking(w, 13.44, 13.5), await booking(w, 13.4, 13.46), await booking(w, 13.42, 13.48)];
  const stopIds = bookings.flatMap((b) => b.stops.map((s: WireStop) => s.id));
  const merged = await expectOk(w.managerA.client.post('/api/hailing/bookings/merge', { stop_ids: stopIds, ...(optimize === undefined ? {} : { optimize }) }), 201);
  return { bookings, stopIds, merged };
}

/** The zig-zag bookings on a tour its driver has started. */
async function zigzagEnRoute(w: World) {
  const bookings = [await booking(w, 13.44, 13.5), await booking(w, 13.4, 13.46), await booking(w, 13.42, 13.48)];
  return tourEnRoute(w.tenant.admin, bookings.map((b) => b.id), w.driver.id);
}

/** Every pickup of a booking comes before its drop-off, and positions run 0…n-1. */
function expectValidOrder(stops: WireStop[]) {
  expect(stops.map((s) => s.tour_position)).toEqual(stops.map((_, i) => i));
  for (const [i, s] of stops.entries()) {
    if (s.type === 'dropoff') expect(stops.slice(i + 1).some((o) => o.type === 'pickup' && o.booking_id === s.booking_id)).toBe(false);
  }
}

describe('POST /api/hailing/tours/{id}/optimize', () => {
  it('reorders a zig-zag tour into a shorter one, pickups before drop-offs, with events', async () => {
    const w = await world();
    const { bookings, stopIds, merged } = await zigzag(w);
    expect(merged.tour.optimized).toBe(false);
    expect(merged.tour.stops.map((s: WireStop) => s.id)).toEqual(stopIds);

    const body = await expectOk(w.managerA.client.post(`/api/hailing/tours/${merged.tour.id}/optimize`, { time_limit_ms: 200 }));
    expect(body.optimization.before_seconds).toBeGreaterThan(body.optimization.after_seconds);
    expect(body.optimization.unplaced).toEqual([]);
    expect(body.tour.optimized).toBe(true);
    expectValidOrder(body.tour.stops);
    // West to east along the street: every pickup, then every drop-off, is the shortest drive here.
    const lngs = await Promise.all(body.tour.stops.map(async (s: WireStop) => (await expectOk(w.managerA.client.get(`/api/stops/${s.id}`))).stop.location.lng));
    expect(lngs).toEqual([...lngs].sort((a, b) => a - b));
    expect((await expectOk(w.managerA.client.get(`/api/hailing/tours/${merged.tour.id}`))).tour.stops.map((s: WireStop) => s.id)).toEqual(body.tour.stops.map((s: WireStop) => s.id));

    expect((await eventsOf(w.tenant.admin, merged.tour.id, 'tour.modified')).length).toBe(1);
    for (const b of bookings) expect((await eventsOf(w.tenant.admin, b.id, 'booking.route_changed')).length).toBeGreaterThanOrEqual(2);
  });

  it('keeps completed and under-way stops where they are and reorders only the open ones', async () => {
    const w = await world();
    const tour = await zigzagEnRoute(w);
    const [first, second] = tour.stops as WireStop[];
    await driveStop(w.driver.client, first!.id, 'completed');
    await driveStop(w.driver.client, second!.id, 'approaching');
    const body = await expectOk(w.managerA.client.post(`/api/hailing/tours/${tour.id}/optimize`, { time_limit_ms: 200 }));
    expect(body.tour.stops.slice(0, 2).map((s: WireStop) => [s.id, s.status])).toEqual([
      [first!.id, 'completed'],
      [second!.id, 'approaching'],
    ]);
    expect(body.tour.stops).toHaveLength(6);
    expectValidOrder(body.tour.stops);
    expect(body.optimization.before_seconds).toBeGreaterThanOrEqual(body.optimization.after_seconds);
  });

  it('keeps finished stops that lie between open ones at their positions and permutes only the open ones', async () => {
    const w = await world();
    const tour = await zigzagEnRoute(w);
    const before = tour.stops as WireStop[];
    // The driver serves the second booking's pickup (position 2) first, ahead of the first booking.
    await driveStop(w.driver.client, before[2]!.id, 'completed');
    const body = await expectOk(w.managerA.client.post(`/api/hailing/tours/${tour.id}/optimize`, { time_limit_ms: 200 }));
    const after = body.tour.stops as WireStop[];
    expect([after[2]!.id, after[2]!.status]).toEqual([before[2]!.id, 'completed']);
    expect(after.filter((_, i) => i !== 2).map((s) => s.id).sort()).toEqual(before.filter((_, i) => i !== 2).map((s) => s.id).sort());
    expectValidOrder(after);
    // From the served pickup at 13.40 eastwards: the open stops are reordered, and the drive is shorter.
    expect(after.filter((_, i) => i !== 2).map((s) => s.id)).not.toEqual(before.filter((_, i) => i !== 2).map((s) => s.id));
    expect(body.optimization.before_seconds).toBeGreaterThan(body.optimization.after_seconds);
  });

  it('keeps a failed stop followed by open ones, and a completed one after them, where they are', async () => {
    const w = await world();
    const tour = await zigzagEnRoute(w);
    const before = tour.stops as WireStop[];
    await driveStop(w.driver.client, before[0]!.id, 'completed');
    await driveStop(w.driver.client, before[1]!.id, 'approaching');
    await expectOk(w.driver.client.post(`/api/stops/${before[1]!.id}/fail`, { outcome: 'skip_recovery' }));
    await driveStop(w.driver.client, before[4]!.id, 'completed');
    const body = await expectOk(w.managerA.client.post(`/api/hailing/tours/${tour.id}/optimize`, { time_limit_ms: 200 }));
    const after = body.tour.stops as WireStop[];
    for (const k of [0, 1, 4]) expect(after[k]!.id, `position ${k}`).toBe(before[k]!.id);
    expect([after[1]!.status, after[4]!.status]).toEqual(['failed', 'completed']);
    expect([2, 3, 5].map((k) => after[k]!.id).sort()).toEqual([2, 3, 5].map((k) => before[k]!.id).sort());
    expectValidOrder(after);
  });

  it("starts from the driver's reported position, and the ETAs follow the new order", async () => {
    const w = await world();
    // West: a short booking at 13.40; east: one at 13.50. From anywhere, west first is shorter; from 13.52, east first.
    const west = await booking(w, 13.4, 13.41);
    const east = await booking(w, 13.5, 13.51);
    const tour = await tourEnRoute(w.tenant.admin, [west.id, east.id], w.driver.id);
    const worker = createWorker(t.deps);
    await worker.drain();
    const free = await expectOk(w.managerA.client.post(`/api/hailing/tours/${tour.id}/optimize`, { time_limit_ms: 100 }));
    expect(free.tour.stops.map((s: WireStop) => s.booking_id)).toEqual([west.id, west.id, east.id, east.id]);
    const recorded = (await eventsOf(w.tenant.admin, tour.id, 'tour.etas_recalculated')).length;
    await expectOk(w.driver.client.post(`/api/hailing/tours/${tour.id}/driver_location`, { location: { lat: 52.5, lng: 13.52, recorded_at: t.clock.now().toISOString() } }));
    await worker.drain();
    const body = await expectOk(w.managerA.client.post(`/api/hailing/tours/${tour.id}/optimize`, { time_limit_ms: 100 }));
    expect(body.tour.stops.map((s: WireStop) => s.booking_id)).toEqual([east.id, east.id, west.id, west.id]);
    expect(body.optimization.before_seconds).toBeGreaterThan(body.optimization.after_seconds);
    await worker.drain();
    const after = (await expectOk(w.managerA.client.get(`/api/hailing/tours/${tour.id}`))).tour;
    const etas = after.stops.map((s: { eta: string }) => Date.parse(s.eta));
    expect(etas).toEqual([...etas].sort((a, b) => a - b));
    expect((await eventsOf(w.tenant.admin, tour.id, 'tour.etas_recalculated')).length).toBeGreaterThan(recorded);
  });

  it('keeps a stop that cannot be served in its window on the tour and names it', async () => {
    const w = await world();
    const now = t.clock.now().getTime();
    // The drop-off is 7 km from its pickup and must be served within 5 minutes of now: no order makes it.
    const late = await booking(w, 13.4, 13.5, { time_window: { starts_at: new Date(now).toISOString(), ends_at: new Date(now + 5 * 60_000).toISOString() } });
    const other = await booking(w, 13.41, 13.42);
    const merged = await expectOk(w.managerA.client.post('/api/hailing/bookings/merge', { booking_ids: [late.id, other.id] }), 201);
    const body = await expectOk(w.managerA.client.post(`/api/hailing/tours/${merged.tour.id}/optimize`, {}));
    const dropoff = late.stops[1].id;
    expect(body.optimization.unplaced).toEqual([{ stop_id: dropoff, reason: 'time_window' }]);
    expect(body.tour.stops.map((s: WireStop) => s.id)).toContain(dropoff);
    expect(body.tour.stops).toHaveLength(4);
    expectValidOrder(body.tour.stops);
  });

  it('answers 404 to a manager of another organization and to another tenant, 403 to its driver, before any state check', async () => {
    const w = await world();
    const { merged } = await zigzag(w);
    const other = await t.createTenant();
    expect((await w.managerB.client.post(`/api/hailing/tours/${merged.tour.id}/optimize`, {})).status).toBe(404);
    expect((await other.admin.post(`/api/hailing/tours/${merged.tour.id}/optimize`, {})).status).toBe(404);
    await expectOk(w.tenant.admin.post(`/api/hailing/tours/${merged.tour.id}/force_assign`, { driver_id: w.driver.id }));
    const res = await w.driver.client.post(`/api/hailing/tours/${merged.tour.id}/optimize`, {});
    expect([res.status, res.body.error_code]).toEqual([403, 'forbidden']);
  });

  it('replays a request with the same Idempotency-Key instead of optimising again', async () => {
    const w = await world();
    const { merged } = await zigzag(w);
    const headers = { 'idempotency-key': `optimize-${merged.tour.id}` };
    const first = await expectOk(w.managerA.client.post(`/api/hailing/tours/${merged.tour.id}/optimize`, { time_limit_ms: 50 }, { headers }));
    const again = await expectOk(w.managerA.client.post(`/api/hailing/tours/${merged.tour.id}/optimize`, { time_limit_ms: 50 }, { headers }));
    expect(again).toEqual(first);
    expect(await eventsOf(w.tenant.admin, merged.tour.id, 'tour.modified')).toHaveLength(1);
  });

  it('answers 409 invalid_transition for a cancelled tour', async () => {
    const w = await world();
    const { merged } = await zigzag(w);
    await expectOk(w.managerA.client.post(`/api/hailing/tours/${merged.tour.id}/cancel`));
    const res = await w.managerA.client.post(`/api/hailing/tours/${merged.tour.id}/optimize`);
    expect([res.status, res.body.error_code, res.body.from]).toEqual([409, 'invalid_transition', 'cancelled']);
  });

  it.each([0, 30_001, 1.5, 'fast'])('refuses time_limit_ms %s with a pointer', async (value) => {
    const w = await world();
    const { merged } = await zigzag(w);
    const res = await w.managerA.client.post(`/api/hailing/tours/${merged.tour.id}/optimize`, { time_limit_ms: value });
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: { pointer: string }) => e.pointer)).toContain('/time_limit_ms');
  });
});

describe('POST /api/hailing/bookings/merge with optimize', () => {
  it('creates the tour optimised and says what it gained; without optimize the answer is as before', async () => {
    const w = await world();
    const plain = await zigzag(w);
    expect(plain.merged.optimization).toBeUndefined();
    const { stopIds, merged } = await zigzag(w, true);
    expect(merged.tour.optimized).toBe(true);
    expect(merged.tour.stops.map((s: WireStop) => s.id)).not.toEqual(stopIds);
    expect(merged.tour.stops.map((s: WireStop) => s.id).sort()).toEqual([...stopIds].sort());
    expectValidOrder(merged.tour.stops);
    expect(merged.optimization.before_seconds).toBeGreaterThan(merged.optimization.after_seconds);
    const created = await eventsOf(w.tenant.admin, merged.tour.id, 'tour.created');
    expect(created).toHaveLength(1);
  });
});

describe('POST /api/hailing/dispatch/plan', () => {
  it('proposes tours without writing anything', async () => {
    const w = await world();
    const bookings = [await booking(w, 13.4, 13.41), await booking(w, 13.42, 13.43), await booking(w, 13.44, 13.45)];
    const eventsBefore = (await expectOk(w.tenant.admin.get('/api/admin/events?limit=100'))).events.length;
    expect(eventsBefore, 'the page holds every event of this tenant').toBeLessThan(100);
    const body = await expectOk(w.managerA.client.post('/api/hailing/dispatch/plan', { booking_ids: bookings.map((b) => b.id), time_limit_ms: 100 }));
    expect(body.plan.applied).toBe(false);
    expect(body.tours).toEqual([]);
    expect(body.plan.tours.length).toBeGreaterThanOrEqual(1);
    expect(body.plan.tours.flatMap((p: { stop_ids: string[] }) => p.stop_ids).sort()).toEqual(bookings.flatMap((b) => b.stops.map((s: WireStop) => s.id)).sort());
    expect(body.plan.tours.every((p: { tour_id: string | null }) => p.tour_id === null)).toBe(true);
    for (const b of bookings) expect((await expectOk(w.managerA.client.get(`/api/hailing/bookings/${b.id}`))).booking.status).toBe('to_be_dispatched');
    expect((await expectOk(w.tenant.admin.get('/api/admin/events?limit=100'))).events.length).toBe(eventsBefore);
  });

  it("gives each proposed stop its ETA: the first now, the next after its leg and the pickup's service, none before its window", async () => {
    const w = await world();
    const now = t.clock.now().getTime();
    const plain = await createBooking(w.managerA.client, {
      service_id: w.serviceId,
      managing_organization_ids: [w.orgA],
      stops: [{ type: 'pickup', ...at(13.4), service_duration_seconds: 120 }, { type: 'dropoff', ...at(13.46) }],
    });
    const first = (await expectOk(w.managerA.client.post('/api/hailing/dispatch/plan', { booking_ids: [plain.id], time_limit_ms: 100 }))).plan.tours[0];
    expect(first.stop_ids).toEqual(plain.stops.map((s: WireStop) => s.id));
    expect(first.etas).toHaveLength(2);
    expect(Date.parse(first.etas[0])).toBe(now);
    expect(Math.abs(Date.parse(first.etas[1]) - (now + (120 + first.travel_seconds) * 1000))).toBeLessThanOrEqual(1000);
    const opensLater = new Date(now + 2 * 3_600_000).toISOString();
    const windowed = await booking(w, 13.4, 13.46, { time_window: { starts_at: opensLater, ends_at: new Date(now + 3 * 3_600_000).toISOString() } });
    const second = (await expectOk(w.managerA.client.post('/api/hailing/dispatch/plan', { booking_ids: [windowed.id], time_limit_ms: 100 }))).plan.tours[0];
    expect(second.etas).toEqual([new Date(now).toISOString(), opensLater]);
  });

  it('with apply creates the proposed tours (optimised, with events) and dispatches the bookings', async () => {
    const w = await world();
    const bookings = [await booking(w, 13.4, 13.41), await booking(w, 13.42, 13.43)];
    const body = await expectOk(w.managerA.client.post('/api/hailing/dispatch/plan', { booking_ids: bookings.map((b) => b.id), time_limit_ms: 100, apply: true }), 201);
    expect(body.plan.applied).toBe(true);
    expect(body.tours.map((tour: { id: string }) => tour.id)).toEqual(body.plan.tours.map((p: { tour_id: string }) => p.tour_id));
    for (const tour of body.tours) {
      expect(tour.optimized).toBe(true);
      expectValidOrder(tour.stops);
      expect(await eventsOf(w.tenant.admin, tour.id, 'tour.created')).toHaveLength(1);
    }
    for (const b of bookings) expect((await expectOk(w.managerA.client.get(`/api/hailing/bookings/${b.id}`))).booking.status).toBe('dispatched');
    // Planned again, nothing waits any more.
    const again = await w.managerA.client.post('/api/hailing/dispatch/plan', { booking_ids: bookings.map((b) => b.id) });
    expect([again.status, again.body.errors?.[0]?.code]).toEqual([422, 'nothing_to_dispatch']);
  });

  it("never proposes a tour with more stops than the service's max_stops_per_tour, and apply creates them", async () => {
    const w = await world();
    await expectOk(w.tenant.admin.put(`/api/admin/hailing/services/${w.serviceId}`, { service: { max_stops_per_tour: 4 } }));
    // Five bookings close together: without the limit one tour of ten stops is the fewest tours.
    const bookings = [];
    for (let k = 0; k < 5; k++) bookings.push(await booking(w, 13.4 + k * 0.002, 13.401 + k * 0.002));
    const ids = bookings.map((b) => b.id);
    const proposed = await expectOk(w.managerA.client.post('/api/hailing/dispatch/plan', { booking_ids: ids, time_limit_ms: 200 }));
    expect(proposed.plan.tours.map((p: { stop_ids: string[] }) => p.stop_ids.length).sort()).toEqual([2, 4, 4]);
    expect(proposed.plan.unplaced).toEqual([]);
    const applied = await expectOk(w.managerA.client.post('/api/hailing/dispatch/plan', { booking_ids: ids, time_limit_ms: 200, apply: true }), 201);
    expect(applied.tours).toHaveLength(3);
    for (const tour of applied.tours) {
      expect(tour.stops.length).toBeLessThanOrEqual(4);
      expectValidOrder(tour.stops);
    }
    for (const b of bookings) expect((await expectOk(w.managerA.client.get(`/api/hailing/bookings/${b.id}`))).booking.status).toBe('dispatched');
  });

  it('leaves out, as unplaced for capacity, the stops that max_tours tours of max_stops_per_tour cannot hold', async () => {
    const w = await world();
    await expectOk(w.tenant.admin.put(`/api/admin/hailing/services/${w.serviceId}`, { service: { max_stops_per_tour: 4 } }));
    const bookings = [];
    for (let k = 0; k < 5; k++) bookings.push(await booking(w, 13.4 + k * 0.002, 13.401 + k * 0.002));
    const body = await expectOk(w.managerA.client.post('/api/hailing/dispatch/plan', { booking_ids: bookings.map((b) => b.id), max_tours: 2, time_limit_ms: 200, apply: true }), 201);
    expect(body.plan.tours.map((p: { stop_ids: string[] }) => p.stop_ids.length)).toEqual([4, 4]);
    expect(body.plan.unplaced).toHaveLength(2);
    expect(body.plan.unplaced.every((u: { reason: string }) => u.reason === 'capacity')).toBe(true);
    const left = bookings.filter((b) => b.stops.some((s: WireStop) => body.plan.unplaced.some((u: { stop_id: string }) => u.stop_id === s.id)));
    expect(left).toHaveLength(1);
    expect((await expectOk(w.managerA.client.get(`/api/hailing/bookings/${left[0].id}`))).booking.status).toBe('to_be_dispatched');
  });

  it('keeps at most max_tours tours', async () => {
    const w = await world();
    const bookings = [await booking(w, 13.4, 13.41), await booking(w, 13.42, 13.43), await booking(w, 13.44, 13.45)];
    const body = await expectOk(w.managerA.client.post('/api/hailing/dispatch/plan', { booking_ids: bookings.map((b) => b.id), max_tours: 1, time_limit_ms: 50 }));
    expect(body.plan.tours).toHaveLength(1);
    expect(body.plan.tours[0].stop_ids).toHaveLength(6);
  });

  it('refuses bad bodies with pointers, and bookings the caller cannot see as unknown references', async () => {
    const w = await world();
    const b = await booking(w, 13.4, 13.41);
    const cases: [Record<string, unknown>, string, string][] = [
      [{ booking_ids: [] }, '/booking_ids', 'validation_failed'],
      [{ booking_ids: [b.id], time_limit_ms: 0 }, '/time_limit_ms', 'validation_failed'],
      [{ booking_ids: [b.id], max_tours: 0 }, '/max_tours', 'validation_failed'],
      [{ booking_ids: ['01900000-0000-7000-8000-000000000000'] }, '/booking_ids/0', 'validation_failed'],
      [{ stop_ids: [b.stops[0].id, '01900000-0000-7000-8000-000000000000'] }, '/stop_ids/1', 'validation_failed'],
    ];
    for (const [body, pointer, code] of cases) {
      const res = await w.managerA.client.post('/api/hailing/dispatch/plan', body);
      expect([res.status, res.body.error_code], JSON.stringify(body)).toEqual([422, code]);
      expect(res.body.errors.map((e: { pointer: string }) => e.pointer), JSON.stringify(body)).toContain(pointer);
    }
    const hidden = await w.managerB.client.post('/api/hailing/dispatch/plan', { booking_ids: [b.id] });
    expect([hidden.status, hidden.body.errors[0].pointer, hidden.body.errors[0].code]).toEqual([422, '/booking_ids/0', 'unknown_reference']);
    expect((await w.driver.client.post('/api/hailing/dispatch/plan', { booking_ids: [b.id] })).status).toBe(403);
  });
});
