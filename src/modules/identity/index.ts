// What other modules may use of identity: credential resolution, user and organization look-ups.
import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { queryRows } from '../../db/sql.ts';
import type { Actor } from '../../http/actor.ts';
import { findCredentialWithActor } from './repository.ts';
import { tenants, users } from './tables.ts';

export { findUser, membershipsOf, findTenant, findOrganization, findOrganizations, findServiceArea, findServiceAreas } from './repository.ts';
export type { UserRow, OrganizationRow, ServiceAreaRow } from './repository.ts';
export type { IdentityHooks } from './hooks.ts';

/** E-mail addresses of the tenant's active admins (for notices such as a disabled webhook). */
export async function adminEmails(q: Queryable, tenantId: string): Promise<string[]> {
  const rows = await q
    .select({ email: users.email })
    .from(users)
    .where(and(eq(users.tenantId, tenantId), eq(users.role, 'admin'), isNull(users.deactivatedAt)))
    .orderBy(users.email);
  return rows.map((row) => row.email);
}

/**
 * The id and extensions of the tenants `ids` (a sub-select) names, as one part of another module's statement: the
 * webhook fan-out reads them with the events it claims, in one round trip.
 */
export const tenantExtensionsRead = (ids: SQL): SQL => sql`SELECT id, extensions FROM tenants WHERE id IN (${ids})`;

/** Ids of the tenants that have a paid extension enabled (the busyness tick visits only these). */
export async function tenantsWithExtension(q: Queryable, extension: string): Promise<string[]> {
  const rows = await q.select({ id: tenants.id }).from(tenants).where(sql`${extension} = ANY(${tenants.extensions})`).orderBy(tenants.id);
  return rows.map((row) => row.id);
}

export async function findActiveCredential(
  q: Queryable,
  tokenHash: string,
): Promise<(Omit<Actor, 'lang'> & { expiresAt: number | null }) | null> {
  const row = await findCredentialWithActor(q, tokenHash);
  if (!row) return null;
  return {
    tenantId: row.tenant_id,
    userId: row.user_id,
    role: row.role,
    organizationIds: row.organization_ids ?? [],
    credentialId: row.credential_id,
    extensions: row.extensions,
    settings: row.settings,
    expiresAt: row.expires_at === null ? null : new Date(row.expires_at).getTime(),
  };
}

/**
 * Points a driver's active_tour_id at its en_route tour (or clears it), in the caller's transaction. Taking a tour
 * succeeds only while the driver has none or already has this one: the row update is the lock that keeps a
 * driver on at most one en_route tour. Returns false when the driver is busy with another tour.
 */
export async function setActiveTour(q: Queryable, tenantId: string, userId: string, tourId: string | null): Promise<boolean> {
  const busyElsewhere = tourId ? sql`AND (active_tour_id IS NULL OR active_tour_id = ${tourId})` : sql``;
  const rows = await queryRows(
    q,
    sql`UPDATE users SET active_tour_id = ${tourId} WHERE tenant_id = ${tenantId} AND id = ${userId} ${busyElsewhere} RETURNING id`,
  );
  return rows.length === 1;
}
