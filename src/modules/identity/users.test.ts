import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestTenant } from '../../../test/app.ts';
import { createBooking, createOrganization, createService, createUser, expectOk, tourEnRoute, withToken } from '../../../test/factories.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

const ids = (list: { id: string }[]) => list.map((u) => u.id);

describe('users CRUD', () => {
  let tenant: TestTenant;
  beforeAll(async () => {
    tenant = await t.createTenant();
  });

  it('creates a driver with one organization and renders active_tour_id and the deprecated active_hailing_booking_ids', async () => {
    const org = await createOrganization(tenant.admin);
    const res = await tenant.admin.post('/api/users', {
      user: { role: 'driver', name: 'Dana Driver', email: 'Dana@Example.com', phone_number: '+4930123', organization_ids: [org.id] },
    });
    expect(res.status).toBe(201);
    expect(res.body.user).toEqual({
      id: expect.any(String),
      role: 'driver',
      name: 'Dana Driver',
      email: 'dana@example.com',
      phone_number: '+4930123',
      organization_ids: [org.id],
      active_tour_id: null,
      active_hailing_booking_ids: [],
      deactivated_at: null,
      created_at: t.clock.now().toISOString(),
    });
    expect((await tenant.admin.get(`/api/users/${res.body.user.id}`)).body.user).toEqual(res.body.user);
  });

  it('omits active_tour_id and active_hailing_booking_ids for non-drivers', async () => {
    for (const role of ['admin', 'manager', 'customer'] as const) {
      const { user } = await createUser(tenant.admin, { role });
      expect(user).not.toHaveProperty('active_tour_id');
      expect(user).not.toHaveProperty('active_hailing_booking_ids');
    }
  });

  it('enforces organization membership per role', async () => {
    const [a, b] = [await createOrganization(tenant.admin), await createOrganization(tenant.admin)];
    const attempt = (role: string, organization_ids: string[]) =>
      tenant.admin.post('/api/users', { user: { role, name: 'X', email: `x-${role}-${organization_ids.length}@example.com`, organization_ids } });
    const cases: [string, string[], number][] = [
      ['manager', [], 422],
      ['manager', [a.id, b.id], 201],
      ['driver', [], 422],
      ['driver', [a.id, b.id], 422],
      ['customer', [a.id], 422],
    ];
    for (const [role, orgs, status] of cases) {
      const res = await attempt(role, orgs);
      expect(res.status, `${role} in ${orgs.length}`).toBe(status);
      if (status === 422) expect(res.body.errors[0].pointer).toBe('/user/organization_ids');
    }
  });

  it('rejects organization ids that do not exist with unknown_reference and their pointer', async () => {
    const org = await createOrganization(tenant.admin);
    const res = await tenant.admin.post('/api/users', {
      user: { role: 'manager', name: 'M', email: 'm-unknown@example.com', organization_ids: [org.id, '01890000-0000-7000-8000-000000000000'] },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([expect.objectContaining({ pointer: '/user/organization_ids/1', code: 'unknown_reference' })]);
  });

  it('keeps e-mail addresses unique per tenant, ignoring case', async () => {
    await createUser(tenant.admin, { role: 'customer', email: 'same@example.com' });
    const dup = await tenant.admin.post('/api/users', { user: { role: 'customer', name: 'C', email: 'SAME@example.com' } });
    expect(dup.status).toBe(422);
    expect(dup.body.errors[0]).toMatchObject({ pointer: '/user/email', code: 'taken' });
    const other = await createUser(tenant.admin, { role: 'customer' });
    const patch = await tenant.admin.patch(`/api/users/${other.id}`, { user: { email: 'same@example.com' } });
    expect(patch.status).toBe(422);
    const elsewhere = await t.createTenant();
    expect((await elsewhere.admin.post('/api/users', { user: { role: 'customer', name: 'C', email: 'same@example.com' } })).status).toBe(201);
  });

  it('updates only the given fields and re-checks role and organizations together', async () => {
    const driver = await createUser(tenant.admin, { role: 'driver', phone_number: '+49 1' });
    const renamed = await expectOk(tenant.admin.patch(`/api/users/${driver.id}`, { user: { name: 'Renamed' } }));
    expect(renamed.user).toEqual({ ...driver.user, name: 'Renamed' });
    const cleared = await expectOk(tenant.admin.patch(`/api/users/${driver.id}`, { user: { phone_number: null } }));
    expect(cleared.user.phone_number).toBeNull();
    const toCustomer = await tenant.admin.patch(`/api/users/${driver.id}`, { user: { role: 'customer' } });
    expect(toCustomer.status).toBe(422);
    const ok = await expectOk(tenant.admin.patch(`/api/users/${driver.id}`, { user: { role: 'customer', organization_ids: [] } }));
    expect(ok.user).toMatchObject({ role: 'customer', organization_ids: [] });
    expect(ok.user).not.toHaveProperty('active_tour_id');
  });

  it('applies a role change to the next request of the user', async () => {
    const manager = await createUser(tenant.admin, { role: 'manager' });
    expect((await manager.client.get('/api/users')).status).toBe(200);
    await expectOk(tenant.admin.patch(`/api/users/${manager.id}`, { user: { role: 'customer', organization_ids: [] } }));
    expect((await manager.client.get('/api/users')).status).toBe(403);
  });

  it('deactivates a user on DELETE: its credentials stop working at once', async () => {
    const driver = await createUser(tenant.admin, { role: 'driver' });
    expect((await driver.client.get('/api/user')).status).toBe(200);
    const res = await tenant.admin.delete(`/api/users/${driver.id}`);
    expect(res.status).toBe(200);
    expect(res.body.user.deactivated_at).toBe(t.clock.now().toISOString());
    expect((await driver.client.get('/api/user')).status).toBe(401);
    expect((await tenant.admin.get(`/api/users/${driver.id}`)).body.user.deactivated_at).not.toBeNull();
    expect((await tenant.admin.delete(`/api/users/${driver.id}`)).status).toBe(200);
  });

  it('refuses to deactivate the calling admin', async () => {
    const res = await tenant.admin.delete(`/api/users/${tenant.adminUserId}`);
    expect(res.status).toBe(422);
    expect(res.body.error_code).toBe('cannot_deactivate_self');
    expect((await tenant.admin.get('/api/user')).status).toBe(200);
  });

  it('rejects bad bodies per field and writes nothing', async () => {
    const before = (await expectOk(tenant.admin.get('/api/users?limit=100'))).users.length;
    const res = await tenant.admin.post('/api/users', { user: { role: 'pilot', name: 7, email: 'not-an-email', password: 'short', extra: true } });
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: { pointer: string }) => e.pointer).sort()).toEqual(['/user/email', '/user/extra', '/user/name', '/user/password', '/user/role']);
    expect((await expectOk(tenant.admin.get('/api/users?limit=100'))).users.length).toBe(before);
  });
});

