import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../app.ts';
import { createUser } from '../factories.ts';
import { buildProbe, type Probe } from './probe.ts';

let t: TestApp;
let probe: Probe;
beforeAll(async () => {
  t = await buildTestApp();
  probe = await buildProbe(t);
});
afterAll(async () => {
  await probe.app.close();
  await t.close();
});
// Tests move the shared clock to removal dates: each starts from the same instant, whatever ran before it.
let start: Date;
beforeEach(() => {
  start = t.clock.now();
});
afterEach(() => t.clock.set(start));

const REMOVAL = Date.parse('2026-09-16T00:00:00Z'); // hailing_failure_reasons, the route the probe marks deprecated

describe('removed routes', () => {
  it.each([
    ['GET', '/api/fleet/vehicles'],
    ['POST', '/api/fleet/vehicles/abc/lock'],
    ['DELETE', '/api/vehicles/123'],
    ['PATCH', '/api/vehicles'],
    ['PUT', '/api/admin/fleet/damage_reports/1'],
    ['GET', '/api/admin/fleet'],
    ['PUT', '/api/hailing_bookings/0190b6c8-0000-7000-8000-000000000000/preferred_drivers'],
  ])('%s %s answers 404 removed, without a credential and with one', async (method, url) => {
    const tenant = await t.createTenant();
    for (const client of [t.anonymous, tenant.admin]) {
      const res = await client.request(method, url, method === 'GET' || method === 'DELETE' ? undefined : { anything: true });
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
      expect(res.body.error_code).toBe('removed');
      expect(res.body).toHaveProperty('removed_on');
      expect(res.body).toHaveProperty('successor');
    }
  });

  it('names the removal date of fleet management and the successor of the preferred-drivers route', async () => {
    const fleet = await t.anonymous.get('/api/fleet/vehicles?page=2');
    expect(fleet.body).toMatchObject({ removed_on: '2026-05-27', successor: null });
    const preferred = await t.anonymous.put('/api/hailing_bookings/x/preferred_drivers', 'not even json', { raw: '{bad' });
    expect(preferred.status).toBe(404);
    expect(preferred.body).toMatchObject({ error_code: 'removed', successor: '/api/bookings/{id}/preferred_drivers' });
  });
});

describe('deprecated routes and enforce_sunsets', () => {
  it('serves a deprecated route with Deprecation, Sunset and successor Link headers', async () => {
    const tenant = await t.createTenant();
    const res = await probe.request('GET', '/api/probe/deprecated', tenant.adminToken);
    expect(res.status).toBe(200);
    expect(res.headers.deprecation).toMatch(/^@\d+$/);
    expect(res.headers.sunset).toBe('Wed, 16 Sep 2026 00:00:00 GMT');
    expect(res.headers.link).toBe('</docs/guide#package-failure-reasons>; rel="successor-version", </docs/guide#package-failure-reasons>; rel="deprecation"');
  });

  it('keeps serving past the removal date for tenants that do not enforce sunsets', async () => {
    const tenant = await t.createTenant();
    t.clock.set(new Date(REMOVAL + 86_400_000));
    expect((await probe.request('GET', '/api/probe/deprecated', tenant.adminToken)).status).toBe(200);
  });

  it('answers 404 removed from the removal day on, and not a millisecond before, once the tenant enforces sunsets', async () => {
    const tenant = await t.createTenant();
    const patched = await tenant.admin.patch('/api/admin/tenant', { tenant: { settings: { enforce_sunsets: true } } });
    expect(patched.body.tenant.settings).toEqual({ enforce_sunsets: true });

    t.clock.set(new Date(REMOVAL - 1));
    expect((await probe.request('GET', '/api/probe/deprecated', tenant.adminToken)).status).toBe(200);

    t.clock.set(new Date(REMOVAL));
    const gone = await probe.request('GET', '/api/probe/deprecated', tenant.adminToken);
    expect(gone.status).toBe(404);
    expect(gone.body).toMatchObject({ error_code: 'removed', removed_on: '2026-09-16', successor: '/api/reasons/package_failure' });

    await tenant.admin.patch('/api/admin/tenant', { tenant: { settings: { enforce_sunsets: false } } });
    expect((await probe.request('GET', '/api/probe/deprecated', tenant.adminToken)).status).toBe(200);
  });
});

