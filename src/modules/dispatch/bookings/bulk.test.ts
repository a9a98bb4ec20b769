import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestTenant } from '../../../../test/app.ts';
import { createOrganization, createPlace, createService, createUser, expectOk, type Client, type CreatedUser } from '../../../../test/factories.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

interface World {
  tenant: TestTenant;
  serviceId: string;
  orgId: string;
  manager: CreatedUser;
  places: string[];
}

async function world(): Promise<World> {
  const tenant = await t.createTenant();
  const org = await createOrganization(tenant.admin);
  const manager = await createUser(tenant.admin, { role: 'manager', organization_ids: [org.id] });
  const serviceId = (await createService(tenant.admin)).id;
  const places = [(await createPlace(tenant.admin)).id, (await createPlace(tenant.admin)).id];
  return { tenant, serviceId, orgId: org.id, manager, places };
}

/** A booking as a CSV row maps to it: a pickup and a drop-off at known places, one package between them. */
const row = (w: World, externalId: string, overrides: Record<string, unknown> = {}) => ({
  service_id: w.serviceId,
  external_id: externalId,
  stops: [
    { type: 'pickup', place_id: w.places[0] },
    { type: 'dropoff', place_id: w.places[1] },
  ],
  packages: [{ pickup_stop_index: 0, dropoff_stop_index: 1 }],
  ...overrides,
});

const UNKNOWN_PLACE = '0190a6c4-7a3b-7c3e-8f00-000000000002';

/** 50 rows of which three are bad: an unknown field (schema), an unknown place (reference), a package going backwards (rule). */
function fiftyRowsThreeBad(w: World, prefix: string) {
  return Array.from({ length: 50 }, (_, i) => {
    const externalId = `${prefix}-${i}`;
    let booking: Record<string, unknown> = row(w, externalId);
    if (i === 7) booking = { ...booking, colour: 'red' };
    if (i === 21) booking = row(w, externalId, { stops: [{ type: 'pickup', place_id: UNKNOWN_PLACE }, { type: 'dropoff', place_id: w.places[1] }] });
    if (i === 42) booking = row(w, externalId, { packages: [{ pickup_stop_index: 1, dropoff_stop_index: 0 }] });
    return { idempotency_key: `${prefix}-key-${i}`, booking };
  });
}
const BAD = new Map([
  [7, { error_code: 'validation_failed', pointer: '/booking/colour', code: 'unknown_field' }],
  [21, { error_code: 'validation_failed', pointer: '/booking/stops/0/place_id', code: 'unknown_reference' }],
  [42, { error_code: 'validation_failed', pointer: '/booking/packages/0/dropoff_stop_index', code: 'dropoff_before_pickup' }],
]);

async function countBookings(admin: Client): Promise<number> {
  return (await expectOk(admin.get('/api/hailing/bookings?limit=100&view=compact'))).bookings.length;
}
async function countCreatedEvents(admin: Client): Promise<number> {
  return (await expectOk(admin.get('/api/admin/events?filters[type][]=booking.created&limit=100'))).events.length;
}

