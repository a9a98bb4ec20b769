// A package's pickup and drop-off stay on one tour (decision 1640): moves that split one are refused with 409
// booking_split; moving a booking's open stops together (booking_ids) is how the console moves a booking.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestTenant } from '../../../../test/app.ts';
import { createBooking, createService, createUser, driveStop, expectOk, mergeIntoTour, tourEnRoute } from '../../../../test/factories.ts';

let t: TestApp;
let tenant: TestTenant;
let service: { id: string };

beforeAll(async () => {
  t = await buildTestApp();
  tenant = await t.createTenant();
  service = await createService(tenant.admin);
});
afterAll(async () => t.close());

const booking = () => createBooking(tenant.admin, { service_id: service.id });
const tourOf = async (id: string) => (await expectOk(tenant.admin.get(`/api/hailing/tours/${id}`))).tour;
const stopIdsOf = async (id: string) => (await tourOf(id)).stops.map((s: { id: string }) => s.id);

describe('moving a stop while its package has another stop on another tour', () => {
  it('refuses a drop-off moved alone with 409 booking_split naming the stop left behind, and changes nothing', async () => {
    const [a, b] = [await booking(), await booking()];
    const source = await mergeIntoTour(tenant.admin, [a.id]);
    const target = await mergeIntoTour(tenant.admin, [b.id]);
    const res = await tenant.admin.post(`/api/hailing/tours/${target.id}/stops/insert`, { stop_ids: [a.stops[1].id] });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ error_code: 'booking_split', stop_ids: [a.stops[0].id], package_ids: [a.packages[0].id], tour_ids: [source.id] });
    expect(await stopIdsOf(source.id)).toEqual([a.stops[0].id, a.stops[1].id]);
    expect(await stopIdsOf(target.id)).toEqual([b.stops[0].id, b.stops[1].id]);
  });

  it('refuses a waiting drop-off dispatched into another tour than its pickup, and a merge of it into a new tour', async () => {
    const a = await booking();
    const source = await expectOk(tenant.admin.post('/api/hailing/bookings/merge', { stop_ids: [a.stops[0].id] }), 201);
    const other = await mergeIntoTour(tenant.admin, [(await booking()).id]);
    const inserted = await tenant.admin.post(`/api/hailing/tours/${other.id}/stops/insert`, { stop_ids: [a.stops[1].id] });
    expect(inserted.status).toBe(409);
    expect(inserted.body.error_code).toBe('booking_split');
    const merged = await tenant.admin.post('/api/hailing/bookings/merge', { stop_ids: [a.stops[1].id] });
    expect(merged.status).toBe(409);
    expect(merged.body).toMatchObject({ error_code: 'booking_split', tour_ids: [source.tour.id] });
    // Into the pickup's own tour is no split.
    await expectOk(tenant.admin.post(`/api/hailing/tours/${source.tour.id}/stops/insert`, { stop_ids: [a.stops[1].id] }));
    expect(await stopIdsOf(source.tour.id)).toEqual([a.stops[0].id, a.stops[1].id]);
  });

  it('refuses moving the drop-off of a parcel already in the van (pickup completed on an open tour)', async () => {
    const driver = await createUser(tenant.admin, { role: 'driver' });
    const [a, b] = [await booking(), await booking()];
    const running = await tourEnRoute(tenant.admin, [a.id], driver.id);
    await driveStop(driver.client, a.stops[0].id, 'completed');
    const other = await mergeIntoTour(tenant.admin, [b.id]);
    const res = await tenant.admin.post(`/api/hailing/tours/${other.id}/stops/insert`, { stop_ids: [a.stops[1].id] });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ error_code: 'booking_split', stop_ids: [a.stops[0].id], tour_ids: [running.id] });
  });

  it('allows a pickup and its drop-off moved together, by stop ids or by booking_ids', async () => {
    const [a, b, c] = [await booking(), await booking(), await booking()];
    const source = await mergeIntoTour(tenant.admin, [a.id, c.id]);
    const target = await mergeIntoTour(tenant.admin, [b.id]);
    await expectOk(tenant.admin.post(`/api/hailing/tours/${target.id}/stops/insert`, { stop_ids: [a.stops[0].id, a.stops[1].id], position: 0 }));
    expect(await stopIdsOf(target.id)).toEqual([a.stops[0].id, a.stops[1].id, b.stops[0].id, b.stops[1].id]);
    const moved = await expectOk(tenant.admin.post(`/api/hailing/tours/${target.id}/stops/insert`, { booking_ids: [c.id], position: 2 }));
    expect(moved.tour.stops.map((s: { id: string }) => s.id)).toEqual([a.stops[0].id, a.stops[1].id, c.stops[0].id, c.stops[1].id, b.stops[0].id, b.stops[1].id]);
    expect(moved.tour.stops.map((s: { tour_position: number }) => s.tour_position)).toEqual([0, 1, 2, 3, 4, 5]);
    expect((await tourOf(source.id)).stops).toEqual([]);
  });

  it('with booking_ids leaves a stop under way where it is, so moving the rest is the split it would be', async () => {
    const driver = await createUser(tenant.admin, { role: 'driver' });
    const [a, b] = [await booking(), await booking()];
    await tourEnRoute(tenant.admin, [a.id], driver.id);
    await driveStop(driver.client, a.stops[0].id, 'arrived');
    const other = await mergeIntoTour(tenant.admin, [b.id]);
    const res = await tenant.admin.post(`/api/hailing/tours/${other.id}/stops/insert`, { booking_ids: [a.id] });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ error_code: 'booking_split', stop_ids: [a.stops[0].id] });
  });

  it('answers booking_ids naming a booking the caller may not see, or one with nothing to move, with 422 and the pointer', async () => {
    const tour = await mergeIntoTour(tenant.admin, [(await booking()).id]);
    const stranger = await t.createTenant();
    const foreign = await createBooking(stranger.admin, { service_id: (await createService(stranger.admin)).id });
    const unknown = await tenant.admin.post(`/api/hailing/tours/${tour.id}/stops/insert`, { booking_ids: [foreign.id] });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors).toEqual([expect.objectContaining({ pointer: '/booking_ids/0', code: 'unknown_reference' })]);
    const done = await booking();
    await expectOk(tenant.admin.post(`/api/hailing/bookings/${done.id}/cancel`));
    const nothing = await tenant.admin.post(`/api/hailing/tours/${tour.id}/stops/insert`, { booking_ids: [done.id] });
    expect(nothing.status).toBe(422);
    expect(nothing.body.errors).toEqual([expect.objectContaining({ pointer: '/booking_ids', code: 'nothing_to_dispatch' })]);
  });
});