describe('users list', () => {
  let tenant: TestTenant;
  let orgA: { id: string };
  let orgB: { id: string };
  let driverOnTour: { id: string };
  let idleDriver: { id: string };
  let managerA: Awaited<ReturnType<typeof createUser>>;
  let customer: { id: string };
  let tourId: string;
  beforeAll(async () => {
    tenant = await t.createTenant();
    orgA = await createOrganization(tenant.admin);
    orgB = await createOrganization(tenant.admin);
    managerA = await createUser(tenant.admin, { role: 'manager', organization_ids: [orgA.id] });
    driverOnTour = await createUser(tenant.admin, { role: 'driver', organization_ids: [orgA.id] });
    idleDriver = await createUser(tenant.admin, { role: 'driver', organization_ids: [orgB.id] });
    customer = await createUser(tenant.admin, { role: 'customer' });
    // The tours module keeps active_tour_id: a started tour makes the driver busy.
    const service = await createService(tenant.admin);
    const booking = await createBooking(tenant.admin, { service_id: service.id });
    tourId = (await tourEnRoute(tenant.admin, [booking.id], driverOnTour.id)).id;
  });

  it('filters by role and organization', async () => {
    const drivers = await expectOk(tenant.admin.get('/api/users?filters[role]=driver'));
    expect(ids(drivers.users)).toEqual([idleDriver.id, driverOnTour.id]);
    const inA = await expectOk(tenant.admin.get(`/api/users?filters[organization_id]=${orgA.id}`));
    expect(ids(inA.users)).toEqual([driverOnTour.id, managerA.id]);
    const customers = await expectOk(tenant.admin.get('/api/users?filters[role]=customer'));
    expect(ids(customers.users)).toEqual([customer.id]);
  });

  it('filters drivers on an active tour and renders the tour id in both fields', async () => {
    const res = await tenant.admin.get('/api/users?filters[on_active_tour]=true');
    expect(ids(res.body.users)).toEqual([driverOnTour.id]);
    expect(res.body.users[0]).toMatchObject({ active_tour_id: tourId, active_hailing_booking_ids: [tourId] });
    // The current filter is not deprecated, but the page renders the deprecated active_hailing_booking_ids.
    expect(res.headers.deprecation).toMatch(/^@\d+$/);
    expect(res.headers.link).toBe('</docs/guide#active-tour-id>; rel="successor-version", </docs/guide#active-tour-id>; rel="deprecation"');
    const idle = await expectOk(tenant.admin.get('/api/users?filters[on_active_tour]=false'));
    expect(ids(idle.users)).toEqual([idleDriver.id]);
  });

  it('treats filters[on_active_hailing_booking] as the deprecated alias, with deprecation headers', async () => {
    for (const value of ['true', 'false']) {
      const alias = await tenant.admin.get(`/api/users?filters[on_active_hailing_booking]=${value}`);
      const current = await tenant.admin.get(`/api/users?filters[on_active_tour]=${value}`);
      expect(alias.status).toBe(200);
      expect(alias.body).toEqual(current.body);
      expect(alias.headers.deprecation).toMatch(/^@\d+$/);
      expect(alias.headers.link).toContain('rel="successor-version"');
    }
    const contradiction = await tenant.admin.get('/api/users?filters[on_active_hailing_booking]=true&filters[on_active_tour]=false');
    expect(contradiction.status).toBe(400);
  });

  it('answers 400 for unknown filters and non-boolean booleans', async () => {
    expect((await tenant.admin.get('/api/users?filters[team]=x')).body.error_code).toBe('parameter_unknown');
    expect((await tenant.admin.get('/api/users?filters[on_active_tour]=yes')).status).toBe(400);
    expect((await tenant.admin.get('/api/users?filters[role]=pilot')).status).toBe(400);
  });

  it('pages with a cursor and a Link header', async () => {
    const first = await tenant.admin.get('/api/users?limit=2');
    expect(first.body.users).toHaveLength(2);
    expect(first.body.meta.has_more).toBe(true);
    expect(first.headers.link).toContain(`cursor=${first.body.meta.next_cursor}`);
    const all = await expectOk(tenant.admin.get('/api/users?limit=100'));
    const second = await expectOk(tenant.admin.get(`/api/users?limit=2&cursor=${first.body.meta.next_cursor}`));
    expect(ids(second.users)).toEqual(ids(all.users).slice(2, 4));
  });

  it('shows a manager the users of its organizations only, read-only', async () => {
    const list = await expectOk(managerA.client.get('/api/users'));
    expect(ids(list.users)).toEqual([driverOnTour.id, managerA.id]);
    expect((await managerA.client.get(`/api/users/${driverOnTour.id}`)).status).toBe(200);
    expect((await managerA.client.get(`/api/users/${idleDriver.id}`)).status).toBe(404);
    expect((await managerA.client.post('/api/users', { user: { role: 'customer', name: 'c', email: 'c@x.com' } })).status).toBe(403);
    expect((await managerA.client.patch(`/api/users/${driverOnTour.id}`, { user: { name: 'x' } })).status).toBe(403);
    expect((await managerA.client.delete(`/api/users/${driverOnTour.id}`)).status).toBe(403);
  });

  it('refuses drivers and customers the user list', async () => {
    // A tenant of its own: users added to the shared tenant would change the exact lists the filter tests expect.
    const own = await t.createTenant();
    const driver = withToken(own.admin, (await createUser(own.admin, { role: 'driver' })).token);
    expect((await driver.get('/api/users')).status).toBe(403);
    const cust = await createUser(own.admin, { role: 'customer' });
    expect((await cust.client.get(`/api/users/${cust.id}`)).status).toBe(403);
  });

  it("answers 404 for another tenant's users and never lists them", async () => {
    const other = await t.createTenant();
    expect((await other.admin.get(`/api/users/${driverOnTour.id}`)).status).toBe(404);
    expect((await other.admin.patch(`/api/users/${driverOnTour.id}`, { user: { name: 'x' } })).status).toBe(404);
    expect((await other.admin.delete(`/api/users/${driverOnTour.id}`)).status).toBe(404);
    expect(ids((await expectOk(other.admin.get('/api/users'))).users)).toEqual([other.adminUserId]);
    const res = await other.admin.post('/api/users', { user: { role: 'driver', name: 'd', email: 'd@x.com', organization_ids: [orgA.id] } });
    expect(res.status).toBe(422);
    expect(res.body.errors[0].code).toBe('unknown_reference');
  });
});
