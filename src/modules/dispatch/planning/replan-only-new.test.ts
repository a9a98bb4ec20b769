// `replan: only_new` through the HTTP API (§16, decision 1646): new bookings go into the drivers' tours under way where
// they add least driving, no stop of those tours is reordered or removed, a locked tour is left alone, what fits no
// tour goes to a free shift or stays unplaced; applied through the plan's own apply paths.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../test/app.ts';
import { createBooking, driveStop, expectOk, tourEnRoute, type CreatedUser } from '../../../../test/factories.ts';
import { DEPOT, planningWorld, shift, type World } from '../../../../test/planning.ts';
import { createWorker } from '../../../worker/loop.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t?.close());

/** A pickup at the depot and a drop-off at `lng` on the depot's latitude, one package. */
async function booking(w: World, lng: number) {
  return createBooking(w.manager.client, {
    service_id: w.serviceId,
    managing_organization_ids: [w.org],
    stops: [
      { type: 'pickup', location: DEPOT, address: { street: 'Depot', number: '1', city: 'Berlin' } },
      { type: 'dropoff', location: { lat: 52.5, lng }, address: { street: 'Torstraße', number: String(Math.round(lng * 1000)), city: 'Berlin' } },
    ],
    packages: [{ pickup_stop_index: 0, dropoff_stop_index: 1, weight_grams: 1000 }],
  });
}

const idsOf = (b: { stops: { id: string }[] }) => b.stops.map((s) => s.id);
const plan = (w: World, body: Record<string, unknown>, status = 200) => expectOk(w.manager.client.post('/api/hailing/dispatch/plan', { time_limit_ms: 300, replan: 'only_new', ...body }), status);
/** A tour's stops as the plan may change them (ETAs are the worker's). */
const stopsOf = async (w: World, tourId: string) =>
  ((await expectOk(w.manager.client.get(`/api/hailing/tours/${tourId}`))).tour.stops as { id: string; tour_position: number; status: string }[]).map(({ id, tour_position, status }) => ({ id, tour_position, status }));
const without = (ids: readonly string[], removed: readonly string[]) => ids.filter((id) => !removed.includes(id));

/**
 * Two drivers with a tour each under way (first pickup done): the east one's in a deliberately poor order (far drop-off
 * first, then a pickup back at the depot and a near drop-off), the west one's with one booking.
 */
async function day(w: World) {
  const [east, west] = w.drivers as [CreatedUser, CreatedUser];
  for (const d of [east, west]) await shift(w, d, '07:00', '18:00');
  const far = await booking(w, 13.5);
  const near = await booking(w, 13.41);
  const eastTour = await tourEnRoute(w.manager.client, [far.id, near.id], east.id);
  await driveStop(east.client, far.stops[0].id, 'completed');
  const w1 = await booking(w, 13.3);
  const westTour = await tourEnRoute(w.manager.client, [w1.id], west.id);
  await driveStop(west.client, w1.stops[0].id, 'completed');
  return { east, west, eastTour, westTour, eastOrder: [...idsOf(far), ...idsOf(near)], westOrder: idsOf(w1) };
}

