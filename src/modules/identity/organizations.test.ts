import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { buildTestApp, type TestApp, type TestTenant } from '../../../test/app.ts';
import { createOrganization, createSchedulingConfig, createServiceArea, createUser, expectOk } from '../../../test/factories.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

const MISSING = '01890000-0000-7000-8000-000000000000';
const square = { type: 'Polygon', coordinates: [[[13.3, 52.4], [13.5, 52.4], [13.5, 52.6], [13.3, 52.6], [13.3, 52.4]]] };

describe('service areas', () => {
  let tenant: TestTenant;
  beforeAll(async () => {
    tenant = await t.createTenant();
  });

  it('creates a service area with its currency, time zone and boundary', async () => {
    const config = await createSchedulingConfig(tenant.admin);
    const res = await tenant.admin.post('/api/admin/service_areas', {
      service_area: { name: 'Berlin', currency: 'EUR', time_zone: 'Europe/Berlin', boundary: square, scheduling_config_id: config.id, average_speed_kmh: 25 },
    });
    expect(res.status).toBe(201);
    expect(res.body.service_area).toEqual({
      id: expect.any(String),
      name: 'Berlin',
      currency: 'EUR',
      time_zone: 'Europe/Berlin',
      boundary: square,
      scheduling_config_id: config.id,
      average_speed_kmh: 25,
      auto_dispatch: { enabled: false, budget_ms: 200 },
      created_at: t.clock.now().toISOString(),
      recipient_notifications: [],
      recipient_approaching_minutes: 10,
      // No country unless given: phone numbers then need their "+…" (contract §14).
      country_code: null,
      // No SMS quiet hours unless set (decision 1772).
      sms_quiet_hours: null,
      recipient_reschedule_days: 0,
    });
    expect((await tenant.admin.get(`/api/admin/service_areas/${res.body.service_area.id}`)).body.service_area).toEqual(res.body.service_area);
  });

  it('defaults boundary and scheduling config to null and speed to 30 km/h', async () => {
    const area = await createServiceArea(tenant.admin);
    expect(area).toMatchObject({ boundary: null, scheduling_config_id: null, average_speed_kmh: 30 });
  });

  it('rejects invalid currencies, time zones and polygons with a pointer each', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ currency: 'eur' }, '/service_area/currency'],
      [{ currency: 'ABC' }, '/service_area/currency'],
      [{ time_zone: 'Europe/Atlantis' }, '/service_area/time_zone'],
      [{ boundary: { type: 'Point', coordinates: [13, 52] } }, '/service_area/boundary/type'],
      [{ boundary: { type: 'Polygon', coordinates: [[[0, 0], [1, 0], [1, 1], [0, 1]]] } }, '/service_area/boundary/coordinates/0'],
      [{ boundary: { type: 'Polygon', coordinates: [[[0, 0], [1, 0], [1, 1]]] } }, '/service_area/boundary/coordinates/0'],
      [{ scheduling_config_id: MISSING }, '/service_area/scheduling_config_id'],
    ];
    for (const [override, pointer] of cases) {
      const res = await tenant.admin.post('/api/admin/service_areas', { service_area: { name: 'X', currency: 'EUR', time_zone: 'UTC', ...override } });
      expect(res.status, JSON.stringify(override)).toBe(422);
      expect(res.body.errors.map((e: { pointer: string }) => e.pointer), JSON.stringify(override)).toContain(pointer);
    }
  });

  it('updates only the given fields and clears the boundary with null', async () => {
    const area = await createServiceArea(tenant.admin, { boundary: square });
    const res = await tenant.admin.patch(`/api/admin/service_areas/${area.id}`, { service_area: { boundary: null, time_zone: 'america/new_york', currency: 'USD' } });
    expect(res.status).toBe(200);
    expect(res.body.service_area).toEqual({ ...area, boundary: null, time_zone: 'America/New_York', currency: 'USD' });
    const bad = await tenant.admin.patch(`/api/admin/service_areas/${area.id}`, { service_area: { time_zone: 'Nowhere/Land' } });
    expect(bad.status).toBe(422);
  });

  it('lists service areas with pagination; managers read them (time zones, currencies) and change nothing', async () => {
    const own = await t.createTenant();
    const a = await createServiceArea(own.admin);
    const b = await createServiceArea(own.admin);
    const page = await expectOk(own.admin.get('/api/admin/service_areas?limit=1'));
    expect(page.service_areas.map((s: { id: string }) => s.id)).toEqual([b.id]);
    const next = await expectOk(own.admin.get(`/api/admin/service_areas?limit=1&cursor=${page.meta.next_cursor}`));
    expect(next.service_areas.map((s: { id: string }) => s.id)).toEqual([a.id]);
    const manager = await createUser(own.admin, { role: 'manager' });
    const read = await expectOk(manager.client.get('/api/admin/service_areas?limit=10'));
    expect(read.service_areas.map((s: { id: string }) => s.id)).toEqual([b.id, a.id]);
    expect((await expectOk(manager.client.get(`/api/admin/service_areas/${a.id}`))).service_area.time_zone).toBe('Europe/Berlin');
    expect((await manager.client.post('/api/admin/service_areas', { service_area: { name: 'x', currency: 'EUR', time_zone: 'UTC' } })).status).toBe(403);
    expect((await manager.client.patch(`/api/admin/service_areas/${a.id}`, { service_area: { name: 'x' } })).status).toBe(403);
    const driver = await createUser(own.admin, { role: 'driver' });
    expect((await driver.client.get('/api/admin/service_areas')).status).toBe(403);
  });

  it("answers 404 for another tenant's service area", async () => {
    const area = await createServiceArea(tenant.admin);
    const other = await t.createTenant();
    expect((await other.admin.get(`/api/admin/service_areas/${area.id}`)).status).toBe(404);
    expect((await other.admin.patch(`/api/admin/service_areas/${area.id}`, { service_area: { name: 'x' } })).status).toBe(404);
  });
});

