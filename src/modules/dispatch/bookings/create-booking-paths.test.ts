// The create's one-statement fast path and the locked paths share their rules (decision 0218). Each case runs both over
// the same input and compares: what the fast path stored against what settling (the locked paths' step after every
// change) makes of the same booking, and the stop limit of a create against a stop added under the booking's lock.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestTenant } from '../../../../test/app.ts';
import { createBooking, createOrganization, createService, createUser, eventsOf, expectOk, type CreatedUser } from '../../../../test/factories.ts';
import { queryRows } from '../../../db/sql.ts';
import { settle } from '../settle.ts';

let t: TestApp;
let tenant: TestTenant;
let serviceId: string;
let orgA: string;
let orgB: string;
let manager: CreatedUser;
let customer: CreatedUser;

beforeAll(async () => {
  t = await buildTestApp();
  tenant = await t.createTenant();
  orgA = (await createOrganization(tenant.admin)).id;
  orgB = (await createOrganization(tenant.admin)).id;
  manager = await createUser(tenant.admin, { role: 'manager', organization_ids: [orgA] });
  customer = await createUser(tenant.admin, { role: 'customer' });
  serviceId = (await createService(tenant.admin, { max_stops_per_booking: 3 })).id;
});
afterAll(async () => t.close());

const stop = (type: string, i: number) => ({ type, location: { lat: 52.5 + i / 100, lng: 13.4 }, address: { street: 'Torstraße', number: String(i + 1), city: 'Berlin' } });

/** The organizations the stored visibility rows name for the booking, sorted. */
async function storedVisibility(bookingId: string): Promise<string[]> {
  const rows = await queryRows<{ organization_id: string }>(
    t.deps.db,
    sql`SELECT organization_id FROM booking_visibility WHERE tenant_id = ${tenant.tenantId} AND booking_id = ${bookingId} ORDER BY organization_id`,
  );
  return rows.map((r) => r.organization_id);
}

describe('creating a booking: the fast path stores what settling would', () => {
  const cases: { name: string; creator: () => CreatedUser['client']; body: () => Record<string, unknown>; organizations: () => string[] }[] = [
    { name: 'an admin without managing organizations', creator: () => tenant.admin, body: () => ({}), organizations: () => [] },
    { name: 'an admin naming two managing organizations', creator: () => tenant.admin, body: () => ({ managing_organization_ids: [orgB, orgA] }), organizations: () => [orgA, orgB].sort() },
    { name: 'an admin booking for a customer', creator: () => tenant.admin, body: () => ({ customer_id: customer.id }), organizations: () => [] },
    { name: 'a manager (its organizations manage it)', creator: () => manager.client, body: () => ({}), organizations: () => [orgA] },
    { name: 'a customer booking for itself', creator: () => customer.client, body: () => ({ packages: [] }), organizations: () => [] },
  ];

  it.each(cases)('$name', async (c) => {
    const booking = await createBooking(c.creator(), { service_id: serviceId, ...c.body() });
    const fast = { status: (await expectOk(tenant.admin.get(`/api/hailing/bookings/${booking.id}`))).booking.status, organizations: await storedVisibility(booking.id) };
    expect(fast).toEqual({ status: 'to_be_dispatched', organizations: c.organizations() });

    await t.deps.db.transaction((tx) =>
      settle(tx, t.deps.hooks.dispatch, { tenantId: tenant.tenantId, actor: 'system', at: t.clock.now(), bookingIds: [booking.id], tourIds: [], event: 'check' }),
    );
    const settled = { status: (await expectOk(tenant.admin.get(`/api/hailing/bookings/${booking.id}`))).booking.status, organizations: await storedVisibility(booking.id) };
    expect(settled).toEqual(fast);
    expect(await eventsOf(tenant.admin, booking.id, 'booking.transition')).toEqual([]);
  });
});

describe('the stop limit: a create and a stop added under the lock agree', () => {
  // The service allows 3 stops per booking; each case reaches `stops` live stops both ways.
  it.each([2, 3, 4])('%i stops', async (stops) => {
    const types = Array.from({ length: stops }, (_, i) => (i === 0 ? 'pickup' : 'dropoff'));
    const created = await tenant.admin.post('/api/hailing/bookings', { booking: { service_id: serviceId, stops: types.map(stop) } });

    const smaller = await createBooking(tenant.admin, { service_id: serviceId, stops: types.slice(0, -1).map(stop), packages: [] });
    const added = await tenant.admin.post(`/api/hailing/bookings/${smaller.id}/stops`, { stop: stop('dropoff', stops) });

    const outcome = (res: { status: number; body: { error_code?: string; limit?: number } }) =>
      res.status < 300 ? 'accepted' : `${res.status} ${res.body.error_code} ${res.body.limit}`;
    expect(outcome(created)).toBe(outcome(added));
    expect(outcome(created)).toBe(stops <= 3 ? 'accepted' : '422 stop_limit_reached 3');
  });
});
