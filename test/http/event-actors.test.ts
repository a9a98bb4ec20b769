// The audit trail (decision 0106): every event names who caused it — a user, with the API key when one was used, or
// the system for the worker's own work — and the event log filters by that user.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { recordEvent } from '../../src/events/outbox.ts';
import { createWorker, type Worker } from '../../src/worker/loop.ts';
import { buildTestApp, type TestApp, type TestTenant } from '../app.ts';
import {
  createBooking,
  createOrganization,
  createPlace,
  createService,
  createServiceArea,
  createUser,
  createWebhook,
  eventsOf,
  expectOk,
  mergeIntoTour,
  tourEnRoute,
  withToken,
  type CreatedUser,
} from '../factories.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../webhook-receiver.ts';

let t: TestApp;
let worker: Worker;
beforeAll(async () => {
  t = await buildTestApp();
  worker = createWorker(t.deps);
});
afterAll(async () => t.close());

interface Actor {
  type: string;
  id: string | null;
  api_key_id: string | null;
}
interface LoggedEvent {
  id: string;
  type: string;
  resource_type: string;
  data: Record<string, unknown>;
  actor: Actor | null;
}

const SYSTEM = { type: 'system', id: null, api_key_id: null };

/** A manager of a fresh organization with a password, and a client on a sign-in session (no API key). */
async function managerOnSession(tenant: TestTenant, organizationId: string): Promise<CreatedUser & { session: CreatedUser['client'] }> {
  const email = `manager-${Date.now()}-${Math.random().toString(36).slice(2)}@example.com`;
  const manager = await createUser(tenant.admin, { role: 'manager', organization_ids: [organizationId], email, password: 'correct horse battery' });
  const signedIn = await expectOk(t.anonymous.post('/api/signin', { user: { email, password: 'correct horse battery' } }));
  return { ...manager, session: withToken(tenant.admin, signedIn.access_token) };
}

/** The id of the API key a client of createUser authenticates with (the key list shows its token's prefix). */
async function keyIdOf(admin: CreatedUser['client'], user: CreatedUser): Promise<string> {
  const { api_keys: keys } = await expectOk(admin.get('/api/admin/api_keys?limit=100'));
  const key = keys.find((k: { user_id: string; token_prefix: string }) => k.user_id === user.id && user.token.startsWith(k.token_prefix));
  return key.id;
}

async function world() {
  const tenant = await t.createTenant();
  const organization = await createOrganization(tenant.admin);
  const service = await createService(tenant.admin);
  const places = [await createPlace(tenant.admin), await createPlace(tenant.admin)];
  const newBooking = (client = tenant.admin) =>
    createBooking(client, { service_id: service.id, places: places.map((p) => p.id), managing_organization_ids: [organization.id] });
  return { tenant, organization, service, places, newBooking };
}

