// Two bookings at once with one new address make one place (contract §14, decisions 1505, 1562): only a real PostgreSQL
// runs them side by side (PGlite has one session), so run with TEST_DATABASE_URL set; on PGlite they are skipped. One
// booking's transaction holds its new place uncommitted — findOrCreatePlaceByAddress, what its withNewPlaces runs —
// while the other's comes to insert the same address: it must wait on the unique index and take the winner's place.
// The last test puts back the index as it would be without NULLS NOT DISTINCT (places without a customer all in scopes
// of their own) and shows the same race then makes two places: what the first would see without the constraint (so
// this suite runs in order, not shuffled).
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestTenant } from '../../../../test/app.ts';
import { createPlace, createService, createServiceArea, expectOk } from '../../../../test/factories.ts';
import { waitUntilSettledOrWaitingForALock } from '../../../../test/locks.ts';
import { findOrCreatePlaceByAddress, placeAddressKey } from '../../places/index.ts';
import { importRegion } from '../../region/index.ts';

const MONACO = path.resolve(import.meta.dirname, '../../../../regions/monaco.osm.pbf');

describe.skipIf(!process.env.TEST_DATABASE_URL)('two bookings creating one place at once, on PostgreSQL', { timeout: 120_000, shuffle: false }, () => {
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

  const grimaldi = (number: string) => ({ street: 'Rue Grimaldi', number, zip_code: '98000', city: 'Monaco', country: 'MC', additional_line: null });
  const bookingTo = (address: Record<string, unknown>) => ({ booking: { service_id: serviceId, stops: [{ type: 'pickup', place_id: depotId }, { type: 'dropoff', address }] } });

  async function placesOf(number: string): Promise<string[]> {
    const key = placeAddressKey(grimaldi(number))!;
    const result = await t.deps.db.execute(sql`SELECT id FROM places WHERE tenant_id = ${tenant.tenantId} AND address_key = ${key}`);
    return (result as unknown as { rows: { id: string }[] }).rows.map((r) => r.id);
  }

  /**
   * One booking's transaction makes the place of `number` and stays open while another booking of that address, sent
   * as the other spelling, runs; then the first commits. Returns the held place's id and the other booking's stop.
   */
  async function race(number: string): Promise<{ held: string; stop: { place_id: string; location: { lat: number; lng: number } } }> {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let made!: (id: string) => void;
    const placed = new Promise<string>((resolve) => (made = resolve));
    const first = t.deps.db.transaction(async (tx) => {
      const { place } = await findOrCreatePlaceByAddress(tx, { tenantId: tenant.tenantId, customerId: null, address: grimaldi(number), location: { lat: 43.7311, lng: 7.4197 }, now: t.clock.now() });
      made(place.id);
      await gate;
    });
    const held = await placed;
    const second = tenant.admin.post('/api/hailing/bookings', bookingTo({ street: `${number} rue grimaldi`, zip_code: '98000', city: 'MONACO', country: 'MC' }));
    await waitUntilSettledOrWaitingForALock(t.deps.database.pool!, second);
    release();
    await first;
    const created = await expectOk(second, 201);
    return { held, stop: created.booking.stops[1] };
  }

  it('the second waits for the first’s place and takes it: one place, where the first put it', async () => {
    for (const number of ['101', '102', '103']) {
      const { held, stop } = await race(number);
      expect(stop).toMatchObject({ place_id: held, location: { lat: 43.7311, lng: 7.4197 } });
      expect(await placesOf(number)).toEqual([held]);
    }
  });

  it('bookings of one new address sent all at once make one place, every stop on it', async () => {
    for (const number of ['201', '202']) {
      const spellings = [grimaldi(number), { ...grimaldi(number), street: 'rue grimaldi' }, { street: `Rue Grimaldi ${number}`, zip_code: '98000', city: 'Monaco', country: 'MC' }, { ...grimaldi(number), city: 'MONACO' }];
      const created = await Promise.all(spellings.map((address) => expectOk(tenant.admin.post('/api/hailing/bookings', bookingTo(address)), 201)));
      const placed = await placesOf(number);
      expect(placed).toHaveLength(1);
      expect(created.map((c) => c.booking.stops[1].place_id)).toEqual(spellings.map(() => placed[0]));
    }
  });

  it('without NULLS NOT DISTINCT on the index the same race makes two places (what the tests above would see)', async () => {
    await t.deps.db.execute(sql.raw('DROP INDEX places_address_key_idx'));
    await t.deps.db.execute(sql.raw('CREATE UNIQUE INDEX places_address_key_idx ON places (tenant_id, customer_id, address_key) WHERE address_key IS NOT NULL'));
    const { held, stop } = await race('301');
    expect(stop.place_id).not.toBe(held);
    expect(await placesOf('301')).toHaveLength(2);
  });
});
