// Plans run as a job: their rows (decision 1302). Every function takes the handle and the tenant id first.
import { and, eq } from 'drizzle-orm';
import type { Queryable } from '../../../db/client.ts';
import { dispatchPlans } from '../tables.ts';

export type PlanRow = typeof dispatchPlans.$inferSelect;

export async function insertPlan(q: Queryable, row: typeof dispatchPlans.$inferInsert): Promise<void> {
  await q.insert(dispatchPlans).values(row);
}

export async function findPlan(q: Queryable, tenantId: string, id: string): Promise<PlanRow | null> {
  const [row] = await q.select().from(dispatchPlans).where(and(eq(dispatchPlans.tenantId, tenantId), eq(dispatchPlans.id, id)));
  return row ?? null;
}

export async function finishPlan(q: Queryable, tenantId: string, id: string, patch: Pick<PlanRow, 'status' | 'result' | 'error' | 'finishedAt'>): Promise<void> {
  await q.update(dispatchPlans).set(patch).where(and(eq(dispatchPlans.tenantId, tenantId), eq(dispatchPlans.id, id)));
}
