// Plans run as a job: their rows (decision 1302). Every function takes the handle and the tenant id first.
import { and, eq } from 'drizzle-orm';
import type { Queryable } from '../../../db/client.ts';
import { dispatchPlans } from '../tables.ts';

export type PlanRow = typeof dispatchPlans.$inferSelect;

export async function insertPlan(q: Queryable, row: typeof dispatchPlans.$inferInsert): Promise<void> {
  await q.insert(dispatchPlans).values(row);
}

/** The plan; `forUpdate` locks its row (apply: a plan is applied once, decision 1645). */
export async function findPlan(q: Queryable, tenantId: string, id: string, options: { forUpdate?: boolean } = {}): Promise<PlanRow | null> {
  const query = q.select().from(dispatchPlans).where(and(eq(dispatchPlans.tenantId, tenantId), eq(dispatchPlans.id, id)));
  const [row] = options.forUpdate ? await query.for('update') : await query;
  return row ?? null;
}

export async function finishPlan(q: Queryable, tenantId: string, id: string, patch: Pick<PlanRow, 'status' | 'result' | 'error' | 'finishedAt' | 'proposal' | 'appliedAt'>): Promise<void> {
  await q.update(dispatchPlans).set(patch).where(and(eq(dispatchPlans.tenantId, tenantId), eq(dispatchPlans.id, id)));
}

export async function markPlanApplied(q: Queryable, tenantId: string, id: string, patch: Pick<PlanRow, 'result' | 'appliedAt'>): Promise<void> {
  await q.update(dispatchPlans).set(patch).where(and(eq(dispatchPlans.tenantId, tenantId), eq(dispatchPlans.id, id)));
}