describe('replan: only_new', () => {
  it('puts the new booking into the tour where it adds least, keeps every tour\'s stops in their order, and apply writes exactly that', async () => {
    const w = await planningWorld(t, 2);
    const { east, west, eastTour, westTour, eastOrder, westOrder } = await day(w);
    const c = await booking(w, 13.51);
    const body = { booking_ids: [c.id], drivers: [east.id, west.id] };
    const proposal = (await plan(w, body)).plan;
    expect(proposal.unplaced).toEqual([]);
    const onEast = proposal.tours.find((x: { tour_id: string }) => x.tour_id === eastTour.id);
    expect(onEast).toMatchObject({ running: true, driver_id: east.id, kept_stop_ids: eastOrder.slice(0, 1) });
    // The open stops in their tour order, C's pickup before its drop-off, which sits next to the far drop-off.
    expect(without(onEast.stop_ids, idsOf(c))).toEqual(eastOrder.slice(1));
    const pos = (id: string) => onEast.stop_ids.indexOf(id);
    expect(pos(c.stops[0].id)).toBeLessThan(pos(c.stops[1].id));
    expect(Math.abs(pos(c.stops[1].id) - pos(eastOrder[1]!))).toBe(1);
    // The west tour gains nothing: it is not proposed (or proposed as it is).
    const onWest = proposal.tours.find((x: { tour_id: string }) => x.tour_id === westTour.id);
    if (onWest) expect(onWest.stop_ids).toEqual(westOrder.slice(1));

    // The default re-plan would reorder the east tour's open stops (the near booking first): only_new does not.
    const reshuffled = (await plan(w, { ...body, replan: undefined })).plan.tours.find((x: { tour_id: string }) => x.tour_id === eastTour.id);
    expect(without(reshuffled.stop_ids, idsOf(c))).not.toEqual(eastOrder.slice(1));

    const applied = await plan(w, { ...body, apply: true }, 201);
    expect(applied.plan.tours.find((x: { tour_id: string }) => x.tour_id === eastTour.id).stop_ids).toEqual(onEast.stop_ids);
    const after = await stopsOf(w, eastTour.id);
    expect(after.map((s) => s.id)).toEqual([eastOrder[0], ...onEast.stop_ids]);
    expect(after.map((s) => s.tour_position)).toEqual([0, 1, 2, 3, 4, 5]);
    expect((await stopsOf(w, westTour.id)).map((s) => s.id)).toEqual(westOrder);
  });

  it('leaves a locked tour untouched, also when applied as a job (POST …/plans/{id}/apply)', async () => {
    const w = await planningWorld(t, 2);
    const { east, west, eastTour, westTour, eastOrder, westOrder } = await day(w);
    await expectOk(w.manager.client.patch(`/api/hailing/tours/${eastTour.id}`, { tour: { locked: true } }));
    const before = await stopsOf(w, eastTour.id);
    const c = await booking(w, 13.51);
    const started = await plan(w, { booking_ids: [c.id], drivers: [east.id, west.id], async: true }, 202);
    await createWorker(t.deps).drain();
    const done = (await expectOk(w.manager.client.get(`/api/hailing/dispatch/plans/${started.plan.id}`))).plan;
    expect(done).toMatchObject({ status: 'done', unplaced: [] });
    expect(done.tours.map((x: { tour_id: string }) => x.tour_id)).toEqual([westTour.id]);
    expect(without(done.tours[0].stop_ids, idsOf(c))).toEqual(westOrder.slice(1));

    await expectOk(w.manager.client.post(`/api/hailing/dispatch/plans/${started.plan.id}/apply`), 201);
    expect(await stopsOf(w, eastTour.id)).toEqual(before);
    expect((await stopsOf(w, eastTour.id)).map((s) => s.id)).toEqual(eastOrder);
    const west1 = await stopsOf(w, westTour.id);
    expect(west1.map((s) => s.id)).toEqual([westOrder[0], ...done.tours[0].stop_ids]);
  });

  it('gives what fits no tour under way to a free shift, and reports unplaced what fits nowhere', async () => {
    const w = await planningWorld(t, 2);
    const [busy, free] = w.drivers as [CreatedUser, CreatedUser];
    // The running tour's shift ends soon: no time left on it for a drop-off ~10 km away.
    await shift(w, busy, '07:00', '08:20');
    const a = await booking(w, 13.41);
    const tour = await tourEnRoute(w.manager.client, [a.id], busy.id);
    await driveStop(busy.client, a.stops[0].id, 'completed');
    const c = await booking(w, 13.55);
    const alone = (await plan(w, { booking_ids: [c.id], drivers: [busy.id] })).plan;
    expect(alone.unplaced.map((u: { stop_id: string }) => u.stop_id).sort()).toEqual(idsOf(c).sort());
    expect(alone.unplaced[0]).toMatchObject({ booking_id: c.id, reason: 'shift_too_short' });

    await shift(w, free, '08:00', '16:00');
    const proposal = (await plan(w, { booking_ids: [c.id], drivers: [busy.id, free.id] })).plan;
    expect(proposal.unplaced).toEqual([]);
    const fresh = proposal.tours.find((x: { running?: boolean }) => !x.running);
    expect(fresh).toMatchObject({ tour_id: null, driver_id: free.id, stop_ids: idsOf(c) });
    const kept = proposal.tours.find((x: { running?: boolean }) => x.running);
    if (kept) expect(kept).toMatchObject({ tour_id: tour.id, stop_ids: [a.stops[1].id] });
  });

  it('needs drivers or shifts: 422 at /replan', async () => {
    const w = await planningWorld(t, 0);
    const c = await booking(w, 13.51);
    const res = await w.manager.client.post('/api/hailing/dispatch/plan', { booking_ids: [c.id], replan: 'only_new' });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([expect.objectContaining({ pointer: '/replan', code: 'requires_drivers' })]);
  });
});
