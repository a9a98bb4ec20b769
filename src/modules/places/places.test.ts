import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestTenant } from '../../../test/app.ts';
import { createPlace, createServiceArea, createUser, expectOk, type CreatedUser } from '../../../test/factories.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

const placeBody = (overrides: Record<string, unknown> = {}) => ({
  place: {
    name: 'Depot North',
    location: { lat: 52.53, lng: 13.38 },
    address: { street: 'Chausseestraße', number: '10', zip_code: '10115', city: 'Berlin', country: 'DE' },
    ...overrides,
  },
});

describe('places CRUD', () => {
  let tenant: TestTenant;
  beforeAll(async () => {
    tenant = await t.createTenant();
  });

  it('creates a place with defaults and shows it', async () => {
    const area = await createServiceArea(tenant.admin);
    const created = await tenant.admin.post('/api/places', placeBody({ service_area_id: area.id, contact: { name: 'Gate' } }));
    expect(created.status).toBe(201);
    expect(created.body.place).toMatchObject({
      name: 'Depot North',
      is_hub: false,
      location: { lat: 52.53, lng: 13.38 },
      address: { street: 'Chausseestraße', number: '10', zip_code: '10115', city: 'Berlin', country: 'DE', additional_line: null },
      contact: { name: 'Gate', phone_number: null, email: null },
      service_area_id: area.id,
      customer_id: null,
      metadata: {},
      created_at: t.clock.now().toISOString(),
    });
    const shown = await tenant.admin.get(`/api/places/${created.body.place.id}`);
    expect(shown.status).toBe(200);
    expect(shown.body.place).toEqual(created.body.place);
  });

  it('updates only the given fields and clears a nullable one with null', async () => {
    const area = await createServiceArea(tenant.admin);
    const place = await createPlace(tenant.admin, { service_area_id: area.id, metadata: { dock: 3 } });
    const res = await tenant.admin.patch(`/api/places/${place.id}`, { place: { name: 'Renamed', is_hub: true, service_area_id: null } });
    expect(res.status).toBe(200);
    expect(res.body.place).toMatchObject({ name: 'Renamed', is_hub: true, service_area_id: null, metadata: { dock: 3 }, location: place.location });
  });

  it('replaces the metadata with PUT /metadata', async () => {
    const place = await createPlace(tenant.admin, { metadata: { a: 1, b: 2 } });
    const res = await tenant.admin.put(`/api/places/${place.id}/metadata`, { metadata: { c: 'x' } });
    expect(res.status).toBe(200);
    expect(res.body.place.metadata).toEqual({ c: 'x' });
    expect((await tenant.admin.get(`/api/places/${place.id}`)).body.place.metadata).toEqual({ c: 'x' });
  });

  it('refuses a stray body on fork and creates nothing', async () => {
    const place = await createPlace(tenant.admin, {});
    const before = (await expectOk(tenant.admin.get('/api/places?limit=100'))).places.length;
    const res = await tenant.admin.post(`/api/places/${place.id}/fork`, { name: 'Other' });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ error_code: 'validation_failed', errors: [{ pointer: '/name', code: 'unknown_field' }] });
    expect((await expectOk(tenant.admin.get('/api/places?limit=100'))).places).toHaveLength(before);
  });

  it('forks a place into a new place with the same fields', async () => {
    const place = await createPlace(tenant.admin, { is_hub: true, metadata: { k: 'v' } });
    t.clock.advanceSeconds(60);
    const res = await tenant.admin.post(`/api/places/${place.id}/fork`);
    expect(res.status).toBe(201);
    const { id, created_at, ...rest } = res.body.place;
    const { id: originalId, created_at: originalCreatedAt, ...original } = place;
    expect(id).not.toBe(originalId);
    expect(created_at).not.toBe(originalCreatedAt);
    expect(rest).toEqual(original);
    expect((await tenant.admin.get(`/api/places/${place.id}`)).status).toBe(200);
  });

  it('deletes a place; it is gone afterwards', async () => {
    const place = await createPlace(tenant.admin);
    const res = await tenant.admin.delete(`/api/places/${place.id}`);
    expect(res.status).toBe(204);
    expect((await tenant.admin.get(`/api/places/${place.id}`)).status).toBe(404);
    expect((await tenant.admin.delete(`/api/places/${place.id}`)).status).toBe(404);
  });

  it('rejects a service area or customer that does not exist with 422 unknown_reference', async () => {
    const area = await tenant.admin.post('/api/places', placeBody({ service_area_id: '01890000-0000-7000-8000-000000000000' }));
    expect(area.status).toBe(422);
    expect(area.body.errors).toEqual([expect.objectContaining({ pointer: '/place/service_area_id', code: 'unknown_reference' })]);
    const driver = await createUser(tenant.admin, { role: 'driver' });
    const notCustomer = await tenant.admin.post('/api/places', placeBody({ customer_id: driver.id }));
    expect(notCustomer.status).toBe(422);
    expect(notCustomer.body.errors[0]).toMatchObject({ pointer: '/place/customer_id', code: 'unknown_reference' });
  });

  it('rejects bad input with 422 per field and writes nothing', async () => {
    const before = (await tenant.admin.get('/api/places?limit=100')).body.places.length;
    const res = await tenant.admin.post('/api/places', {
      place: { name: '', location: { lat: 91, lng: 'east' }, address: { city: 'Berlin' }, colour: 'red' },
    });
    expect(res.status).toBe(422);
    const pointers = res.body.errors.map((e: { pointer: string }) => e.pointer).sort();
    expect(pointers).toEqual(['/place/address/street', '/place/colour', '/place/location/lat', '/place/location/lng', '/place/name']);
    expect((await tenant.admin.get('/api/places?limit=100')).body.places.length).toBe(before);
  });
});

