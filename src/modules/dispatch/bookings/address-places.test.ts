// Address-only stops on the Monaco region (contract §14, decisions 1562, 1680): a stop with only an address creates the
// tenant's place of that address, the next booking of the address — however it is written — reuses it, and a bulk
// create (the import's path) reports an address it cannot locate at its item's pointer, the other items created.
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestTenant } from '../../../../test/app.ts';
import { createPlace, createService, createServiceArea, expectOk } from '../../../../test/factories.ts';
import { importRegion } from '../../region/index.ts';

const MONACO = path.resolve(import.meta.dirname, '../../../../regions/monaco.osm.pbf');

/** A house of the extract (osmium's coordinates, as in the region's geocoding test). */
const ITALIE_54 = { lat: 43.748772, lng: 7.434803 };

let t: TestApp;
let tenant: TestTenant;
let serviceId: string;
let depotId: string;
beforeAll(async () => {
  t = await buildTestApp();
  await importRegion(t.deps, MONACO, { name: 'monaco' });
  tenant = await t.createTenant();
  const area = await createServiceArea(tenant.admin, { name: 'Monaco', time_zone: 'Europe/Monaco', country_code: 'MC' });
  serviceId = (await createService(tenant.admin, { service_area_id: area.id })).id;
  depotId = (await createPlace(tenant.admin, { location: { lat: 43.7275, lng: 7.4165 }, address: { street: 'Rue du Gabian', number: '2', zip_code: '98000', city: 'Monaco', country: 'MC' } })).id;
}, 240_000);
afterAll(async () => t?.close());

const toAddress = (address: Record<string, unknown>) => ({ service_id: serviceId, stops: [{ type: 'pickup', place_id: depotId }, { type: 'dropoff', address }] });

/** The tenant's places whose stored key is this one (the unique index's column). */
async function placesKeyed(key: string): Promise<{ id: string; address_key: string }[]> {
  const result = await t.deps.db.execute(sql`SELECT id, address_key FROM places WHERE tenant_id = ${tenant.tenantId} AND address_key = ${key}`);
  return (result as unknown as { rows: { id: string; address_key: string }[] }).rows;
}

const metresBetween = (a: { lat: number; lng: number }, b: { lat: number; lng: number }) =>
  Math.hypot((a.lat - b.lat) * 111_320, (a.lng - b.lng) * 111_320 * Math.cos((a.lat * Math.PI) / 180));

describe('address-only stops create the place of their address (contract §14)', { timeout: 60_000 }, () => {
  it('creates the tenant’s place for a new address, and the next bookings of it — Bd or Boulevard, number before or after — reuse it', async () => {
    const first = await expectOk(tenant.admin.post('/api/hailing/bookings', { booking: toAddress({ street: "Boulevard d'Italie", number: '54', zip_code: '98000', city: 'Monaco', country: 'MC' }) }), 201);
    const stop = first.booking.stops[1];
    expect(stop.place_id).toEqual(expect.any(String));
    expect(stop.geocoding).toEqual({ precision: 'house', source: 'region' });
    expect(metresBetween(stop.location, ITALIE_54)).toBeLessThan(50);
    const place = (await expectOk(tenant.admin.get(`/api/places/${stop.place_id}`))).place;
    expect(place).toMatchObject({ location: stop.location, address: { street: "Boulevard d'Italie", number: '54', zip_code: '98000', city: 'Monaco', country: 'MC' } });
    // The key the unique index holds: case, accents, abbreviations and the number's position normalized away.
    const [keyed] = await placesKeyed('boulevard d italie|54|98000|monaco|mc');
    expect(keyed?.id).toBe(place.id);

    for (const spelling of [
      { street: "bd d'italie", number: '54', zip_code: '98000', city: 'MONACO', country: 'MC' },
      { street: "Bd d'Italie 54", zip_code: '98000', city: 'Monaco', country: 'mc' },
      { street: "54 BOULEVARD D'ITALIE", zip_code: '98000', city: 'monaco', country: 'MC' },
    ]) {
      const again = await expectOk(tenant.admin.post('/api/hailing/bookings', { booking: toAddress(spelling) }), 201);
      expect(again.booking.stops[1], JSON.stringify(spelling)).toMatchObject({ place_id: place.id, location: place.location, geocoding: { precision: 'house', source: 'places' } });
      // The stop keeps the address as it was sent.
      expect(again.booking.stops[1].address.street).toBe(spelling.street);
    }
    expect(await placesKeyed('boulevard d italie|54|98000|monaco|mc')).toHaveLength(1);
  });

  it('remembers a street-only address as a place too, and another postcode is another door', async () => {
    const first = await expectOk(tenant.admin.post('/api/hailing/bookings', { booking: toAddress({ street: 'Rue Grimaldi', number: '999', zip_code: '98000', city: 'Monaco', country: 'MC' }) }), 201);
    expect(first.booking.stops[1]).toMatchObject({ place_id: expect.any(String), geocoding: { precision: 'street', source: 'region' } });
    const elsewhere = await expectOk(tenant.admin.post('/api/hailing/bookings', { booking: toAddress({ street: 'Rue Grimaldi', number: '999', zip_code: '98001', city: 'Monaco', country: 'MC' }) }), 201);
    expect(elsewhere.booking.stops[1].place_id).not.toBe(first.booking.stops[1].place_id);
  });
});