describe('the actor of an event', () => {
  it('names the manager who cancelled a tour through a sign-in session, on every event the cancellation recorded', async () => {
    const w = await world();
    const manager = await managerOnSession(w.tenant, w.organization.id);
    const booking = await w.newBooking();
    const tour = await mergeIntoTour(w.tenant.admin, [booking.id]);
    const [last] = (await expectOk(w.tenant.admin.get('/api/admin/events?limit=1'))).events as LoggedEvent[];
    await expectOk(manager.session.post(`/api/hailing/tours/${tour.id}/cancel`));

    const recorded = ((await expectOk(w.tenant.admin.get('/api/admin/events?limit=100'))).events as LoggedEvent[]).filter((e) => e.id > last!.id);
    // The tour's status change, and the stops handed back: the booking's route and status, the tour's stops.
    expect(recorded.map((e) => e.type).sort()).toEqual(['booking.route_changed', 'booking.transition', 'tour.active_status_changed', 'tour.modified']);
    for (const event of recorded) expect(event.actor, event.type).toEqual({ type: 'user', id: manager.id, api_key_id: null });
  });

  it('names the user and the API key an action was taken through', async () => {
    const w = await world();
    const manager = await createUser(w.tenant.admin, { role: 'manager', organization_ids: [w.organization.id] });
    const keyId = await keyIdOf(w.tenant.admin, manager);
    const booking = await w.newBooking();
    await expectOk(manager.client.post(`/api/hailing/bookings/${booking.id}/cancel`));
    const [transition] = (await eventsOf(w.tenant.admin, booking.id, 'booking.transition')) as LoggedEvent[];
    expect(transition!.data).toMatchObject({ to: 'cancelled', event: 'cancel' });
    expect(transition!.actor).toEqual({ type: 'user', id: manager.id, api_key_id: keyId });
  });

  it('names the creator of a booking written by the one-statement fast path', async () => {
    const w = await world();
    const manager = await createUser(w.tenant.admin, { role: 'manager', organization_ids: [w.organization.id] });
    const keyId = await keyIdOf(w.tenant.admin, manager);
    const booking = await w.newBooking(manager.client);
    const [created] = (await eventsOf(w.tenant.admin, booking.id, 'booking.created')) as LoggedEvent[];
    expect(created!.actor).toEqual({ type: 'user', id: manager.id, api_key_id: keyId });
  });

  it('names the driver whose positions moved the ETAs, on the locking path and on the fast path alike', async () => {
    const tenant = await t.createTenant();
    const area = await createServiceArea(tenant.admin, { average_speed_kmh: 36 });
    const service = await createService(tenant.admin, { service_area_id: area.id });
    const places = [await createPlace(tenant.admin, { service_area_id: area.id }), await createPlace(tenant.admin, { service_area_id: area.id })];
    const booking = await createBooking(tenant.admin, { service_id: service.id, places: places.map((p) => p.id) });
    const driver = await createUser(tenant.admin, { role: 'driver' });
    const keyId = await keyIdOf(tenant.admin, driver);
    const tour = await tourEnRoute(tenant.admin, [booking.id], driver.id);
    const post = () => expectOk(driver.client.post(`/api/hailing/tours/${tour.id}/driver_location`, { location: { lat: 52.49, lng: 13.4, recorded_at: t.clock.now().toISOString() } }));
    // The first position makes the tracking row (a transaction); the next, two minutes on at the same place, moves
    // every ETA by two minutes and is written by the fast path's one statement.
    await post();
    t.clock.advanceSeconds(120);
    await post();
    const recalculated = (await eventsOf(tenant.admin, tour.id, 'tour.etas_recalculated')) as LoggedEvent[];
    expect(recalculated).toHaveLength(2);
    const driverActor = { type: 'user', id: driver.id, api_key_id: keyId };
    expect(recalculated.map((e) => e.actor)).toEqual([driverActor, driverActor]);
    const bookingRecalculated = (await eventsOf(tenant.admin, booking.id, 'booking.etas_recalculated')) as LoggedEvent[];
    expect(bookingRecalculated.map((e) => e.actor)).toEqual([driverActor, driverActor]);
  });

  it('is the system for a claim the worker expired, while the claim itself names its driver', async () => {
    const w = await world();
    const booking = await w.newBooking();
    const tour = await mergeIntoTour(w.tenant.admin, [booking.id]);
    await expectOk(w.tenant.admin.post(`/api/hailing/tours/${tour.id}/schedule`));
    const driver = await createUser(w.tenant.admin, { role: 'driver', organization_ids: [w.organization.id] });
    await expectOk(driver.client.post(`/api/hailing/tours/${tour.id}/claim`));
    t.clock.advanceSeconds(901);
    await worker.drain();

    const changes = (await eventsOf(w.tenant.admin, tour.id, 'tour.active_status_changed')) as LoggedEvent[];
    const claimed = changes.find((e) => e.data.event === 'claim');
    const expired = changes.find((e) => e.data.event === 'expire_claim');
    expect(claimed!.actor).toMatchObject({ type: 'user', id: driver.id });
    expect(expired!.actor).toEqual(SYSTEM);
  });

  it('is the system for the debounced tour.compensation_updated, which the worker writes for every change of its window', async () => {
    const w = await world();
    const tour = await mergeIntoTour(w.tenant.admin, [(await w.newBooking()).id]);
    await expectOk(w.tenant.admin.put(`/api/tours/${tour.id}/compensation/base`, { amount: 4200, currency: 'EUR' }));
    t.clock.advanceSeconds(121);
    await worker.drain();
    const [updated] = (await eventsOf(w.tenant.admin, tour.id, 'tour.compensation_updated')) as LoggedEvent[];
    expect(updated!.actor).toEqual(SYSTEM);
  });

  it('is null on events recorded before the audit trail existed', async () => {
    const tenant = await t.createTenant();
    const id = await t.deps.db.transaction((tx) =>
      recordEvent(tx, { tenantId: tenant.tenantId, actor: 'system', type: 'webhook.test', resourceId: null, data: {}, at: t.clock.now() }),
    );
    // What migration 0006 leaves on the rows it finds.
    await t.deps.db.execute(sql`UPDATE events SET actor_type = NULL WHERE tenant_id = ${tenant.tenantId} AND id = ${id}`);
    const [event] = (await expectOk(tenant.admin.get('/api/admin/events'))).events as LoggedEvent[];
    expect(event).toMatchObject({ id, actor: null });
  });
});

