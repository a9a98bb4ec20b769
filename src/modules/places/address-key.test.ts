// Place de-duplication by normalized address (contract §14, decision 1505): POST/PATCH → 409 place_exists naming the
// place; per customer scope; findOrCreatePlaceByAddress returns one place per address.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestTenant } from '../../../test/app.ts';
import { createPlace, createUser, expectOk } from '../../../test/factories.ts';
import { findOrCreatePlaceByAddress } from './index.ts';

const address = (street: string, number: string) => ({ street, number, zip_code: '98000', city: 'Monaco', country: 'MC' });
const place = (name: string, addr: ReturnType<typeof address>) => ({ place: { name, location: { lat: 43.7384, lng: 7.4246 }, address: addr } });

describe('places are unique by normalized address', () => {
  let t: TestApp;
  let tenant: TestTenant;
  beforeAll(async () => {
    t = await buildTestApp();
    tenant = await t.createTenant();
  });
  afterAll(async () => t?.close());

  it('a second place whose address normalizes to the first one → 409 place_exists with its place_id', async () => {
    const first = await createPlace(tenant.admin, { address: address('Boulevard des Moulins', '12') });
    const res = await tenant.admin.post('/api/places', place('Again', address('bd. des MOULINS', '12')));
    expect(res.status, JSON.stringify(res.body)).toBe(409);
    expect(res.body).toMatchObject({ error_code: 'place_exists', place_id: first.id });
    // Another number is another door.
    await expectOk(tenant.admin.post('/api/places', place('Next door', address('Boulevard des Moulins', '14'))), 201);
  });

  it("another tenant's or another customer's place with the same address is no conflict", async () => {
    await createPlace(tenant.admin, { address: address('Rue Grimaldi', '3') });
    const other = await t.createTenant();
    await expectOk(other.admin.post('/api/places', place('Theirs', address('Rue Grimaldi', '3'))), 201);
    const customer = await createUser(tenant.admin, { role: 'customer' });
    const own = await expectOk(customer.client.post('/api/places', place('Mine', address('Rue Grimaldi', '3'))), 201);
    const again = await customer.client.post('/api/places', place('Mine again', address('rue grimaldi', '3')));
    expect(again.status).toBe(409);
    expect(again.body.place_id).toBe(own.place.id);
  });

  it('PATCH to an address another place has → 409 place_exists; the place keeps its address', async () => {
    const a = await createPlace(tenant.admin, { address: address('Avenue de la Costa', '1') });
    const b = await createPlace(tenant.admin, { address: address('Avenue de la Costa', '2') });
    const res = await tenant.admin.patch(`/api/places/${b.id}`, { place: { address: address('Av. de la Costa', '1') } });
    expect(res.status, JSON.stringify(res.body)).toBe(409);
    expect(res.body.place_id).toBe(a.id);
    const still = await expectOk(tenant.admin.get(`/api/places/${b.id}`));
    expect(still.place.address.number).toBe('2');
    // Its own address again, or another field, is fine.
    await expectOk(tenant.admin.patch(`/api/places/${b.id}`, { place: { name: 'Renamed', address: address('Avenue de la Costa', '2') } }));
  });

  it('findOrCreatePlaceByAddress creates once, then finds the place for the same normalized address', async () => {
    const input = {
      tenantId: tenant.tenantId,
      customerId: null,
      address: { street: 'Quai Antoine Ier', number: '7', zip_code: '98000', city: 'Monaco', country: 'MC', additional_line: null },
      location: { lat: 43.735, lng: 7.423 },
      now: t.clock.now(),
    };
    const first = await t.deps.db.transaction((tx) => findOrCreatePlaceByAddress(tx, input));
    expect(first.created).toBe(true);
    const second = await t.deps.db.transaction((tx) =>
      findOrCreatePlaceByAddress(tx, { ...input, address: { ...input.address, street: 'quai antoine IER' }, location: { lat: 1, lng: 1 } }),
    );
    expect(second).toMatchObject({ created: false, place: { id: first.place.id, lat: 43.735 } });
    const shown = await expectOk(tenant.admin.get(`/api/places/${first.place.id}`));
    expect(shown.place.name).toBe('Quai Antoine Ier 7');
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('places are unique by normalized address on PostgreSQL', () => {
  let t: TestApp;
  let tenant: TestTenant;
  beforeAll(async () => {
    t = await buildTestApp();
    tenant = await t.createTenant();
  });
  afterAll(async () => t?.close());

  it('two concurrent creates of one address: exactly one place, the other 409 (the unique index, not a read)', async () => {
    for (let round = 0; round < 5; round++) {
      const body = place(`Race ${round}`, address('Rue Basse', String(100 + round)));
      const results = await Promise.all([tenant.admin.post('/api/places', body), tenant.admin.post('/api/places', body), tenant.admin.post('/api/places', body)]);
      expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409]);
      const id = results.find((r) => r.status === 201)!.body.place.id;
      for (const r of results.filter((r) => r.status === 409)) expect(r.body.place_id).toBe(id);
    }
  });

  it('two transactions finding-or-creating one address at once get one place', async () => {
    for (let round = 0; round < 5; round++) {
      const input = {
        tenantId: tenant.tenantId,
        customerId: null,
        address: { street: 'Rue Comte Félix Gastaldi', number: String(round + 1), zip_code: '98000', city: 'Monaco', country: 'MC', additional_line: null },
        location: { lat: 43.731, lng: 7.42 },
        now: t.clock.now(),
      };
      const results = await Promise.all([0, 1, 2].map(() => t.deps.db.transaction((tx) => findOrCreatePlaceByAddress(tx, input))));
      expect(new Set(results.map((r) => r.place.id)).size).toBe(1);
      expect(results.filter((r) => r.created)).toHaveLength(1);
    }
  });
});
