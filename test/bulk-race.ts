// The set-up the bulk-create races share (src/modules/dispatch/bookings/{bulk,external-id}-concurrency.test.ts): an
// app on its own database, one tenant with a service and two places, and the items of one file to send at once.
import { afterAll, beforeAll } from 'vitest';
import { buildTestApp, type TestApp, type TestTenant } from './app.ts';
import { createPlace, createService } from './factories.ts';

export interface BulkRace {
  t: TestApp;
  tenant: TestTenant;
  serviceId: string;
  places: [string, string];
}

export interface BulkItem {
  idempotency_key: string;
  booking: Record<string, unknown>;
}

/**
 * Registers the file's beforeAll/afterAll and returns the world they fill (read it inside the tests) and `item(key,
 * externalId)`: one row of the file, a booking from the first place to the second under that Idempotency-Key.
 */
export function bulkRace(): { world: BulkRace; item: (key: string, externalId: string) => BulkItem } {
  const world = {} as BulkRace;
  beforeAll(async () => {
    world.t = await buildTestApp();
    world.tenant = await world.t.createTenant();
    world.serviceId = (await createService(world.tenant.admin)).id;
    world.places = [(await createPlace(world.tenant.admin)).id, (await createPlace(world.tenant.admin)).id];
  });
  afterAll(async () => world.t?.close());
  const item = (key: string, externalId: string): BulkItem => ({
    idempotency_key: key,
    booking: { service_id: world.serviceId, external_id: externalId, stops: [{ type: 'pickup', place_id: world.places[0] }, { type: 'dropoff', place_id: world.places[1] }] },
  });
  return { world, item };
}
