import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestTenant } from '../../../test/app.ts';
import { createBooking, createService, createServiceArea, createUser, eventsOf, expectOk, tourEnRoute, withToken, type CreatedUser } from '../../../test/factories.ts';
import { openSse, type SseFrame, type SseStream } from '../../../test/sse-client.ts';
import { runDueJobs } from '../../worker/loop.ts';

let t: TestApp;
let base: string;
const open: SseStream[] = [];

beforeAll(async () => {
  t = await buildTestApp({ live: { ...(await import('../../config.ts')).loadConfig({}).live, stream: { pollMs: 25, heartbeatMs: 200, revalidateMs: 100 } } });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const s of open) s.close();
  await t.close();
});

const stream = async (path: string, headers: Record<string, string> = {}) => {
  const s = await openSse(base, path, headers);
  open.push(s);
  return s;
};
const as = (token: string, path = '/api/live', headers: Record<string, string> = {}) => stream(path, { authorization: `Bearer ${token}`, ...headers });
const types = (frames: SseFrame[]) => frames.map((f) => f.event);
const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

/** Org A's driver on an en_route tour of booking 1 (customer 1); booking 2 of customer 2 waits undispatched. */
async function scene(tenant?: TestTenant) {
  const tn = tenant ?? (await t.createTenant());
  const area = await createServiceArea(tn.admin);
  const service = await createService(tn.admin, { service_area_id: area.id });
  const driver = await createUser(tn.admin, { role: 'driver' });
  const ownManager = await createUser(tn.admin, { role: 'manager', organization_ids: driver.user.organization_ids });
  const otherManager = await createUser(tn.admin, { role: 'manager' });
  const customer1 = await createUser(tn.admin, { role: 'customer' });
  const customer2 = await createUser(tn.admin, { role: 'customer' });
  const booking1 = await createBooking(tn.admin, { service_id: service.id, customer_id: customer1.id });
  const booking2 = await createBooking(tn.admin, { service_id: service.id, customer_id: customer2.id });
  const tour = await tourEnRoute(tn.admin, [booking1.id], driver.id);
  const post = (lat: number, seconds = 0) =>
    expectOk(driver.client.post(`/api/hailing/tours/${tour.id}/driver_location`, { location: { lat, lng: 13.4, recorded_at: new Date(t.clock.now().getTime() + seconds * 1000).toISOString() } }));
  return { tenant: tn, driver, ownManager, otherManager, customer1, customer2, booking1, booking2, tour, post };
}

