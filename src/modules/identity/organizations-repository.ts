// Identity SQL for organizations and service areas (repository.ts holds tenants, users and credentials). Every function
// takes the handle and tenant id first.
import { and, desc, eq, inArray, lt, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Queryable } from '../../db/client.ts';
import type { JsonPart } from '../../db/json-read.ts';
import { organizations, serviceAreas } from './tables.ts';

export type OrganizationRow = typeof organizations.$inferSelect;
export type ServiceAreaRow = typeof serviceAreas.$inferSelect;

/** Newest first (UUIDv7 ids grow with time): rows after the cursor's id, limit + 1 for has_more. */
const before = (column: AnyPgColumn, afterId: string | null): SQL[] => (afterId ? [lt(column, afterId)] : []);

export async function findOrganization(q: Queryable, tenantId: string, id: string): Promise<OrganizationRow | null> {
  const [row] = await q.select().from(organizations).where(and(eq(organizations.tenantId, tenantId), eq(organizations.id, id)));
  return row ?? null;
}

export async function findOrganizationForUpdate(q: Queryable, tenantId: string, id: string): Promise<OrganizationRow | null> {
  const [row] = await q
    .select()
    .from(organizations)
    .where(and(eq(organizations.tenantId, tenantId), eq(organizations.id, id)))
    .for('update');
  return row ?? null;
}

export async function findOrganizations(q: Queryable, tenantId: string, ids: string[]): Promise<OrganizationRow[]> {
  if (!ids.length) return [];
  return q.select().from(organizations).where(and(eq(organizations.tenantId, tenantId), inArray(organizations.id, ids)));
}

export async function listOrganizations(
  q: Queryable,
  tenantId: string,
  query: { withinIds?: string[] | undefined; afterId: string | null; limit: number },
): Promise<OrganizationRow[]> {
  const conditions: SQL[] = [eq(organizations.tenantId, tenantId), ...before(organizations.id, query.afterId)];
  if (query.withinIds) {
    if (!query.withinIds.length) return [];
    conditions.push(inArray(organizations.id, query.withinIds));
  }
  return q.select().from(organizations).where(and(...conditions)).orderBy(desc(organizations.id)).limit(query.limit + 1);
}

export async function insertOrganization(q: Queryable, row: typeof organizations.$inferInsert): Promise<void> {
  await q.insert(organizations).values(row);
}

export async function updateOrganization(
  q: Queryable,
  tenantId: string,
  id: string,
  patch: Partial<Pick<OrganizationRow, 'name' | 'serviceAreaIds'>>,
): Promise<void> {
  if (!Object.keys(patch).length) return;
  await q.update(organizations).set(patch).where(and(eq(organizations.tenantId, tenantId), eq(organizations.id, id)));
}

/**
 * A service area's auto-dispatch setting as one part of a combined read (db/json-read.ts); null without the area. The
 * database function auto_dispatch_setting_of (migration 0014) reads it: its plan is kept per server connection
 * (decision 1453).
 */
export const autoDispatchSettingRead = (tenantId: Placeholder, id: SQL): JsonPart<{ enabled: boolean; budgetMs: number } | null> => ({
  sql: sql`auto_dispatch_setting_of(p_tenant_id => ${tenantId}, p_service_area_id => ${id})`,
  decode: (json) => {
    const row = json as { enabled: boolean; budget_ms: number } | null;
    return row ? { enabled: row.enabled, budgetMs: row.budget_ms } : null;
  },
});

/** A service area's time zone as one part of a combined read (the tracking read's local date); null without the area. */
export const serviceAreaTimeZoneRead = (tenantId: SQL, id: SQL): JsonPart<string | null> => ({
  sql: sql`(SELECT ${serviceAreas.timeZone} FROM ${serviceAreas} WHERE ${serviceAreas.tenantId} = ${tenantId} AND ${serviceAreas.id} = ${id})`,
  decode: (value) => (typeof value === 'string' ? value : null),
});

export async function findServiceArea(q: Queryable, tenantId: string, id: string): Promise<ServiceAreaRow | null> {
  const [row] = await q.select().from(serviceAreas).where(and(eq(serviceAreas.tenantId, tenantId), eq(serviceAreas.id, id)));
  return row ?? null;
}

/** Every service area, of any tenant, whose recipients are e-mailed at some moment (the notification sweep's start). */
export async function serviceAreasNotifyingRecipients(
  q: Queryable,
): Promise<Pick<ServiceAreaRow, 'tenantId' | 'id' | 'timeZone' | 'recipientNotifications' | 'recipientApproachingMinutes'>[]> {
  return q
    .select({
      tenantId: serviceAreas.tenantId,
      id: serviceAreas.id,
      timeZone: serviceAreas.timeZone,
      recipientNotifications: serviceAreas.recipientNotifications,
      recipientApproachingMinutes: serviceAreas.recipientApproachingMinutes,
    })
    .from(serviceAreas)
    .where(sql`cardinality(${serviceAreas.recipientNotifications}) > 0`);
}

export async function findServiceAreaForUpdate(q: Queryable, tenantId: string, id: string): Promise<ServiceAreaRow | null> {
  const [row] = await q
    .select()
    .from(serviceAreas)
    .where(and(eq(serviceAreas.tenantId, tenantId), eq(serviceAreas.id, id)))
    .for('update');
  return row ?? null;
}

export async function findServiceAreas(q: Queryable, tenantId: string, ids: string[]): Promise<ServiceAreaRow[]> {
  if (!ids.length) return [];
  return q.select().from(serviceAreas).where(and(eq(serviceAreas.tenantId, tenantId), inArray(serviceAreas.id, ids)));
}

export async function listServiceAreas(q: Queryable, tenantId: string, afterId: string | null, limit: number): Promise<ServiceAreaRow[]> {
  return q
    .select()
    .from(serviceAreas)
    .where(and(eq(serviceAreas.tenantId, tenantId), ...before(serviceAreas.id, afterId)))
    .orderBy(desc(serviceAreas.id))
    .limit(limit + 1);
}

/** Every service area's time zone (delivery analytics group days by them; a tenant has few areas). */
export async function serviceAreaTimeZones(q: Queryable, tenantId: string): Promise<{ id: string; timeZone: string }[]> {
  return q.select({ id: serviceAreas.id, timeZone: serviceAreas.timeZone }).from(serviceAreas).where(eq(serviceAreas.tenantId, tenantId));
}

export async function insertServiceArea(q: Queryable, row: typeof serviceAreas.$inferInsert): Promise<void> {
  await q.insert(serviceAreas).values(row);
}

export async function updateServiceArea(
  q: Queryable,
  tenantId: string,
  id: string,
  patch: Partial<Omit<ServiceAreaRow, 'tenantId' | 'id' | 'createdAt'>>,
): Promise<void> {
  if (!Object.keys(patch).length) return;
  await q.update(serviceAreas).set(patch).where(and(eq(serviceAreas.tenantId, tenantId), eq(serviceAreas.id, id)));
}