describe('organizations', () => {
  let tenant: TestTenant;
  beforeAll(async () => {
    tenant = await t.createTenant();
  });

  it('creates, shows and updates an organization with its service areas', async () => {
    const area = await createServiceArea(tenant.admin);
    const res = await tenant.admin.post('/api/organizations', { organization: { name: 'Couriers North', service_area_ids: [area.id] } });
    expect(res.status).toBe(201);
    expect(res.body.organization).toEqual({ id: expect.any(String), name: 'Couriers North', service_area_ids: [area.id], created_at: t.clock.now().toISOString() });
    const id = res.body.organization.id;
    expect((await tenant.admin.get(`/api/organizations/${id}`)).body.organization).toEqual(res.body.organization);
    const renamed = await expectOk(tenant.admin.patch(`/api/organizations/${id}`, { organization: { name: 'Couriers South' } }));
    expect(renamed.organization).toEqual({ ...res.body.organization, name: 'Couriers South' });
    const cleared = await expectOk(tenant.admin.patch(`/api/organizations/${id}`, { organization: { service_area_ids: [] } }));
    expect(cleared.organization.service_area_ids).toEqual([]);
  });

  it('rejects service area ids that do not exist', async () => {
    const area = await createServiceArea(tenant.admin);
    const res = await tenant.admin.post('/api/organizations', { organization: { name: 'X', service_area_ids: [area.id, MISSING] } });
    expect(res.status).toBe(422);
    expect(res.body.errors[0]).toMatchObject({ pointer: '/organization/service_area_ids/1', code: 'unknown_reference' });
  });

  it('shows managers their own organizations only, read-only; drivers and customers none', async () => {
    const mine = await createOrganization(tenant.admin);
    const theirs = await createOrganization(tenant.admin);
    const manager = await createUser(tenant.admin, { role: 'manager', organization_ids: [mine.id] });
    const list = await expectOk(manager.client.get('/api/organizations'));
    expect(list.organizations.map((o: { id: string }) => o.id)).toEqual([mine.id]);
    expect((await manager.client.get(`/api/organizations/${mine.id}`)).status).toBe(200);
    expect((await manager.client.get(`/api/organizations/${theirs.id}`)).status).toBe(404);
    expect((await manager.client.patch(`/api/organizations/${mine.id}`, { organization: { name: 'x' } })).status).toBe(403);
    expect((await manager.client.post('/api/organizations', { organization: { name: 'x' } })).status).toBe(403);
    const driver = await createUser(tenant.admin, { role: 'driver', organization_ids: [mine.id] });
    expect((await driver.client.get('/api/organizations')).status).toBe(403);
  });

  it("answers 404 for another tenant's organization", async () => {
    const org = await createOrganization(tenant.admin);
    const other = await t.createTenant();
    expect((await other.admin.get(`/api/organizations/${org.id}`)).status).toBe(404);
    expect((await other.admin.patch(`/api/organizations/${org.id}`, { organization: { name: 'x' } })).status).toBe(404);
    expect((await expectOk(other.admin.get('/api/organizations'))).organizations).toEqual([]);
  });
});