describe('places list', () => {
  it('filters by service area, hub and customer and pages newest first with a cursor', async () => {
    const tenant = await t.createTenant();
    const area = await createServiceArea(tenant.admin);
    const customer = await createUser(tenant.admin, { role: 'customer' });
    const hub = await createPlace(tenant.admin, { service_area_id: area.id, is_hub: true });
    const inArea = await createPlace(tenant.admin, { service_area_id: area.id });
    const owned = await createPlace(tenant.admin, { customer_id: customer.id });
    const other = await createPlace(tenant.admin);

    const ids = async (query: string) => (await expectOk(tenant.admin.get(`/api/places${query}`))).places.map((p: { id: string }) => p.id);
    expect(await ids('')).toEqual([other.id, owned.id, inArea.id, hub.id]);
    expect(await ids(`?filters[service_area_id]=${area.id}`)).toEqual([inArea.id, hub.id]);
    expect(await ids(`?filters[service_area_id]=${area.id}&filters[is_hub]=true`)).toEqual([hub.id]);
    expect(await ids(`?filters[is_hub]=false`)).toEqual([other.id, owned.id, inArea.id]);
    expect(await ids(`?filters[customer_id]=${customer.id}`)).toEqual([owned.id]);

    const first = await tenant.admin.get('/api/places?limit=3');
    expect(first.body.meta.has_more).toBe(true);
    expect(first.headers.link).toContain('rel="next"');
    const second = await tenant.admin.get(`/api/places?limit=3&cursor=${first.body.meta.next_cursor}`);
    expect(second.body.places.map((p: { id: string }) => p.id)).toEqual([hub.id]);
    expect(second.body.meta).toEqual({ next_cursor: null, has_more: false });
  });

  it('answers 400 for an unknown filter or a bad cursor', async () => {
    const tenant = await t.createTenant();
    const unknown = await tenant.admin.get('/api/places?filters[colour]=red');
    expect(unknown.status).toBe(400);
    expect(unknown.body.error_code).toBe('parameter_unknown');
    const badCursor = await tenant.admin.get('/api/places?cursor=nonsense');
    expect(badCursor.status).toBe(400);
    expect(badCursor.body.error_code).toBe('parameter_invalid');
    const badBool = await tenant.admin.get('/api/places?filters[is_hub]=yes');
    expect(badBool.status).toBe(400);
  });
});