describe('the actor in a webhook delivery', () => {
  let receiver: WebhookReceiver;
  afterEach(async () => receiver.close());

  it('carries the same actor as the event log', async () => {
    receiver = await startWebhookReceiver();
    const w = await world();
    await createWebhook(w.tenant.admin, receiver.url, { events: ['booking.transition'] });
    const manager = await createUser(w.tenant.admin, { role: 'manager', organization_ids: [w.organization.id] });
    const keyId = await keyIdOf(w.tenant.admin, manager);
    const booking = await w.newBooking();
    await expectOk(manager.client.post(`/api/hailing/bookings/${booking.id}/cancel`));
    await worker.drain();
    const delivered = receiver.received.filter((r) => r.json.data.booking_id === booking.id);
    expect(delivered).toHaveLength(1);
    expect(delivered[0]!.json.actor).toEqual({ type: 'user', id: manager.id, api_key_id: keyId });
  });
});

describe('GET /api/admin/events?filters[actor_id]=', () => {
  it('answers exactly the events of that user, whatever credential they used', async () => {
    const w = await world();
    const ana = await managerOnSession(w.tenant, w.organization.id);
    const ben = await createUser(w.tenant.admin, { role: 'manager', organization_ids: [w.organization.id] });
    const anaBooking = await w.newBooking(ana.client);
    await expectOk(ana.session.post(`/api/hailing/bookings/${anaBooking.id}/cancel`));
    const benBooking = await w.newBooking(ben.client);
    await mergeIntoTour(ben.client, [benBooking.id]);

    const all = (await expectOk(w.tenant.admin.get('/api/admin/events?limit=100'))).events as LoggedEvent[];
    const of = (userId: string) => all.filter((e) => e.actor?.id === userId).map((e) => e.id);
    expect(of(ana.id).length).toBeGreaterThanOrEqual(3); // created (API key), cancelled (session): booking.transition, booking.modified
    expect(of(ben.id).length).toBeGreaterThanOrEqual(3); // created, tour.created, booking.route_changed, …
    for (const user of [ana, ben]) {
      const res = await expectOk(w.tenant.admin.get(`/api/admin/events?filters[actor_id]=${user.id}&limit=100`));
      expect(res.events.map((e: LoggedEvent) => e.id)).toEqual(of(user.id));
    }
    // With another filter, both apply.
    const anaCreated = await expectOk(w.tenant.admin.get(`/api/admin/events?filters[actor_id]=${ana.id}&filters[type][]=booking.created`));
    expect(anaCreated.events.map((e: LoggedEvent) => e.resource_type + ':' + String(e.data.booking_id))).toEqual([`booking:${anaBooking.id}`]);
    // A user of another tenant, or one who did nothing, has no events here.
    const other = await t.createTenant();
    expect((await expectOk(other.admin.get(`/api/admin/events?filters[actor_id]=${ana.id}`))).events).toEqual([]);
  });

  it('answers 400 parameter_invalid naming the parameter for an actor id that is not a UUID', async () => {
    const tenant = await t.createTenant();
    const res = await tenant.admin.get('/api/admin/events?filters[actor_id]=system');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error_code: 'parameter_invalid', errors: [{ parameter: 'filters[actor_id]' }] });
  });
});
