// Failures SQL: package failure reasons. Every function takes the handle and the tenant id first.
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import type { ReasonRecord } from './reasons.ts';
import { packageFailureReasons } from './tables.ts';

type Row = typeof packageFailureReasons.$inferSelect;

const toRecord = (row: Row): ReasonRecord => ({
  key: row.key,
  labels: { en: row.labelEn, de: row.labelDe },
  stopTypes: row.stopTypes,
  packageInteractions: row.packageInteractions,
  noteRequired: row.noteRequired,
  triggersReattempt: row.triggersReattempt,
});

const toColumns = (reason: ReasonRecord) => ({
  labelEn: reason.labels.en,
  labelDe: reason.labels.de,
  stopTypes: reason.stopTypes,
  packageInteractions: reason.packageInteractions,
  noteRequired: reason.noteRequired,
  triggersReattempt: reason.triggersReattempt,
});

export async function listPackageFailureReasons(q: Queryable, tenantId: string): Promise<ReasonRecord[]> {
  const rows = await q
    .select()
    .from(packageFailureReasons)
    .where(eq(packageFailureReasons.tenantId, tenantId))
    .orderBy(asc(packageFailureReasons.position), asc(packageFailureReasons.key));
  return rows.map(toRecord);
}

export async function findPackageFailureReason(q: Queryable, tenantId: string, key: string, options: { forUpdate?: boolean } = {}): Promise<ReasonRecord | null> {
  const query = q
    .select()
    .from(packageFailureReasons)
    .where(and(eq(packageFailureReasons.tenantId, tenantId), eq(packageFailureReasons.key, key)));
  const [row] = options.forUpdate ? await query.for('update') : await query;
  return row ? toRecord(row) : null;
}

/** How many reasons the tenant has and the next display position. */
export async function packageFailureReasonStats(q: Queryable, tenantId: string): Promise<{ count: number; nextPosition: number }> {
  const [row] = await q
    .select({ count: sql<number>`count(*)::int`, nextPosition: sql<number>`coalesce(max(${packageFailureReasons.position}) + 1, 0)::int` })
    .from(packageFailureReasons)
    .where(eq(packageFailureReasons.tenantId, tenantId));
  return row ?? { count: 0, nextPosition: 0 };
}

export async function insertPackageFailureReasons(
  q: Queryable,
  tenantId: string,
  reasons: { reason: ReasonRecord; position: number }[],
  at: Date,
): Promise<void> {
  if (!reasons.length) return;
  await q.insert(packageFailureReasons).values(
    reasons.map(({ reason, position }) => ({ tenantId, key: reason.key, ...toColumns(reason), position, createdAt: at, updatedAt: at })),
  );
}

/** Inserts one reason unless its key exists; false when the key was taken (also under a concurrent create). */
export async function insertPackageFailureReasonIfAbsent(
  q: Queryable,
  tenantId: string,
  reason: ReasonRecord,
  position: number,
  at: Date,
): Promise<boolean> {
  const inserted = await q
    .insert(packageFailureReasons)
    .values({ tenantId, key: reason.key, ...toColumns(reason), position, createdAt: at, updatedAt: at })
    .onConflictDoNothing()
    .returning({ key: packageFailureReasons.key });
  return inserted.length > 0;
}

export async function updatePackageFailureReason(q: Queryable, tenantId: string, reason: ReasonRecord, at: Date): Promise<void> {
  await q
    .update(packageFailureReasons)
    .set({ ...toColumns(reason), updatedAt: at })
    .where(and(eq(packageFailureReasons.tenantId, tenantId), eq(packageFailureReasons.key, reason.key)));
}

export async function deletePackageFailureReason(q: Queryable, tenantId: string, key: string): Promise<boolean> {
  const deleted = await q
    .delete(packageFailureReasons)
    .where(and(eq(packageFailureReasons.tenantId, tenantId), eq(packageFailureReasons.key, key)))
    .returning({ key: packageFailureReasons.key });
  return deleted.length > 0;
}
