// A tour's label and lock (decision 1643): PATCH /api/hailing/tours/{id}, shown on the tour read; a plan never adds,
// removes or reorders a locked tour's stops, and auto-dispatch puts nothing into one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../test/app.ts';
import { createBooking, createOrganization, createUser, driveStop, expectOk, mergeIntoTour, tourEnRoute } from '../../../../test/factories.ts';
import { planningWorld, shift } from '../../../../test/planning.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

const address = (lng: number) => ({ street: 'Torstraße', number: String(Math.round(lng * 1000)), city: 'Berlin' });

describe('PATCH /api/hailing/tours/{id}', () => {
  it('sets and clears the label and the lock, shown on the tour read; refuses a long or blank label with its pointer', async () => {
    const w = await planningWorld(t, 0);
    const booking = await createBooking(w.manager.client, { service_id: w.serviceId, managing_organization_ids: [w.org] });
    const tour = await mergeIntoTour(w.manager.client, [booking.id]);
    expect(tour).toMatchObject({ label: null, locked: false });
    const patched = await expectOk(w.manager.client.patch(`/api/hailing/tours/${tour.id}`, { tour: { label: ' North route ', locked: true } }));
    expect(patched.tour).toMatchObject({ label: 'North route', locked: true });
    expect((await expectOk(w.manager.client.get(`/api/hailing/tours/${tour.id}`))).tour).toMatchObject({ label: 'North route', locked: true });
    // Each field alone leaves the other as it was.
    expect((await expectOk(w.manager.client.patch(`/api/hailing/tours/${tour.id}`, { tour: { locked: false } }))).tour).toMatchObject({ label: 'North route', locked: false });
    expect((await expectOk(w.manager.client.patch(`/api/hailing/tours/${tour.id}`, { tour: { label: null } }))).tour).toMatchObject({ label: null, locked: false });

    const long = await w.manager.client.patch(`/api/hailing/tours/${tour.id}`, { tour: { label: 'x'.repeat(81) } });
    expect(long.status).toBe(422);
    expect(long.body.errors).toEqual([expect.objectContaining({ pointer: '/tour/label' })]);
    const blank = await w.manager.client.patch(`/api/hailing/tours/${tour.id}`, { tour: { label: '   ' } });
    expect(blank.status).toBe(422);
    expect(blank.body.errors).toEqual([expect.objectContaining({ pointer: '/tour/label', code: 'blank' })]);
    const wrongType = await w.manager.client.patch(`/api/hailing/tours/${tour.id}`, { tour: { locked: 'yes' } });
    expect(wrongType.status).toBe(422);
    expect(wrongType.body.errors).toEqual([expect.objectContaining({ pointer: '/tour/locked' })]);
  });

  it('is 404 to a manager who does not see the tour and 403 to its driver', async () => {
    const w = await planningWorld(t, 1);
    const booking = await createBooking(w.manager.client, { service_id: w.serviceId, managing_organization_ids: [w.org] });
    const tour = await tourEnRoute(w.manager.client, [booking.id], w.drivers[0]!.id);
    const other = await createUser(w.tenant.admin, { role: 'manager', organization_ids: [(await createOrganization(w.tenant.admin)).id] });
    expect((await other.client.patch(`/api/hailing/tours/${tour.id}`, { tour: { locked: true } })).status).toBe(404);
    expect((await w.drivers[0]!.client.patch(`/api/hailing/tours/${tour.id}`, { tour: { locked: true } })).status).toBe(403);
    expect((await expectOk(w.manager.client.get(`/api/hailing/tours/${tour.id}`))).tour.locked).toBe(false);
  });
});

describe('a locked tour in a plan', () => {
  it("keeps the running tour's stops and order: the plan gives its driver nothing and puts the new booking elsewhere", async () => {
    const w = await planningWorld(t, 2);
    const [busy, free] = w.drivers as [NonNullable<(typeof w.drivers)[0]>, NonNullable<(typeof w.drivers)[0]>];
    await shift(w, busy, '07:00', '18:00');
    await shift(w, free, '07:00', '18:00');
    const booking = (to: number) =>
      createBooking(w.manager.client, {
        service_id: w.serviceId,
        managing_organization_ids: [w.org],
        stops: [
          { type: 'pickup', location: { lat: 52.5, lng: 13.4 }, address: address(13.4) },
          { type: 'dropoff', location: { lat: 52.5, lng: to }, address: address(to) },
        ],
      });
    const [a, b] = [await booking(13.41), await booking(13.45)];
    const tour = await tourEnRoute(w.manager.client, [a.id, b.id], busy.id);
    await driveStop(busy.client, a.stops[0].id, 'completed');
    const before = (await expectOk(w.manager.client.get(`/api/hailing/tours/${tour.id}`))).tour.stops.map((s: { id: string }) => s.id);
    await expectOk(w.manager.client.patch(`/api/hailing/tours/${tour.id}`, { tour: { locked: true } }));
    const c = await booking(13.42);
    const body = { booking_ids: [c.id], drivers: [busy.id, free.id], time_limit_ms: 300 };
    const proposal = (await expectOk(w.manager.client.post('/api/hailing/dispatch/plan', body))).plan;
    expect(proposal.tours.map((x: { tour_id: string | null; driver_id: string }) => [x.tour_id, x.driver_id])).toEqual([[null, free.id]]);
    await expectOk(w.manager.client.post('/api/hailing/dispatch/plan', { ...body, apply: true }), 201);
    const after = (await expectOk(w.manager.client.get(`/api/hailing/tours/${tour.id}`))).tour;
    expect(after.stops.map((s: { id: string }) => s.id)).toEqual(before);
    expect(after.stops.map((s: { tour_position: number }) => s.tour_position)).toEqual([0, 1, 2, 3]);
  });
});
