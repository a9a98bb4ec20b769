// Packages SQL: packages and their append-only history. Handle and tenant id first.
import { and, asc, desc, eq, inArray, or, sql } from 'drizzle-orm';
import type { Queryable } from '../../../db/client.ts';
import { packageHistory, packages } from '../tables.ts';

export type PackageRow = typeof packages.$inferSelect;
export type PackageHistoryRow = typeof packageHistory.$inferSelect;

export async function findPackage(q: Queryable, tenantId: string, id: string): Promise<PackageRow | null> {
  const [row] = await q.select().from(packages).where(and(eq(packages.tenantId, tenantId), eq(packages.id, id)));
  return row ?? null;
}

export async function findPackageForUpdate(q: Queryable, tenantId: string, id: string): Promise<PackageRow | null> {
  const [row] = await q.select().from(packages).where(and(eq(packages.tenantId, tenantId), eq(packages.id, id))).for('update');
  return row ?? null;
}

/** By shortcode, or by external label (the open package wins over finished ones that reused the label). */
export async function findPackageByCode(q: Queryable, tenantId: string, code: { shortcode?: string; externalLabel?: string }): Promise<PackageRow | null> {
  const match = code.shortcode !== undefined ? eq(packages.shortcode, code.shortcode) : eq(packages.externalLabel, code.externalLabel ?? '');
  const [row] = await q
    .select()
    .from(packages)
    .where(and(eq(packages.tenantId, tenantId), match))
    .orderBy(sql`${packages.status} IN ('created', 'awaiting_pickup', 'in_transit') DESC`, desc(packages.id))
    .limit(1);
  return row ?? null;
}

export async function findPackagesOfBookings(q: Queryable, tenantId: string, bookingIds: string[]): Promise<PackageRow[]> {
  if (!bookingIds.length) return [];
  return q
    .select()
    .from(packages)
    .where(and(eq(packages.tenantId, tenantId), inArray(packages.bookingId, bookingIds)))
    .orderBy(asc(packages.id));
}

export async function findPackagesOfStops(q: Queryable, tenantId: string, stopIds: string[]): Promise<PackageRow[]> {
  if (!stopIds.length) return [];
  return q
    .select()
    .from(packages)
    .where(and(eq(packages.tenantId, tenantId), or(inArray(packages.pickupStopId, stopIds), inArray(packages.dropoffStopId, stopIds))))
    .orderBy(asc(packages.id));
}

/** Inserts the rows whose shortcode is free and returns them; rows with a taken shortcode are left out. */
export async function openExternalLabelsTaken(q: Queryable, tenantId: string, labels: string[]): Promise<Set<string>> {
  if (!labels.length) return new Set();
  const rows = await q
    .select({ label: packages.externalLabel })
    .from(packages)
    .where(
      and(
        eq(packages.tenantId, tenantId),
        inArray(packages.externalLabel, labels),
        inArray(packages.status, ['created', 'awaiting_pickup', 'in_transit']),
      ),
    );
  return new Set(rows.map((r) => r.label ?? ''));
}

export async function updatePackage(q: Queryable, tenantId: string, id: string, patch: Partial<Omit<PackageRow, 'tenantId' | 'id'>>): Promise<void> {
  await q.update(packages).set(patch).where(and(eq(packages.tenantId, tenantId), eq(packages.id, id)));
}

export async function insertPackageHistory(q: Queryable, rows: (typeof packageHistory.$inferInsert)[]): Promise<PackageHistoryRow[]> {
  return rows.length ? q.insert(packageHistory).values(rows).returning() : [];
}

export async function findPackageHistory(q: Queryable, tenantId: string, packageIds: string[]): Promise<PackageHistoryRow[]> {
  if (!packageIds.length) return [];
  return q
    .select()
    .from(packageHistory)
    .where(and(eq(packageHistory.tenantId, tenantId), inArray(packageHistory.packageId, packageIds)))
    .orderBy(asc(packageHistory.id));
}
