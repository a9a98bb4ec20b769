// GET /api/hailing/bookings/{id}/events, the booking timeline (decision 1662): the booking's own events for an admin
// and a manager who sees the booking — through the booking's door, so a manager who does not see it gets 404, and
// the booking's tours' events never show.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../../shared/ids.ts';
import { buildTestApp, type Client, type TestApp } from '../../../../test/app.ts';
import { createBooking, createOrganization, createService, createUser, eventsOf, expectOk, type CreatedUser } from '../../../../test/factories.ts';

let t: TestApp;
let admin: Client;
let serviceId: string;
let orgs: { A: string; B: string; C: string };
let managers: { A: CreatedUser; B: CreatedUser; C: CreatedUser };
beforeAll(async () => {
  t = await buildTestApp();
  const tenant = await t.createTenant();
  admin = tenant.admin;
  serviceId = (await createService(admin)).id;
  orgs = { A: (await createOrganization(admin)).id, B: (await createOrganization(admin)).id, C: (await createOrganization(admin)).id };
  managers = {
    A: await createUser(admin, { role: 'manager', organization_ids: [orgs.A] }),
    B: await createUser(admin, { role: 'manager', organization_ids: [orgs.B] }),
    C: await createUser(admin, { role: 'manager', organization_ids: [orgs.C] }),
  };
});
afterAll(async () => t.close());

type Envelope = { id: string; type: string; resource_type: string; data: Record<string, unknown> };
const timeline = (client: Client, bookingId: string, query = '') => client.get(`/api/hailing/bookings/${bookingId}/events${query}`);
const ids = (events: Envelope[]) => events.map((e) => e.id);

/** A booking managed by `managing` (A alone by default), merged into a tour (tour events recorded), released as pickable. */
async function bookingOnTour(managing = [orgs.A]) {
  const booking = await createBooking(admin, { service_id: serviceId, managing_organization_ids: managing });
  const tour = (await expectOk(admin.post('/api/hailing/bookings/merge', { booking_ids: [booking.id] }), 201)).tour;
  await expectOk(admin.post(`/api/hailing/tours/${tour.id}/ready_to_pick`));
  return { bookingId: booking.id as string, tourId: tour.id as string };
}

describe('the booking timeline', () => {
  it('shows an admin and the managing organization’s manager the booking’s own events, newest first, and no tour event', async () => {
    const { bookingId, tourId } = await bookingOnTour();
    const own = (await eventsOf(admin, bookingId)).filter((e: Envelope) => e.resource_type === 'booking').reverse() as Envelope[];
    expect(own.map((e) => e.type)).toContain('booking.created');
    expect((await eventsOf(admin, tourId)).length).toBeGreaterThan(0);
    for (const client of [admin, managers.A.client]) {
      const body = await expectOk(timeline(client, bookingId));
      expect(ids(body.events)).toEqual(ids(own));
      expect(body.events.every((e: Envelope) => e.resource_type === 'booking' && e.data.booking_id === bookingId)).toBe(true);
    }
    const first = await expectOk(timeline(managers.A.client, bookingId, '?limit=1'));
    expect(ids(first.events)).toEqual([own[0]!.id]);
    const rest = await expectOk(timeline(managers.A.client, bookingId, `?limit=100&cursor=${first.meta.next_cursor}`));
    expect(ids(rest.events)).toEqual(ids(own.slice(1)));
  });

  it('answers 404 to a manager who does not see the booking, and follows the booking when a driver of another organization takes its tour', async () => {
    const { bookingId, tourId } = await bookingOnTour([orgs.A, orgs.B]);
    const outsider = await timeline(managers.C.client, bookingId);
    expect(outsider.status).toBe(404);
    expect(outsider.body).toMatchObject({ status: 404, error_code: 'not_found' });
    const driver = await createUser(admin, { role: 'driver', organization_ids: [orgs.B] });
    await expectOk(admin.post(`/api/hailing/tours/${tourId}/force_assign`, { driver_id: driver.id }));
    // The tour's driver is B's: the booking is B's alone now (api-guide "Who sees what").
    expect((await timeline(managers.A.client, bookingId)).status).toBe(404);
    expect((await timeline(managers.C.client, bookingId)).status).toBe(404);
    const now = await expectOk(timeline(managers.B.client, bookingId));
    expect(now.events.length).toBeGreaterThan(0);
  });

  it('is 403 for drivers and customers, 404 for an unknown or malformed id or another tenant’s booking (as the booking itself), 400 for a bad cursor', async () => {
    const { bookingId } = await bookingOnTour();
    for (const role of ['driver', 'customer'] as const) {
      const user = await createUser(admin, { role, organization_ids: role === 'driver' ? [orgs.A] : [] });
      expect((await timeline(user.client, bookingId)).status, role).toBe(403);
    }
    expect((await timeline(admin, newId())).status).toBe(404);
    const other = await t.createTenant();
    expect((await timeline(other.admin, bookingId)).status).toBe(404);
    const badId = await timeline(admin, 'not-a-uuid');
    expect(badId.status).toBe((await admin.get('/api/hailing/bookings/not-a-uuid')).status);
    expect(badId.headers['content-type']).toContain('application/problem+json');
    const badCursor = await timeline(admin, bookingId, '?cursor=x');
    expect(badCursor.status).toBe(400);
    expect(badCursor.body.error_code).toBe('parameter_invalid');
    expect((await timeline(t.anonymous, bookingId)).status).toBe(401);
  });
});