describe('creating bookings in bulk', () => {
  it('creates the 47 good rows of 50, answers the 3 bad ones with pointers, and a re-sent call creates nothing new', async () => {
    const w = await world();
    const items = fiftyRowsThreeBad(w, 'imp');
    const first = await expectOk(w.manager.client.post('/api/hailing/bookings/bulk', { bookings: items }));
    expect(first.results.map((r: { index: number }) => r.index)).toEqual(items.map((_, i) => i));
    for (const result of first.results) {
      const bad = BAD.get(result.index);
      if (!bad) {
        expect(result).toMatchObject({ status: 201, replayed: false, error: null, booking: { external_id: `imp-${result.index}`, managing_organization_ids: [w.orgId] } });
        continue;
      }
      expect(result).toMatchObject({ status: 422, booking: null, error: { status: 422, error_code: bad.error_code } });
      expect(result.error.errors).toEqual([
        expect.objectContaining({ pointer: bad.pointer, full_pointer: `/bookings/${result.index}${bad.pointer}`, code: bad.code }),
      ]);
    }
    expect(await countBookings(w.tenant.admin)).toBe(47);
    expect(await countCreatedEvents(w.tenant.admin)).toBe(47);

    const again = await expectOk(w.manager.client.post('/api/hailing/bookings/bulk', { bookings: items }));
    expect(again.results.map((r: { status: number }) => r.status)).toEqual(first.results.map((r: { status: number }) => r.status));
    expect(again.results.every((r: { replayed: boolean }) => r.replayed)).toBe(true);
    expect(again.results.map((r: { booking: { id: string } | null }) => r.booking?.id ?? null)).toEqual(first.results.map((r: { booking: { id: string } | null }) => r.booking?.id ?? null));
    expect(await countBookings(w.tenant.admin)).toBe(47);
    expect(await countCreatedEvents(w.tenant.admin)).toBe(47);
  });

  it('shares the single create’s idempotency store: a key used there replays here, and the other way round', async () => {
    const w = await world();
    const booking = row(w, 'shared-1');
    const single = await w.manager.client.post('/api/hailing/bookings', { booking }, { headers: { 'idempotency-key': 'shared-key-1' } });
    expect(single.status).toBe(201);
    const bulk = await expectOk(w.manager.client.post('/api/hailing/bookings/bulk', { bookings: [{ idempotency_key: 'shared-key-1', booking }, { idempotency_key: 'shared-key-2', booking: row(w, 'shared-2') }] }));
    expect(bulk.results[0]).toMatchObject({ status: 201, replayed: true, booking: { id: single.body.booking.id } });
    expect(bulk.results[1]).toMatchObject({ status: 201, replayed: false });
    const replay = await w.manager.client.post('/api/hailing/bookings', { booking: row(w, 'shared-2') }, { headers: { 'idempotency-key': 'shared-key-2' } });
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body.booking.id).toBe(bulk.results[1].booking.id);
    expect(await countBookings(w.tenant.admin)).toBe(2);
  });

  it('answers 422 idempotency_key_reused for the one item whose key came with another booking, and creates the others', async () => {
    const w = await world();
    await expectOk(w.manager.client.post('/api/hailing/bookings/bulk', { bookings: [{ idempotency_key: 'k-0', booking: row(w, 'r-0') }] }));
    const res = await expectOk(
      w.manager.client.post('/api/hailing/bookings/bulk', {
        bookings: [
          { idempotency_key: 'k-1', booking: row(w, 'r-1') },
          { idempotency_key: 'k-0', booking: row(w, 'r-0-changed') },
          { idempotency_key: 'k-2', booking: row(w, 'r-2') },
        ],
      }),
    );
    expect(res.results.map((r: { status: number }) => r.status)).toEqual([201, 422, 201]);
    expect(res.results[1]).toMatchObject({ booking: null, error: { error_code: 'idempotency_key_reused' } });
    expect(await countBookings(w.tenant.admin)).toBe(3);
  });

  it('writes nothing on a dry run — no booking, no event, no idempotency record — and answers what the create would', async () => {
    const w = await world();
    const done = await expectOk(w.manager.client.post('/api/hailing/bookings/bulk', { bookings: [{ idempotency_key: 'dry-done', booking: row(w, 'dry-done') }] }));
    const [bookingsBefore, eventsBefore] = [await countBookings(w.tenant.admin), await countCreatedEvents(w.tenant.admin)];
    const items = [...fiftyRowsThreeBad(w, 'dry'), { idempotency_key: 'dry-done', booking: row(w, 'dry-done') }, { idempotency_key: 'dry-done', booking: row(w, 'other') }];
    const checked = await expectOk(w.manager.client.post('/api/hailing/bookings/bulk', { bookings: items, dry_run: true }));
    for (const result of checked.results.slice(0, 50)) {
      const bad = BAD.get(result.index);
      if (!bad) expect(result).toMatchObject({ status: 201, replayed: false, booking: null, error: null });
      else expect(result.error.errors).toEqual([expect.objectContaining({ pointer: bad.pointer, full_pointer: `/bookings/${result.index}${bad.pointer}`, code: bad.code })]);
    }
    // A key already used answers as the create would: the stored booking, or the reused key's 422.
    expect(checked.results[50]).toMatchObject({ status: 201, replayed: true, booking: { id: done.results[0].booking.id } });
    expect(checked.results[51]).toMatchObject({ status: 422, error: { error_code: 'idempotency_key_reused' } });
    expect(await countBookings(w.tenant.admin)).toBe(bookingsBefore);
    expect(await countCreatedEvents(w.tenant.admin)).toBe(eventsBefore);

    // No key was claimed: the same call for real creates every good row.
    const real = await expectOk(w.manager.client.post('/api/hailing/bookings/bulk', { bookings: items.slice(0, 50) }));
    expect(real.results.filter((r: { status: number; replayed: boolean }) => r.status === 201 && !r.replayed)).toHaveLength(47);
  });

  it('checks a dry run of 100 bookings larger than the 1 MiB body of other routes', async () => {
    const w = await world();
    const notes = 'n'.repeat(2000);
    const bookings = Array.from({ length: 100 }, (_, i) => ({
      idempotency_key: `big-${i}`,
      booking: row(w, `big-${i}`, { stops: Array.from({ length: 6 }, (_, s) => ({ type: s === 0 ? 'pickup' : 'dropoff', place_id: w.places[s % 2], notes })) }),
    }));
    expect(JSON.stringify({ bookings }).length).toBeGreaterThan(1024 * 1024);
    const res = await expectOk(w.manager.client.post('/api/hailing/bookings/bulk', { bookings, dry_run: true }));
    expect(res.results.every((r: { status: number }) => r.status === 201)).toBe(true);
  });

  it('refuses a manager’s booking for another organization, in bulk as alone, and writes nothing for it', async () => {
    const w = await world();
    const other = await createOrganization(w.tenant.admin);
    const foreign = row(w, 'foreign', { managing_organization_ids: [other.id] });
    const alone = await w.manager.client.post('/api/hailing/bookings', { booking: foreign });
    expect(alone.status).toBe(422);
    expect(alone.body.errors).toEqual([expect.objectContaining({ pointer: '/booking/managing_organization_ids', code: 'must_include_own_organization' })]);
    const bulk = await expectOk(
      w.manager.client.post('/api/hailing/bookings/bulk', { bookings: [{ idempotency_key: 'own', booking: row(w, 'own') }, { idempotency_key: 'foreign', booking: foreign }] }),
    );
    expect(bulk.results[0]).toMatchObject({ status: 201 });
    expect(bulk.results[1]).toMatchObject({ status: 422, booking: null });
    expect(bulk.results[1].error.errors).toEqual([
      expect.objectContaining({ pointer: '/booking/managing_organization_ids', full_pointer: '/bookings/1/booking/managing_organization_ids', code: 'must_include_own_organization' }),
    ]);
    const found = await expectOk(w.tenant.admin.get('/api/hailing/bookings?filters[external_id]=foreign'));
    expect(found.bookings).toEqual([]);
    // Shared with another organization, the booking stays visible to its creator and is created.
    const shared = await expectOk(w.manager.client.post('/api/hailing/bookings/bulk', { bookings: [{ idempotency_key: 'shared', booking: row(w, 'shared', { managing_organization_ids: [w.orgId, other.id] }) }] }));
    expect(shared.results[0]).toMatchObject({ status: 201, booking: { external_id: 'shared' } });
    // Admins still create for any organization.
    const byAdmin = await expectOk(w.tenant.admin.post('/api/hailing/bookings/bulk', { bookings: [{ idempotency_key: 'admin-foreign', booking: foreign }] }));
    expect(byAdmin.results[0]).toMatchObject({ status: 201, booking: { managing_organization_ids: [other.id] } });
  });

  it('refuses 101 items with 422 at /bookings and a driver with 403, creating nothing', async () => {
    const w = await world();
    const bookings = Array.from({ length: 101 }, (_, i) => ({ idempotency_key: `many-${i}`, booking: row(w, `many-${i}`) }));
    const tooMany = await w.manager.client.post('/api/hailing/bookings/bulk', { bookings });
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.errors).toEqual([expect.objectContaining({ pointer: '/bookings', code: 'too_many' })]);
    const driver = await createUser(w.tenant.admin, { role: 'driver', organization_ids: [w.orgId] });
    const refused = await driver.client.post('/api/hailing/bookings/bulk', { bookings: bookings.slice(0, 2) });
    expect(refused.status).toBe(403);
    expect(refused.body.error_code).toBe('forbidden');
    expect(await countBookings(w.tenant.admin)).toBe(0);
  });

  it('lets customers create their own bookings in bulk, as the single create does', async () => {
    const w = await world();
    const customer = await createUser(w.tenant.admin, { role: 'customer' });
    const res = await expectOk(customer.client.post('/api/hailing/bookings/bulk', { bookings: [{ idempotency_key: 'c-1', booking: row(w, 'c-1') }] }));
    expect(res.results[0]).toMatchObject({ status: 201, booking: { customer_id: customer.id } });
  });
});

