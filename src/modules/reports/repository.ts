// Reports SQL. Every function takes the handle and the tenant id first.
import { and, asc, desc, eq, isNotNull, lt, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { reportActivity, reports, type Grant } from './tables.ts';

export type ReportRow = typeof reports.$inferSelect;
export type ActivityRow = typeof reportActivity.$inferSelect;

export async function insertReport(q: Queryable, row: typeof reports.$inferInsert): Promise<void> {
  await q.insert(reports).values(row);
}

export async function findReport(q: Queryable, tenantId: string, id: string): Promise<ReportRow | null> {
  const [row] = await q.select().from(reports).where(and(eq(reports.tenantId, tenantId), eq(reports.id, id)));
  return row ?? null;
}

export async function findReportForUpdate(q: Queryable, tenantId: string, id: string): Promise<ReportRow | null> {
  const [row] = await q.select().from(reports).where(and(eq(reports.tenantId, tenantId), eq(reports.id, id))).for('update');
  return row ?? null;
}

export async function updateReport(q: Queryable, tenantId: string, id: string, patch: Partial<Omit<ReportRow, 'tenantId' | 'id'>>): Promise<void> {
  await q.update(reports).set(patch).where(and(eq(reports.tenantId, tenantId), eq(reports.id, id)));
}

export interface ReportListQuery {
  /** Rows whose grants contain any of these documents (the caller's grants: access.ts grantProbes). */
  probes: Grant[];
  tags: string[];
  afterId: string | null;
  limit: number;
}

/** Newest first (UUIDv7 ids grow with time); fetches limit + 1 rows for the page's has_more. */
export async function listReports(q: Queryable, tenantId: string, query: ReportListQuery): Promise<ReportRow[]> {
  const visible = or(...query.probes.map((probe) => sql`${reports.grants} @> ${JSON.stringify([probe])}::jsonb`))!;
  const conditions: SQL[] = [eq(reports.tenantId, tenantId), visible];
  // Each tag narrows the result: the report must carry all of them.
  if (query.tags.length) conditions.push(sql`${reports.tags} @> ${`{${query.tags.map((t) => JSON.stringify(t)).join(',')}}`}::text[]`);
  if (query.afterId) conditions.push(lt(reports.id, query.afterId));
  return q
    .select()
    .from(reports)
    .where(and(...conditions))
    .orderBy(desc(reports.id))
    .limit(query.limit + 1);
}

export async function insertActivity(q: Queryable, row: typeof reportActivity.$inferInsert): Promise<void> {
  await q.insert(reportActivity).values(row);
}

/** Newest first. */
export async function listActivity(q: Queryable, tenantId: string, reportId: string, afterId: string | null, limit: number): Promise<ActivityRow[]> {
  const conditions: SQL[] = [eq(reportActivity.tenantId, tenantId), eq(reportActivity.reportId, reportId)];
  if (afterId) conditions.push(lt(reportActivity.id, afterId));
  return q
    .select()
    .from(reportActivity)
    .where(and(...conditions))
    .orderBy(desc(reportActivity.id))
    .limit(limit + 1);
}

/** Every tenant's reports still holding a file key that `keyId` did not seal, in id order after `after` (rotation). */
export async function reportsSealedOtherwise(q: Queryable, keyId: string, after: { tenantId: string; id: string } | null, limit: number) {
  const conditions: SQL[] = [isNotNull(reports.wrappedKey), ne(sql`split_part(${reports.wrappedKey}, '.', 2)`, keyId)];
  if (after) conditions.push(sql`(${reports.tenantId}, ${reports.id}) > (${after.tenantId}::uuid, ${after.id}::uuid)`);
  return q
    .select({ tenantId: reports.tenantId, id: reports.id })
    .from(reports)
    .where(and(...conditions))
    .orderBy(asc(reports.tenantId), asc(reports.id))
    .limit(limit);
}