describe('places permission matrix', () => {
  let tenant: TestTenant;
  let manager: CreatedUser;
  let driver: CreatedUser;
  let customer: CreatedUser;
  let otherCustomer: CreatedUser;
  beforeAll(async () => {
    tenant = await t.createTenant();
    manager = await createUser(tenant.admin, { role: 'manager' });
    driver = await createUser(tenant.admin, { role: 'driver' });
    customer = await createUser(tenant.admin, { role: 'customer' });
    otherCustomer = await createUser(tenant.admin, { role: 'customer' });
  });

  it('lets a manager do everything but delete', async () => {
    const place = await createPlace(manager.client);
    expect((await manager.client.patch(`/api/places/${place.id}`, { place: { name: 'M' } })).status).toBe(200);
    expect((await manager.client.put(`/api/places/${place.id}/metadata`, { metadata: { m: 1 } })).status).toBe(200);
    expect((await manager.client.post(`/api/places/${place.id}/fork`)).status).toBe(201);
    const destroy = await manager.client.delete(`/api/places/${place.id}`);
    expect(destroy.status).toBe(403);
    expect(destroy.body.error_code).toBe('forbidden');
  });

  it('lets a driver list and show places only', async () => {
    const place = await createPlace(tenant.admin);
    expect((await driver.client.get('/api/places')).status).toBe(200);
    expect((await driver.client.get(`/api/places/${place.id}`)).status).toBe(200);
    expect((await driver.client.post('/api/places', placeBody())).status).toBe(403);
    expect((await driver.client.patch(`/api/places/${place.id}`, { place: { name: 'D' } })).status).toBe(403);
    expect((await driver.client.post(`/api/places/${place.id}/fork`)).status).toBe(403);
    expect((await driver.client.put(`/api/places/${place.id}/metadata`, { metadata: {} })).status).toBe(403);
    expect((await driver.client.delete(`/api/places/${place.id}`)).status).toBe(403);
  });

  it('gives a customer its own places only, owned by itself', async () => {
    const own = await createPlace(customer.client);
    expect(own.customer_id).toBe(customer.id);
    const foreign = await createPlace(otherCustomer.client);
    const tenantPlace = await createPlace(tenant.admin);

    const list = await expectOk(customer.client.get('/api/places'));
    expect(list.places.map((p: { id: string }) => p.id)).toEqual([own.id]);
    expect((await expectOk(customer.client.get(`/api/places?filters[customer_id]=${otherCustomer.id}`))).places).toEqual([]);
    for (const id of [foreign.id, tenantPlace.id]) {
      expect((await customer.client.get(`/api/places/${id}`)).status).toBe(404);
      expect((await customer.client.patch(`/api/places/${id}`, { place: { name: 'x' } })).status).toBe(404);
      expect((await customer.client.post(`/api/places/${id}/fork`)).status).toBe(404);
    }
    expect((await customer.client.patch(`/api/places/${own.id}`, { place: { name: 'Home' } })).body.place.name).toBe('Home');
    const fork = await customer.client.post(`/api/places/${own.id}/fork`);
    expect(fork.status).toBe(201);
    expect(fork.body.place.customer_id).toBe(customer.id);
    expect((await customer.client.put(`/api/places/${own.id}/metadata`, { metadata: {} })).status).toBe(403);
    expect((await customer.client.delete(`/api/places/${own.id}`)).status).toBe(403);
  });

  it('refuses a customer naming another customer as owner', async () => {
    const res = await customer.client.post('/api/places', placeBody({ customer_id: otherCustomer.id }));
    expect(res.status).toBe(422);
    expect(res.body.errors[0]).toMatchObject({ pointer: '/place/customer_id', code: 'unknown_reference' });
  });
});

describe('places bad input', () => {
  it('answers 404 for a malformed id, 422 for huge strings and wrong types, 400 for bad query values; never 500, nothing written', async () => {
    const tenant = await t.createTenant();
    expect((await tenant.admin.get('/api/places/not-a-uuid')).status).toBe(404);
    expect((await tenant.admin.patch('/api/places/123', { place: { name: 'x' } })).status).toBe(404);
    const bodies: unknown[] = [
      placeBody({ name: 'x'.repeat(100_000) }),
      placeBody({ is_hub: 'yes' }),
      placeBody({ metadata: 'not an object' }),
      placeBody({ location: null }),
      { place: null },
      { places: placeBody().place },
      [],
      'just a string',
    ];
    for (const body of bodies) {
      const res = await tenant.admin.post('/api/places', body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(422);
      expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    }
    const malformed = await tenant.admin.post('/api/places', undefined, { raw: '{"place": ', headers: { 'content-type': 'application/json' } });
    expect(malformed.status).toBe(400);
    expect((await tenant.admin.get('/api/places?limit=0')).status).toBe(400);
    expect((await tenant.admin.get('/api/places?filters[service_area_id]=nope')).status).toBe(400);
    expect((await expectOk(tenant.admin.get('/api/places'))).places).toEqual([]);
  });

  it('documents the places routes in the OpenAPI document', async () => {
    const doc = await expectOk(t.anonymous.get('/openapi.json'));
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/places', '/api/places/{id}', '/api/places/{id}/fork', '/api/places/{id}/metadata']));
  });
});

describe('places tenant isolation', () => {
  it("answers 404 for another tenant's place on every route", async () => {
    const a = await t.createTenant();
    const b = await t.createTenant();
    const place = await createPlace(a.admin);
    expect((await b.admin.get(`/api/places/${place.id}`)).status).toBe(404);
    expect((await b.admin.patch(`/api/places/${place.id}`, { place: { name: 'x' } })).status).toBe(404);
    expect((await b.admin.put(`/api/places/${place.id}/metadata`, { metadata: {} })).status).toBe(404);
    expect((await b.admin.post(`/api/places/${place.id}/fork`)).status).toBe(404);
    expect((await b.admin.delete(`/api/places/${place.id}`)).status).toBe(404);
    expect((await expectOk(b.admin.get('/api/places'))).places).toEqual([]);
    const areaOfA = await createServiceArea(a.admin);
    const res = await b.admin.post('/api/places', placeBody({ service_area_id: areaOfA.id }));
    expect(res.status).toBe(422);
  });
});