describe('rate limits of bulk creates', () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await buildTestApp({ rateLimit: { perSecond: 10, burst: 20 } });
  });
  afterAll(async () => limited?.close());

  it('counts a bulk call as one request and its items against a second bucket that holds one full call', async () => {
    const tenant = await limited.createTenant();
    const serviceId = (await createService(tenant.admin)).id;
    const importer = await createUser(tenant.admin, { role: 'admin' });
    const item = (i: number) => ({ idempotency_key: `rl-${i}`, booking: { service_id: serviceId, stops: [{ type: 'pickup', location: { lat: 52.5, lng: 13.4 }, address: { street: 'Torstraße', city: 'Berlin' } }] } });
    const full = await importer.client.post('/api/hailing/bookings/bulk', { bookings: Array.from({ length: 100 }, (_, i) => item(i)), dry_run: true });
    expect(full.status).toBe(200);
    // One token of the request bucket (burst 20) was taken, not 100.
    expect(full.headers['ratelimit-remaining']).toBe('19');
    const next = await importer.client.post('/api/hailing/bookings/bulk', { bookings: [item(100), item(101)], dry_run: true });
    expect(next.status).toBe(429);
    expect(next.body.error_code).toBe('rate_limited');
    expect(next.headers['retry-after']).toBe('1');
    // Other requests of the same credential still pass.
    expect((await importer.client.get('/api/hailing/bookings')).status).toBe(200);
    limited.clock.advance(1000);
    expect((await importer.client.post('/api/hailing/bookings/bulk', { bookings: [item(100), item(101)], dry_run: true })).status).toBe(200);
  });
});