describe('sunsets of real routes and fields', () => {
  const dayOf = (day: string) => Date.parse(`${day}T00:00:00Z`);

  it('serves GET /api/hailing/failure_reasons until 2026-09-16 and removes it from that day for enforcing tenants', async () => {
    // The route must exist: a route that disappears fails here instead of passing silently.
    expect(t.app.routeTable.some((r) => r.url === '/api/hailing/failure_reasons')).toBe(true);
    const tenant = await t.createTenant();
    await tenant.admin.patch('/api/admin/tenant', { tenant: { settings: { enforce_sunsets: true } } });
    t.clock.set(new Date(dayOf('2026-09-16') - 1));
    const served = await tenant.admin.get('/api/hailing/failure_reasons');
    expect(served.status).toBe(200);
    expect(served.headers.sunset).toBe('Wed, 16 Sep 2026 00:00:00 GMT');
    t.clock.set(new Date(dayOf('2026-09-16')));
    const gone = await tenant.admin.get('/api/hailing/failure_reasons');
    expect(gone.status).toBe(404);
    expect(gone.body).toMatchObject({ error_code: 'removed', removed_on: '2026-09-16' });
  });

  it('renders admin.places on permissions until 2026-09-30 and omits it from that day for enforcing tenants', async () => {
    // The route must exist: a route that disappears fails here instead of passing silently.
    expect(t.app.routeTable.some((r) => r.url === '/api/user/permissions')).toBe(true);
    const tenant = await t.createTenant();
    await tenant.admin.patch('/api/admin/tenant', { tenant: { settings: { enforce_sunsets: true } } });
    t.clock.set(new Date(dayOf('2026-09-30') - 1));
    const served = await tenant.admin.get('/api/user/permissions?view=detailed');
    expect(served.body.permissions.admin.places).toBeTruthy();
    expect(served.headers.deprecation).toMatch(/^@\d+$/);
    t.clock.set(new Date(dayOf('2026-09-30')));
    const gone = await tenant.admin.get('/api/user/permissions?view=detailed');
    expect(gone.body.permissions).not.toHaveProperty('admin');
    expect(gone.headers.deprecation).toBeUndefined();
  });
});

describe('deprecated query aliases', () => {
  it('answers filters[on_active_hailing_booking] like filters[on_active_tour], with deprecation headers', async () => {
    // The route must exist: a route that disappears fails here instead of passing silently.
    expect(t.app.routeTable.some((r) => r.url === '/api/users')).toBe(true);
    const tenant = await t.createTenant();
    const current = await tenant.admin.get('/api/users?filters[on_active_tour]=false');
    const alias = await tenant.admin.get('/api/users?filters[on_active_hailing_booking]=false');
    expect(alias.status).toBe(200);
    expect(alias.body.users).toEqual(current.body.users);
    expect(current.headers.deprecation).toBeUndefined();
    expect(alias.headers.deprecation).toMatch(/^@\d+$/);
    expect(alias.headers.link).toBe('</docs/guide#filters-on-active-tour>; rel="successor-version", </docs/guide#filters-on-active-tour>; rel="deprecation"');
    expect(alias.headers.sunset).toBeUndefined();
  });
});

describe('deprecation headers on lists and users', () => {
  it('sends both rel="next" and rel="successor-version" on a page that has a next cursor', async () => {
    const tenant = await t.createTenant();
    await createUser(tenant.admin, { role: 'driver' });
    await createUser(tenant.admin, { role: 'driver' });
    const page = await tenant.admin.get('/api/users?filters[on_active_hailing_booking]=false&limit=1');
    expect(page.status).toBe(200);
    expect(page.body.meta.next_cursor).toBeTruthy();
    const links = String(page.headers.link).split(/,\s*(?=<)/);
    expect(links).toContain('</docs/guide#filters-on-active-tour>; rel="successor-version"');
    expect(links).toContain('</docs/guide#filters-on-active-tour>; rel="deprecation"');
    expect(links.find((link) => link.endsWith('rel="next"'))).toMatch(/^<\/api\/users\?.*cursor=/);
  });

  it('announces the deprecated active_hailing_booking_ids on every response that renders it, and only there', async () => {
    const tenant = await t.createTenant();
    const driver = await createUser(tenant.admin, { role: 'driver' });
    for (const res of [await tenant.admin.get(`/api/users/${driver.id}`), await driver.client.get('/api/user'), await tenant.admin.get('/api/users')]) {
      expect(JSON.stringify(res.body)).toContain('active_hailing_booking_ids');
      expect(res.headers.deprecation).toMatch(/^@\d+$/);
      expect(res.headers.link).toContain('</docs/guide#active-tour-id>; rel="successor-version"');
    }
    const admin = await tenant.admin.get('/api/user');
    expect(admin.body.user).not.toHaveProperty('active_hailing_booking_ids');
    expect(admin.headers.deprecation).toBeUndefined();
  });
});
