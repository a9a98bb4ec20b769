// What happens while a plan searches: the solver runs in a worker thread (decision 0961), so the API answers other
// requests meanwhile, and other writes may take the planned stops (apply then refuses: plan_outdated).
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { TestApp, TestTenant } from '../../../../test/app.ts';
import { createBooking, createService, expectOk } from '../../../../test/factories.ts';
import { buildTestAppHeldAfterRouting } from '../../../../test/planning.ts';

let t: TestApp;
/** Run once a plan has its travel matrix, before it returns to the plan: its search starts right after. */
let routed: () => Promise<void> = async () => undefined;
beforeAll(async () => {
  t = await buildTestAppHeldAfterRouting(() => routed());
});
afterAll(async () => t?.close());

async function bookings(tenant: TestTenant, serviceId: string, count: number) {
  const made = [];
  for (let k = 0; k < count; k++) {
    const lng = 13.4 + 0.02 * k;
    made.push(await createBooking(tenant.admin, { service_id: serviceId, stops: [
      { type: 'pickup', location: { lat: 52.5, lng }, address: { street: 'Torstraße', number: '1', city: 'Berlin' } },
      { type: 'dropoff', location: { lat: 52.51, lng: lng + 0.01 }, address: { street: 'Torstraße', number: '2', city: 'Berlin' } },
    ] }));
  }
  return made;
}

it('answers a readiness probe and a booking read while a plan with a long budget searches', async () => {
  const tenant = await t.createTenant();
  const made = await bookings(tenant, (await createService(tenant.admin)).id, 4);
  let searching: () => void = () => undefined;
  const started = new Promise<void>((resolve) => (searching = resolve));
  routed = async () => searching();
  const answered: string[] = [];
  const plan = tenant.admin.post('/api/hailing/dispatch/plan', { booking_ids: made.map((b) => b.id), time_limit_ms: 3000 }).then((res) => {
    answered.push('plan');
    return res;
  });
  await started;
  const ready = await t.anonymous.get('/readyz');
  answered.push('readyz');
  const read = await tenant.admin.get(`/api/hailing/bookings/${made[0].id}`);
  answered.push('booking');
  expect([ready.status, read.status]).toEqual([200, 200]);
  const planned = await expectOk(plan);
  expect(answered).toEqual(['readyz', 'booking', 'plan']);
  expect(planned.plan.tours.flatMap((p: { stop_ids: string[] }) => p.stop_ids)).toHaveLength(8);
});

it('refuses to apply a plan (409 plan_outdated) when one of its bookings was merged while it searched', async () => {
  const tenant = await t.createTenant();
  const made = await bookings(tenant, (await createService(tenant.admin)).id, 3);
  // The plan has read its stops; before its search, a merge takes the last booking.
  routed = async () => {
    routed = async () => undefined;
    await expectOk(tenant.admin.post('/api/hailing/bookings/merge', { booking_ids: [made[2].id] }), 201);
  };
  const res = await tenant.admin.post('/api/hailing/dispatch/plan', { booking_ids: made.map((b) => b.id), time_limit_ms: 50, apply: true });
  expect([res.status, res.body.error_code]).toEqual([409, 'plan_outdated']);
  // It names what changed: the merged booking's stops, now on a tour.
  expect(res.body.changed).toHaveLength(2);
  expect(res.body.changed).toEqual(expect.arrayContaining(made[2].stops.map((s: { id: string }) => expect.objectContaining({ stop_id: s.id, booking_id: made[2].id, change: 'dispatched' }))));
  for (const b of made.slice(0, 2)) expect((await expectOk(tenant.admin.get(`/api/hailing/bookings/${b.id}`))).booking.status).toBe('to_be_dispatched');
});

it('refuses to apply a plan by stop ids (409 plan_outdated naming the cancelled booking) when one of its bookings was cancelled while it searched', async () => {
  const tenant = await t.createTenant();
  const made = await bookings(tenant, (await createService(tenant.admin)).id, 3);
  routed = async () => {
    routed = async () => undefined;
    await expectOk(tenant.admin.post(`/api/hailing/bookings/${made[1].id}/cancel`));
  };
  const stopIds = made.flatMap((b) => b.stops.map((s: { id: string }) => s.id));
  const res = await tenant.admin.post('/api/hailing/dispatch/plan', { stop_ids: stopIds, time_limit_ms: 50, apply: true });
  expect([res.status, res.body.error_code]).toEqual([409, 'plan_outdated']);
  expect(res.body.changed).toEqual(expect.arrayContaining(made[1].stops.map((s: { id: string }) => expect.objectContaining({ stop_id: s.id, booking_id: made[1].id, change: 'cancelled' }))));
  expect(res.body.changed).toHaveLength(2);
  for (const b of [made[0], made[2]]) expect((await expectOk(tenant.admin.get(`/api/hailing/bookings/${b.id}`))).booking.status).toBe('to_be_dispatched');
});

it('merges with optimize: true the stops waiting at commit, when a booking gained a stop while the solver searched', async () => {
  const tenant = await t.createTenant();
  const made = await bookings(tenant, (await createService(tenant.admin)).id, 3);
  // The merge has read its selection and routed it; before its search, the first booking gains a stop.
  let added = '';
  routed = async () => {
    routed = async () => undefined;
    const stop = { type: 'dropoff', location: { lat: 52.52, lng: 13.45 }, address: { street: 'Torstraße', number: '3', city: 'Berlin' } };
    added = (await expectOk(tenant.admin.post(`/api/hailing/bookings/${made[0].id}/stops`, { stop }), 201)).stop.id;
  };
  const merged = await expectOk(tenant.admin.post('/api/hailing/bookings/merge', { booking_ids: made.map((b) => b.id), optimize: true }), 201);
  const onTour = merged.tour.stops.map((s: { id: string }) => s.id);
  expect(onTour).toHaveLength(7);
  expect(onTour).toContain(added);
  expect(merged.tour.optimized).toBe(true);
  expect(merged.optimization.unplaced).toEqual([]);
});
