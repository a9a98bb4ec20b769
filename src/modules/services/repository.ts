// Tour service and scheduling config SQL. Every function takes the handle and the tenant id first.
import { and, desc, eq, lt, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { rowFromJson, type JsonPart } from '../../db/json-read.ts';
import { runPrepared } from '../../db/prepared.ts';
import { schedulingConfigs, services } from './tables.ts';

export type ServiceRow = typeof services.$inferSelect;
export type SchedulingConfigRow = typeof schedulingConfigs.$inferSelect;

export async function findService(q: Queryable, tenantId: string, id: string): Promise<ServiceRow | null> {
  const [row] = await runPrepared(
    q,
    'find_service',
    (q) => q.select().from(services).where(and(eq(services.tenantId, sql.placeholder('tenantId')), eq(services.id, sql.placeholder('id')))).prepare('find_service'),
    { tenantId, id },
  );
  return row ?? null;
}

/**
 * The service as one part of a combined read (see db/json-read.ts): null when it does not exist in the tenant. The
 * database function service_of (migration 0014) reads it, so its plan is kept per server connection even where every
 * statement goes unnamed (a transaction pooler, decision 1453).
 */
export const serviceRead = (tenantId: Placeholder, id: Placeholder): JsonPart<ServiceRow | null> => ({
  sql: sql`service_of(p_tenant_id => ${tenantId}, p_id => ${id})`,
  decode: (json) => (json ? rowFromJson(services, json as Record<string, unknown>) : null),
});

/** The service's service area id as a scalar expression (service_area_id_of_service, migration 0014), for another module's part of a combined read. */
export const serviceAreaIdOfService = (tenantId: Placeholder, id: Placeholder): SQL => sql`service_area_id_of_service(p_tenant_id => ${tenantId}, p_id => ${id})`;

export async function findServiceForUpdate(q: Queryable, tenantId: string, id: string): Promise<ServiceRow | null> {
  const [row] = await q.select().from(services).where(and(eq(services.tenantId, tenantId), eq(services.id, id))).for('update');
  return row ?? null;
}

/** Newest first; fetches limit + 1 rows for the page's has_more. */
export async function listServices(q: Queryable, tenantId: string, afterId: string | null, limit: number): Promise<ServiceRow[]> {
  const conditions = [eq(services.tenantId, tenantId)];
  if (afterId) conditions.push(lt(services.id, afterId));
  return q.select().from(services).where(and(...conditions)).orderBy(desc(services.id)).limit(limit + 1);
}

export async function insertService(q: Queryable, row: typeof services.$inferInsert): Promise<void> {
  await q.insert(services).values(row);
}

export async function updateService(q: Queryable, tenantId: string, id: string, patch: Partial<ServiceRow>): Promise<void> {
  if (!Object.keys(patch).length) return;
  await q.update(services).set(patch).where(and(eq(services.tenantId, tenantId), eq(services.id, id)));
}

export async function findSchedulingConfig(q: Queryable, tenantId: string, id: string): Promise<SchedulingConfigRow | null> {
  const [row] = await q
    .select()
    .from(schedulingConfigs)
    .where(and(eq(schedulingConfigs.tenantId, tenantId), eq(schedulingConfigs.id, id)));
  return row ?? null;
}

export async function findSchedulingConfigForUpdate(q: Queryable, tenantId: string, id: string): Promise<SchedulingConfigRow | null> {
  const [row] = await q
    .select()
    .from(schedulingConfigs)
    .where(and(eq(schedulingConfigs.tenantId, tenantId), eq(schedulingConfigs.id, id)))
    .for('update');
  return row ?? null;
}

export async function listSchedulingConfigs(q: Queryable, tenantId: string, afterId: string | null, limit: number): Promise<SchedulingConfigRow[]> {
  const conditions = [eq(schedulingConfigs.tenantId, tenantId)];
  if (afterId) conditions.push(lt(schedulingConfigs.id, afterId));
  return q
    .select()
    .from(schedulingConfigs)
    .where(and(...conditions))
    .orderBy(desc(schedulingConfigs.id))
    .limit(limit + 1);
}

export async function insertSchedulingConfig(q: Queryable, row: typeof schedulingConfigs.$inferInsert): Promise<void> {
  await q.insert(schedulingConfigs).values(row);
}

export async function updateSchedulingConfig(q: Queryable, tenantId: string, id: string, patch: Partial<SchedulingConfigRow>): Promise<void> {
  if (!Object.keys(patch).length) return;
  await q
    .update(schedulingConfigs)
    .set(patch)
    .where(and(eq(schedulingConfigs.tenantId, tenantId), eq(schedulingConfigs.id, id)));
}