describe('GET /api/user/permissions', () => {
  const detailed = {
    admin: { index: true, show: true, create: true, update: true, destroy: true, fork: true, metadata: true },
    manager: { index: true, show: true, create: true, update: true, destroy: false, fork: true, metadata: true },
    customer: { index: true, show: true, create: true, update: true, destroy: false, fork: true, metadata: false },
    driver: { index: true, show: true, create: false, update: false, destroy: false, fork: false, metadata: false },
  };

  it('answers places as a boolean by default and per action with view=detailed, for every role', async () => {
    const tenant = await t.createTenant();
    for (const role of ['admin', 'manager', 'customer', 'driver'] as const) {
      const user = role === 'admin' ? { client: tenant.admin } : await createUser(tenant.admin, { role });
      const standard = await user.client.get('/api/user/permissions');
      expect(standard.status).toBe(200);
      expect(standard.body.permissions.places, role).toBe(true);
      expect(standard.body.permissions.admin.places, role).toEqual(detailed[role]);
      const full = await expectOk(user.client.get('/api/user/permissions?view=detailed'));
      expect(full.permissions.places, role).toEqual(detailed[role]);
      expect(full.permissions.admin.places, role).toEqual(detailed[role]);
    }
  });

  it('marks the deprecated admin.places with Deprecation, Sunset and Link headers', async () => {
    const tenant = await t.createTenant();
    const res = await tenant.admin.get('/api/user/permissions');
    expect(res.headers.deprecation).toMatch(/^@\d+$/);
    expect(res.headers.sunset).toBe('Wed, 30 Sep 2026 00:00:00 GMT');
    expect(res.headers.link).toContain('rel="successor-version"');
    expect((await tenant.admin.get('/api/user/permissions?view=compact')).status).toBe(400);
  });

  it('omits admin.places once its sunset has passed and the tenant enforces sunsets', async () => {
    const tenant = await t.createTenant();
    await expectOk(tenant.admin.patch('/api/admin/tenant', { tenant: { settings: { enforce_sunsets: true } } }));
    // The clock is shared by the file's tests: put it back whatever happens here (found with --sequence.shuffle).
    const start = t.clock.now();
    onTestFinished(() => t.clock.set(start));
    t.clock.set('2026-09-29T23:59:59Z');
    const before = await expectOk(tenant.admin.get('/api/user/permissions'));
    expect(before.permissions.admin).toBeDefined();
    t.clock.set('2026-09-30T00:00:00Z');
    const after = await tenant.admin.get('/api/user/permissions');
    expect(after.body.permissions).toEqual({ places: true });
    expect(after.headers.deprecation).toBeUndefined();
    const other = await t.createTenant();
    expect((await expectOk(other.admin.get('/api/user/permissions'))).permissions.admin).toBeDefined();
  });
});