describe('a bulk create geocodes per item (the import’s path)', { timeout: 60_000 }, () => {
  const items = (run: string) => [
    { idempotency_key: `${run}-0`, booking: { ...toAddress({ street: 'Quai Antoine 1er', number: '6', zip_code: '98000', city: 'Monaco', country: 'MC' }), external_id: `${run}-1` } },
    { idempotency_key: `${run}-1`, booking: { ...toAddress({ street: 'Rue Inconnue', number: '3', zip_code: '98000', city: 'Monaco', country: 'MC' }), external_id: `${run}-2` } },
    { idempotency_key: `${run}-2`, booking: { service_id: serviceId, external_id: `${run}-3`, stops: [{ type: 'pickup', place_id: depotId }, { type: 'dropoff', location: { lat: 43.74, lng: 7.43 }, address: { street: 'Rue Inconnue', number: '4', city: 'Monaco' } }] } },
  ];

  for (const dryRun of [true, false]) {
    it(`reports address_not_found at the item's pointer and creates the others${dryRun ? ' (dry run)' : ''}`, async () => {
      const run = dryRun ? 'DRY' : 'BULK';
      const res = await tenant.admin.post('/api/hailing/bookings/bulk', { bookings: items(run), ...(dryRun ? { dry_run: true } : {}) });
      expect(res.status).toBe(200);
      const results = res.body.results as { index: number; status: number; booking: { stops: { place_id: string | null }[] } | null; error: { error_code: string; errors: { pointer: string; full_pointer: string; code: string; detail: string }[] } | null }[];
      expect(results.map((r) => r.status), JSON.stringify(results.map((r) => r.error))).toEqual([201, 422, 201]);
      expect(results[1]!.error).toMatchObject({ error_code: 'address_not_found', errors: [{ pointer: '/booking/stops/1/address', full_pointer: '/bookings/1/booking/stops/1/address', code: 'address_not_found' }] });
      expect(results[1]!.error!.errors[0]!.detail).toMatch(/was not found/);
      if (dryRun) {
        expect(results[0]!.booking).toBeNull();
        expect((await expectOk(tenant.admin.get(`/api/hailing/bookings?filters[external_id]=${run}-1`))).bookings).toHaveLength(0);
      } else {
        expect(results[0]!.booking!.stops[1]!.place_id).toEqual(expect.any(String));
        for (const [id, n] of [[`${run}-1`, 1], [`${run}-2`, 0], [`${run}-3`, 1]] as const) {
          expect((await expectOk(tenant.admin.get(`/api/hailing/bookings?filters[external_id]=${id}`))).bookings, id).toHaveLength(n);
        }
      }
    });
  }
});
