// Proof files SQL: one row per stop or package and kind; the stored proofs retention marks. Handle and tenant id first.
import { and, asc, eq, inArray, isNotNull, isNull, lt, ne, sql, type SQL } from 'drizzle-orm';
import type { Queryable } from '../../../db/client.ts';
import { packages, proofFiles, stops, type ProofFileKind } from '../tables.ts';

export type ProofFileRow = typeof proofFiles.$inferSelect;
export type NewProofFileRow = typeof proofFiles.$inferInsert;

export async function insertProofFiles(q: Queryable, rows: NewProofFileRow[]): Promise<void> {
  if (rows.length) await q.insert(proofFiles).values(rows);
}

export async function findProofFile(q: Queryable, tenantId: string, ownerKind: 'stop' | 'package', ownerId: string, kind: ProofFileKind): Promise<ProofFileRow | null> {
  const [row] = await q
    .select()
    .from(proofFiles)
    .where(and(eq(proofFiles.tenantId, tenantId), eq(proofFiles.ownerKind, ownerKind), eq(proofFiles.ownerId, ownerId), eq(proofFiles.kind, kind)));
  return row ?? null;
}

/** The oldest files still kept that were stored before `cutoff`, across tenants (the retention index). */
export async function findProofFilesKeptBefore(q: Queryable, cutoff: Date, limit: number): Promise<ProofFileRow[]> {
  return q
    .select()
    .from(proofFiles)
    .where(and(isNull(proofFiles.deletedAt), lt(proofFiles.createdAt, cutoff)))
    .orderBy(asc(proofFiles.createdAt))
    .limit(limit);
}

/** Marks the files deleted (keys cleared) and says so on the proofs of their stops and packages. */
export async function markProofFilesDeleted(q: Queryable, rows: Pick<ProofFileRow, 'tenantId' | 'id' | 'ownerKind' | 'ownerId'>[], at: Date): Promise<void> {
  const byTenant = new Map<string, typeof rows>();
  for (const row of rows) byTenant.set(row.tenantId, [...(byTenant.get(row.tenantId) ?? []), row]);
  const stamp = JSON.stringify({ deleted_at: at.toISOString() });
  for (const [tenantId, group] of byTenant) {
    await q
      .update(proofFiles)
      .set({ deletedAt: at, blobKey: null, wrappedKey: null })
      .where(and(eq(proofFiles.tenantId, tenantId), inArray(proofFiles.id, group.map((r) => r.id)), isNull(proofFiles.deletedAt)));
    const stopIds = [...new Set(group.filter((r) => r.ownerKind === 'stop').map((r) => r.ownerId))];
    const packageIds = [...new Set(group.filter((r) => r.ownerKind === 'package').map((r) => r.ownerId))];
    if (stopIds.length) {
      await q
        .update(stops)
        .set({ proof: sql`${stops.proof} || ${stamp}::jsonb` })
        .where(and(eq(stops.tenantId, tenantId), inArray(stops.id, stopIds), sql`${stops.proof} IS NOT NULL`, sql`(${stops.proof} ->> 'deleted_at') IS NULL`));
    }
    if (packageIds.length) {
      await q
        .update(packages)
        .set({ forcedDelivery: sql`jsonb_set(${packages.forcedDelivery}, '{proof}', (${packages.forcedDelivery} -> 'proof') || ${stamp}::jsonb)` })
        .where(and(eq(packages.tenantId, tenantId), inArray(packages.id, packageIds), sql`${packages.forcedDelivery} IS NOT NULL`, sql`(${packages.forcedDelivery} -> 'proof' ->> 'deleted_at') IS NULL`));
    }
  }
}

/** Files still holding a key that `keyId` did not seal, in id order after `after` (master key rotation). */
export async function proofFilesSealedOtherwise(q: Queryable, keyId: string, after: { tenantId: string; id: string } | null, limit: number) {
  const conditions: SQL[] = [isNotNull(proofFiles.wrappedKey), ne(sql`split_part(${proofFiles.wrappedKey}, '.', 2)`, keyId)];
  if (after) conditions.push(sql`(${proofFiles.tenantId}, ${proofFiles.id}) > (${after.tenantId}::uuid, ${after.id}::uuid)`);
  return q
    .select({ tenantId: proofFiles.tenantId, id: proofFiles.id, blobKey: proofFiles.blobKey, wrappedKey: proofFiles.wrappedKey })
    .from(proofFiles)
    .where(and(...conditions))
    .orderBy(asc(proofFiles.tenantId), asc(proofFiles.id))
    .limit(limit);
}

/** Compare-and-set: replaces the wrapped key only if it is still `before` (retention may have cleared it meanwhile). */
export async function replaceWrappedKey(q: Queryable, tenantId: string, id: string, before: string, after: string): Promise<boolean> {
  const rows = await q
    .update(proofFiles)
    .set({ wrappedKey: after })
    .where(and(eq(proofFiles.tenantId, tenantId), eq(proofFiles.id, id), eq(proofFiles.wrappedKey, before)))
    .returning({ id: proofFiles.id });
  return rows.length > 0;
}
