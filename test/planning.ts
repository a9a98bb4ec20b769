// The set-up the planning tests share (src/modules/dispatch/planning/*.test.ts): an app whose plan can be held once it
// has its travel matrix, a tenant with an organization, a manager and drivers, and drivers' shifts from the depot.
import { wireHooks } from '../src/hooks.ts';
import { buildTestApp, type TestApp, type TestTenant } from './app.ts';
import { createOrganization, createService, createUser, expectOk, type CreatedUser } from './factories.ts';

/**
 * A test app whose travel matrix, once a plan has it (the solver's search comes right after), awaits `routed()`: where a
 * test holds the plan, or makes its change "meanwhile". The travel times are the app's own (live tracking's, through the
 * composition root: dispatch does not import live).
 */
export function buildTestAppHeldAfterRouting(routed: () => Promise<void>): Promise<TestApp> {
  const travelTimes = wireHooks().travel;
  return buildTestApp({}, {
    hooks: {
      travel: {
        ...travelTimes,
        // The plan's matrix (durations, distances and source: contract §15); matrixSeconds serves other reads.
        matrix: async (...args) => {
          const matrix = await travelTimes.matrix(...args);
          await routed();
          return matrix;
        },
      },
    },
  });
}

/** A time of the test clock's day (it starts at 2026-06-01T08:00Z). */
export const at = (hhmm: string) => `2026-06-01T${hhmm}:00.000Z`;
export const DEPOT = { lat: 52.5, lng: 13.4 };

export interface World {
  tenant: TestTenant;
  serviceId: string;
  org: string;
  manager: CreatedUser;
  drivers: CreatedUser[];
}

/** A new tenant with a service, an organization, its manager and `drivers` drivers. */
export async function planningWorld(t: TestApp, drivers: number): Promise<World> {
  const tenant = await t.createTenant();
  const org = (await createOrganization(tenant.admin)).id;
  const list: CreatedUser[] = [];
  for (let i = 0; i < drivers; i++) list.push(await createUser(tenant.admin, { role: 'driver', organization_ids: [org] }));
  return { tenant, serviceId: (await createService(tenant.admin)).id, org, manager: await createUser(tenant.admin, { role: 'manager', organization_ids: [org] }), drivers: list };
}

/** A shift of `driver` from `from` to `to` (hh:mm of the test day), starting and ending at the depot. */
export async function shift(w: World, driver: CreatedUser, from: string, to: string, vehicle?: Record<string, unknown>) {
  const body = { shift: { starts_at: at(from), ends_at: at(to), start_location: DEPOT, end_location: DEPOT, ...(vehicle ? { vehicle } : {}) } };
  return (await expectOk(w.manager.client.post(`/api/drivers/${driver.id}/shifts`, body), 201)).shift;
}
