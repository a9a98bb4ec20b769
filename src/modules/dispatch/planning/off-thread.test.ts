// The solver runs in a worker thread (decision 0961): while a plan searches, the API answers other requests.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../test/app.ts';
import { createBooking, createService, expectOk } from '../../../../test/factories.ts';
import { wireHooks } from '../../../hooks.ts';

let t: TestApp;
/** Resolved when a plan has its travel matrix: its search starts right after. */
let routed: () => void = () => undefined;
/** The travel times the app uses (live tracking's, through the composition root: dispatch does not import live). */
const travelTimes = wireHooks().travel;
beforeAll(async () => {
  t = await buildTestApp({}, {
    hooks: {
      travel: {
        ...travelTimes,
        matrixSeconds: async (...args) => {
          const matrix = await travelTimes.matrixSeconds(...args);
          routed();
          return matrix;
        },
      },
    },
  });
});
afterAll(async () => t?.close());

it('answers a readiness probe and a booking read while a plan with a long budget searches', async () => {
  const tenant = await t.createTenant();
  const service = await createService(tenant.admin);
  const bookings = [];
  for (const lng of [13.4, 13.42, 13.44, 13.46]) {
    bookings.push(await createBooking(tenant.admin, { service_id: service.id, stops: [
      { type: 'pickup', location: { lat: 52.5, lng }, address: { street: 'Torstraße', number: '1', city: 'Berlin' } },
      { type: 'dropoff', location: { lat: 52.51, lng: lng + 0.01 }, address: { street: 'Torstraße', number: '2', city: 'Berlin' } },
    ] }));
  }
  const searching = new Promise<void>((resolve) => (routed = resolve));
  const answered: string[] = [];
  const plan = tenant.admin.post('/api/hailing/dispatch/plan', { booking_ids: bookings.map((b) => b.id), time_limit_ms: 3000 }).then((res) => {
    answered.push('plan');
    return res;
  });
  await searching;
  const ready = await t.anonymous.get('/readyz');
  answered.push('readyz');
  const read = await tenant.admin.get(`/api/hailing/bookings/${bookings[0].id}`);
  answered.push('booking');
  expect([ready.status, read.status]).toEqual([200, 200]);
  const planned = await expectOk(plan);
  expect(answered).toEqual(['readyz', 'booking', 'plan']);
  expect(planned.plan.tours.flatMap((p: { stop_ids: string[] }) => p.stop_ids)).toHaveLength(8);
});
