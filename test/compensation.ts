// The set-up the compensation tests share (src/modules/compensation/*.test.ts): an app, a tenant with a service and an
// organization that has a manager and a driver, tours that organization manages, and amounts in euros.
import { buildTestApp, type TestApp, type TestTenant } from './app.ts';
import { createBooking, createOrganization, createService, createUser, mergeIntoTour, type CreatedUser } from './factories.ts';

export interface CompensationWorld {
  t: TestApp;
  tenant: TestTenant;
  orgId: string;
  serviceId: string;
  /** A manager of `orgId`: sees the tours it manages. */
  manager: CreatedUser;
  /** A driver of `orgId`. */
  driver: CreatedUser;
}

export async function compensationWorld(): Promise<CompensationWorld> {
  const t = await buildTestApp();
  const tenant = await t.createTenant();
  const orgId = (await createOrganization(tenant.admin)).id;
  const serviceId = (await createService(tenant.admin)).id;
  const manager = await createUser(tenant.admin, { role: 'manager', organization_ids: [orgId] });
  const driver = await createUser(tenant.admin, { role: 'driver', organization_ids: [orgId] });
  return { t, tenant, orgId, serviceId, manager, driver };
}

/** A tour of one booking managed by the world's organization (so its manager sees it). */
export async function managedTour(w: CompensationWorld) {
  const booking = await createBooking(w.tenant.admin, { service_id: w.serviceId, managing_organization_ids: [w.orgId] });
  return mergeIntoTour(w.tenant.admin, [booking.id]);
}

export const eur = (amount: number, label?: string) => ({ amount, currency: 'EUR', ...(label !== undefined ? { label } : {}) });