describe('GET /api/live', () => {
  it('streams positions to admins, the driver and its own organization\'s managers; ETA changes to the booking\'s customer; nothing to others', async () => {
    const s = await scene();
    const [admin, driver, own, other, c1, c2] = await Promise.all([
      as(s.tenant.adminToken),
      as(s.driver.token),
      as(s.ownManager.token),
      as(s.otherManager.token),
      as(s.customer1.token),
      as(s.customer2.token),
    ]);
    const position = await s.post(52.49);
    await admin.waitFor((f) => types(f).includes('tour.driver_location_updated') && types(f).includes('booking.etas_recalculated') && types(f).includes('tour.etas_recalculated'));
    await own.waitFor((f) => types(f).includes('tour.driver_location_updated') && types(f).includes('tour.etas_recalculated'));
    await driver.waitFor((f) => types(f).includes('tour.driver_location_updated'));
    await c1.waitFor((f) => types(f).includes('booking.etas_recalculated'));
    await settle();

    const frame = admin.frames.find((f) => f.event === 'tour.driver_location_updated')!;  
    expect(frame.id).toBe(position.location.id);
    expect(frame.data).toMatchObject({
      id: position.location.id,
      type: 'tour.driver_location_updated',
      resource_type: 'tour',
      event: 'driver_location_updated',
      data: { tour_id: s.tour.id, driver_id: s.driver.id, location: { lat: 52.49, lng: 13.4 } },
    });
    const etas = admin.frames.find((f) => f.event === 'tour.etas_recalculated')!;  
    const [recorded] = await eventsOf(s.tenant.admin, s.tour.id, 'tour.etas_recalculated');
    expect(etas.id).toBe(recorded.id);
    // The stream carries the event as the log has it, but for its actor (decision 0106: drivers and customers follow
    // streams, and who acted is the tenant's audit trail).
    const { actor: _actor, ...withoutActor } = recorded;
    expect(etas.data).toEqual(withoutActor);

    expect(types(c1.frames)).toEqual(['booking.etas_recalculated']);
    expect(c1.frames[0]?.data.data.booking_id).toBe(s.booking1.id);
    expect(other.frames).toEqual([]);
    expect(c2.frames).toEqual([]);
  });

  it('never sends one tenant\'s events to another tenant\'s admin', async () => {
    const s = await scene();
    const stranger = await t.createTenant();
    const foreign = await as(stranger.adminToken);
    const own = await as(s.tenant.adminToken);
    await s.post(52.49);
    await own.waitFor((f) => types(f).includes('tour.etas_recalculated'));
    await settle();
    expect(foreign.frames).toEqual([]);
  });

  it('narrows to filters[tour_id] and filters[types][]', async () => {
    const s = await scene();
    const onlyPositions = await as(s.tenant.adminToken, `/api/live?filters[types][]=tour.driver_location_updated`);
    const otherTour = await as(s.tenant.adminToken, `/api/live?filters[tour_id]=${s.booking2.id}`);
    const thisTour = await as(s.tenant.adminToken, `/api/live?filters[tour_id]=${s.tour.id}`);
    await s.post(52.49);
    await thisTour.waitFor((f) => ['tour.driver_location_updated', 'tour.etas_recalculated', 'booking.etas_recalculated'].every((type) => types(f).includes(type)));
    await onlyPositions.waitFor((f) => f.length > 0);
    await settle();
    expect(new Set(types(onlyPositions.frames))).toEqual(new Set(['tour.driver_location_updated']));
    expect(otherTour.frames).toEqual([]);
    const bad = await as(s.tenant.adminToken, `/api/live?filters[tour_id]=nope`);
    expect(bad.status).toBe(400);
  });

  it('refuses a caller without credentials', async () => {
    const res = await stream('/api/live');
    expect(res.status).toBe(401);
  });

  it('resumes missed events after Last-Event-ID from the last 5 minutes, in order, then goes on live', async () => {
    const s = await scene();
    await s.post(52.49);
    t.clock.advanceSeconds(120);
    await s.post(52.49);
    const recorded = [...(await eventsOf(s.tenant.admin, s.tour.id)), ...(await eventsOf(s.tenant.admin, s.booking1.id))].sort((a, b) => (a.id < b.id ? -1 : 1));
    const etaEvents = recorded.filter((e) => e.type === 'tour.etas_recalculated');
    expect(etaEvents).toHaveLength(2);
    const after = etaEvents[0].id;
    const resumed = await as(s.tenant.adminToken, '/api/live', { 'last-event-id': after });
    const expected = recorded.filter((e) => e.id > after).map((e) => e.id);
    expect(resumed.frames.map((f) => f.id)).toEqual(expected);
    // Older than five minutes: not replayed.
    t.clock.advanceSeconds(301);
    const late = await as(s.tenant.adminToken, '/api/live', { 'last-event-id': after });
    expect(late.frames).toEqual([]);
    await s.post(52.49);
    await late.waitFor((f) => types(f).includes('tour.driver_location_updated'));
  });

  it('treats a Last-Event-ID from the future as now: replays nothing, then streams live', async () => {
    const s = await scene();
    const future = await as(s.tenant.adminToken, '/api/live', { 'last-event-id': 'ffffffff-ffff-7fff-bfff-ffffffffffff' });
    expect(future.status).toBe(200);
    expect(future.frames).toEqual([]);
    await s.post(52.49);
    await future.waitFor((f) => types(f).includes('tour.driver_location_updated') && types(f).includes('tour.etas_recalculated'));
  });

  it('resumes with the latest position of each driver, not every one recorded meanwhile, and every other event in order', async () => {
    const s = await scene();
    const s2 = await scene(s.tenant);
    const resources = [s.tour.id, s.booking1.id, s2.tour.id, s2.booking1.id];
    const recorded = async () => (await Promise.all(resources.map((id) => eventsOf(s.tenant.admin, id)))).flat().sort((a, b) => (a.id < b.id ? -1 : 1));
    const after = (await recorded()).at(-1)!.id;
    // Three coalescing windows of the first driver (11 m apart: a plausible speed), one of the second: each window
    // leaves one position in the outbox.
    for (const [lat, both] of [[52.49, true], [52.4901, false], [52.4902, false]] as const) {
      await s.post(lat);
      if (both) await s2.post(52.3);
      t.clock.advanceSeconds(11);
      while ((await runDueJobs(t.deps, 'stream-test')) > 0);
    }
    const missed = (await recorded()).filter((e) => e.id > after);
    expect(missed.filter((e) => e.type === 'tour.driver_location_updated')).toHaveLength(4);

    const resumed = await as(s.tenant.adminToken, '/api/live', { 'last-event-id': after });
    const positions = resumed.frames.filter((f) => f.event === 'tour.driver_location_updated').map((f) => f.data.data);
    expect(positions.map((p) => [p.driver_id, p.location.lat]).sort()).toEqual([[s.driver.id, 52.4902], [s2.driver.id, 52.3]].sort());
    expect(resumed.frames.filter((f) => f.event !== 'tour.driver_location_updated').map((f) => f.id)).toEqual(missed.filter((e) => e.type !== 'tour.driver_location_updated').map((e) => e.id));
    const ids = resumed.frames.map((f) => f.id!);
    expect(ids).toEqual([...ids].sort());
  });

  it('sends a heartbeat comment', async () => {
    const s = await as((await t.createTenant()).adminToken);
    await s.waitForComment('heartbeat', 2_000);
  });

  it('closes the stream when its credential is revoked', async () => {
    const tenant = await t.createTenant();
    const manager = await createUser(tenant.admin, { role: 'manager' });
    const key = await expectOk(tenant.admin.post('/api/admin/api_keys', { api_key: { name: 'stream', user_id: manager.id } }), 201);
    const s = await as(key.api_key.token);
    expect(s.status).toBe(200);
    await expectOk(tenant.admin.delete(`/api/admin/api_keys/${key.api_key.id}`));
    await Promise.race([s.ended, new Promise((_, reject) => setTimeout(() => reject(new Error('stream still open')), 3_000))]);
  });
});

