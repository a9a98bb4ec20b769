// Identity SQL: tenants, users, memberships, credentials. Every function takes the handle and tenant id first.
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { queryRows } from '../../db/sql.ts';
import { credentials, organizationMembers, tenants, users } from './tables.ts';

export type TenantRow = typeof tenants.$inferSelect;
export type UserRow = typeof users.$inferSelect;
export type CredentialRow = typeof credentials.$inferSelect;

export async function insertTenant(q: Queryable, row: typeof tenants.$inferInsert): Promise<void> {
  await q.insert(tenants).values(row);
}

export async function findTenant(q: Queryable, tenantId: string): Promise<TenantRow | null> {
  const [row] = await q.select().from(tenants).where(eq(tenants.id, tenantId));
  return row ?? null;
}

export async function countTenants(q: Queryable): Promise<number> {
  const [row] = await q.select({ n: sql<number>`count(*)::int` }).from(tenants);
  return row?.n ?? 0;
}

export async function updateTenant(
  q: Queryable,
  tenantId: string,
  patch: Partial<Pick<TenantRow, 'name' | 'extensions' | 'settings'>>,
): Promise<void> {
  await q.update(tenants).set(patch).where(eq(tenants.id, tenantId));
}

export async function insertUser(q: Queryable, row: typeof users.$inferInsert): Promise<void> {
  await q.insert(users).values(row);
}

export async function findUser(q: Queryable, tenantId: string, userId: string): Promise<UserRow | null> {
  const [row] = await q.select().from(users).where(and(eq(users.tenantId, tenantId), eq(users.id, userId)));
  return row ?? null;
}

export async function findUserByEmail(q: Queryable, tenantId: string | null, email: string): Promise<UserRow[]> {
  const conditions = [eq(users.email, email.toLowerCase()), isNull(users.deactivatedAt)];
  if (tenantId) conditions.push(eq(users.tenantId, tenantId));
  return q.select().from(users).where(and(...conditions));
}

export async function setMemberships(q: Queryable, tenantId: string, userId: string, organizationIds: string[]): Promise<void> {
  await q.delete(organizationMembers).where(and(eq(organizationMembers.tenantId, tenantId), eq(organizationMembers.userId, userId)));
  if (organizationIds.length) {
    await q.insert(organizationMembers).values(organizationIds.map((organizationId) => ({ tenantId, organizationId, userId })));
  }
}

export async function membershipsOf(q: Queryable, tenantId: string, userIds: string[]): Promise<Map<string, string[]>> {
  const result = new Map<string, string[]>(userIds.map((id) => [id, []]));
  if (!userIds.length) return result;
  const rows = await q
    .select()
    .from(organizationMembers)
    .where(and(eq(organizationMembers.tenantId, tenantId), inArray(organizationMembers.userId, userIds)));
  for (const row of rows) result.get(row.userId)?.push(row.organizationId);
  for (const list of result.values()) list.sort();
  return result;
}

export async function insertCredential(q: Queryable, row: typeof credentials.$inferInsert): Promise<void> {
  await q.insert(credentials).values(row);
}

/** One query resolves a token to its user, role, organizations and tenant. */
export async function findCredentialWithActor(q: Queryable, tokenHash: string) {
  const rows = await queryRows<{
    tenant_id: string;
    credential_id: string;
    user_id: string;
    role: UserRow['role'];
    expires_at: Date | string | null;
    organization_ids: string[] | null;
    extensions: string[];
    settings: { enforce_sunsets: boolean };
  }>(
    q,
    sql`
    SELECT c.tenant_id, c.id AS credential_id, u.id AS user_id, u.role, c.expires_at,
           t.extensions, t.settings,
           (SELECT array_agg(m.organization_id ORDER BY m.organization_id) FROM organization_members m
             WHERE m.tenant_id = c.tenant_id AND m.user_id = u.id) AS organization_ids
      FROM credentials c
      JOIN users u ON u.tenant_id = c.tenant_id AND u.id = c.user_id
      JOIN tenants t ON t.id = c.tenant_id
     WHERE c.token_hash = ${tokenHash} AND c.revoked_at IS NULL AND u.deactivated_at IS NULL`);
  return rows[0] ?? null;
}
