// Busyness SQL: the last stored value per service area. Every function takes the handle and the tenant id first.
import { eq } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { busynessLevels } from './tables.ts';

/** Locks the tenant's stored values: two ticks of one tenant never decide the same change twice. */
export async function storedLevelsForUpdate(q: Queryable, tenantId: string): Promise<Map<string, number>> {
  const rows = await q.select().from(busynessLevels).where(eq(busynessLevels.tenantId, tenantId)).for('update');
  return new Map(rows.map((row) => [row.serviceAreaId, row.busyness]));
}

export async function storeLevel(q: Queryable, tenantId: string, serviceAreaId: string, busyness: number, computedAt: Date): Promise<void> {
  await q
    .insert(busynessLevels)
    .values({ tenantId, serviceAreaId, busyness, computedAt })
    .onConflictDoUpdate({ target: [busynessLevels.tenantId, busynessLevels.serviceAreaId], set: { busyness, computedAt } });
}