describe('POST /api/live/tickets', () => {
  let tenant: TestTenant;
  let manager: CreatedUser;
  beforeAll(async () => {
    tenant = await t.createTenant();
    manager = await createUser(tenant.admin, { role: 'manager' });
  });
  const ticket = async (client = manager.client) => (await expectOk(client.post('/api/live/tickets', {}), 201)).ticket;

  it('opens the stream once, as the user who asked for it, without a header', async () => {
    const tk = await ticket(withToken(tenant.admin, tenant.adminToken));
    expect(tk.url).toBe(`/api/live?ticket=${tk.token}`);
    expect(new Date(tk.expires_at).getTime() - t.clock.now().getTime()).toBe(60_000);
    const s = await stream(tk.url);
    expect(s.status).toBe(200);
    const again = await stream(tk.url);
    expect(again.status).toBe(401);
  });

  it('expires after 60 seconds', async () => {
    const tk = await ticket();
    t.clock.advanceSeconds(61);
    expect((await stream(tk.url)).status).toBe(401);
  });

  it('works for no other tenant and refuses forged tickets', async () => {
    const tk = await ticket();
    const other = await t.createTenant();
    const otherTenantHex = other.tenantId.replace(/-/g, '');
    const moved = `lt_${otherTenantHex}${tk.token.slice(3 + 32)}`;
    expect((await stream(`/api/live?ticket=${moved}`)).status).toBe(401);
    const forged = `${tk.token.slice(0, -4)}AAAA`;
    expect((await stream(`/api/live?ticket=${forged}`)).status).toBe(401);
    expect((await stream('/api/live?ticket=garbage')).status).toBe(401);
    // The genuine ticket still works: failed attempts did not spend it.
    expect((await stream(tk.url)).status).toBe(200);
  });

  it('is refused without credentials', async () => {
    expect((await t.anonymous.post('/api/live/tickets', {})).status).toBe(401);
  });
});

describe('outbox bursts', () => {
  it('goes on past a burst of more events than one poll reads within the look-back', async () => {
    // Pages of 3: the eight bookings' events (and the set-up's) fall within the poller's 2 s look-back. Read from the
    // floor alone, the first page came back on every poll and no later event reached the stream.
    const small = await buildTestApp({ live: { ...(await import('../../config.ts')).loadConfig({}).live, stream: { pollMs: 25, heartbeatMs: 60_000, revalidateMs: 60_000, pollBatch: 3 } } });
    try {
      await small.app.listen({ port: 0, host: '127.0.0.1' });
      const url = `http://127.0.0.1:${(small.app.server.address() as AddressInfo).port}`;
      const tenant = await small.createTenant();
      const service = await createService(tenant.admin, { service_area_id: (await createServiceArea(tenant.admin)).id });
      const s = await openSse(url, '/api/live', { authorization: `Bearer ${tenant.adminToken}` });
      open.push(s);
      const ids: string[] = [];
      for (let i = 0; i < 8; i++) ids.push((await createBooking(tenant.admin, { service_id: service.id })).id);
      const created = (f: SseFrame[]) => f.filter((x) => x.event === 'booking.created').map((x) => String(x.data.data.booking_id));
      await s.waitFor((f) => created(f).length >= ids.length);
      expect(created(s.frames)).toEqual(ids);
    } finally {
      await small.close();
    }
  });
});

describe('shutdown', () => {
  it('ends open streams when the app closes', async () => {
    const other = await buildTestApp();
    await other.app.listen({ port: 0, host: '127.0.0.1' });
    const url = `http://127.0.0.1:${(other.app.server.address() as AddressInfo).port}`;
    const tenant = await other.createTenant();
    const s = await openSse(url, '/api/live', { authorization: `Bearer ${tenant.adminToken}` });
    expect(s.status).toBe(200);
    await other.close();
    await s.ended;
  });
});
