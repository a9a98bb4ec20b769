// What an applied plan promised for each tour it created (decision 1744): written with the tour, read by analytics.
import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { tourPlans } from './tables.ts';

export type TourPlanRow = typeof tourPlans.$inferSelect;

export async function recordTourPlan(q: Queryable, row: TourPlanRow): Promise<void> {
  await q.insert(tourPlans).values(row).onConflictDoNothing();
}

/** The plans of some tours as rows (tour_id, stops, distance_m, finish_at), for analytics' statement to join. */
export const tourPlansSql = (tenantId: SQL, tourIds: SQL): SQL =>
  sql`SELECT tp.tour_id, tp.stops, tp.distance_m, tp.finish_at FROM tour_plans tp WHERE tp.tenant_id = ${tenantId} AND tp.tour_id = ANY ((${tourIds})::uuid[])`;

/** The plan a tour was created from, or null for a tour no plan made. */
export async function findTourPlan(q: Queryable, tenantId: string, tourId: string): Promise<TourPlanRow | null> {
  const [row] = await q.select().from(tourPlans).where(and(eq(tourPlans.tenantId, tenantId), eq(tourPlans.tourId, tourId)));
  return row ?? null;
}
