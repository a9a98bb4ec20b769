// Identity SQL: tenants, users, memberships, credentials (organizations and service areas: organizations-repository.ts).
// Every function takes the handle and tenant id first.
import { and, desc, eq, inArray, isNotNull, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Queryable } from '../../db/client.ts';
import { queryRows } from '../../db/sql.ts';
import type { JsonPart } from '../../db/json-read.ts';
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

/** The tenant row locked for a read-then-write of its name, extensions or settings. */
export async function findTenantForUpdate(q: Queryable, tenantId: string): Promise<TenantRow | null> {
  const [row] = await q.select().from(tenants).where(eq(tenants.id, tenantId)).for('update');
  return row ?? null;
}

/** The first tenants by age (for the CLI, which names them when it must ask which one). */
export async function listTenantsByAge(q: Queryable, limit: number): Promise<Pick<TenantRow, 'id' | 'name'>[]> {
  return q.select({ id: tenants.id, name: tenants.name }).from(tenants).orderBy(tenants.createdAt, tenants.id).limit(limit);
}

/** The tenant's longest-serving active admin. */
export async function findFirstActiveAdmin(q: Queryable, tenantId: string): Promise<UserRow | null> {
  const [row] = await q
    .select()
    .from(users)
    .where(and(eq(users.tenantId, tenantId), eq(users.role, 'admin'), isNull(users.deactivatedAt)))
    .orderBy(users.createdAt, users.id)
    .limit(1);
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
  // An empty PATCH is a no-op (Drizzle refuses an UPDATE with nothing to set).
  if (Object.values(patch).every((v) => v === undefined)) return;
  await q.update(tenants).set(patch).where(eq(tenants.id, tenantId));
}

export async function insertUser(q: Queryable, row: typeof users.$inferInsert): Promise<void> {
  await q.insert(users).values(row);
}

export async function findUser(q: Queryable, tenantId: string, userId: string): Promise<UserRow | null> {
  const [row] = await q.select().from(users).where(and(eq(users.tenantId, tenantId), eq(users.id, userId)));
  return row ?? null;
}

/** A user's name as one part of a combined read (db/json-read.ts); null without the user. */
export const userNameRead = (tenantId: SQL, userId: SQL): JsonPart<string | null> => ({
  sql: sql`(SELECT ${users.name} FROM ${users} WHERE ${users.tenantId} = ${tenantId} AND ${users.id} = ${userId})`,
  decode: (value) => (typeof value === 'string' ? value : null),
});

/** A tenant's name as one part of a combined read: what its recipients see when it has set no sender name (decision 1784). */
export const tenantNameRead = (tenantId: SQL): JsonPart<string | null> => ({
  sql: sql`(SELECT ${tenants.name} FROM ${tenants} WHERE ${tenants.id} = ${tenantId})`,
  decode: (value) => (typeof value === 'string' ? value : null),
});

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
    kind: CredentialRow['kind'];
    user_id: string;
    role: UserRow['role'];
    expires_at: Date | string | null;
    organization_ids: string[] | null;
    extensions: string[];
    settings: { enforce_sunsets: boolean };
  }>(
    q,
    sql`
    SELECT c.tenant_id, c.id AS credential_id, c.kind, u.id AS user_id, u.role, c.expires_at,
           t.extensions, t.settings,
           (SELECT array_agg(m.organization_id ORDER BY m.organization_id) FROM organization_members m
             WHERE m.tenant_id = c.tenant_id AND m.user_id = u.id) AS organization_ids
      FROM credentials c
      JOIN users u ON u.tenant_id = c.tenant_id AND u.id = c.user_id
      JOIN tenants t ON t.id = c.tenant_id
     WHERE c.token_hash = ${tokenHash} AND c.kind <> 'refresh' AND c.revoked_at IS NULL AND u.deactivated_at IS NULL`);
  return rows[0] ?? null;
}


/** Newest first (UUIDv7 ids grow with time): rows after the cursor's id, limit + 1 for has_more. */
const before = (column: AnyPgColumn, afterId: string | null): SQL[] => (afterId ? [lt(column, afterId)] : []);

export interface UserListQuery {
  role?: UserRow['role'] | undefined;
  organizationId?: string | undefined;
  /** Only users in at least one of these organizations (a manager's view). */
  withinOrganizationIds?: string[] | undefined;
  /** true: drivers on a tour; false: drivers without one. */
  onActiveTour?: boolean | undefined;
  afterId: string | null;
  limit: number;
}

const memberOf = (tenantId: string, organizationIds: string[]): SQL =>
  sql`EXISTS (SELECT 1 FROM ${organizationMembers} m WHERE m.tenant_id = ${tenantId} AND m.user_id = ${users.id}
        AND m.organization_id IN (${sql.join(organizationIds.map((id) => sql`${id}::uuid`), sql`, `)}))`;

export async function listUsers(q: Queryable, tenantId: string, query: UserListQuery): Promise<UserRow[]> {
  const conditions: SQL[] = [eq(users.tenantId, tenantId), ...before(users.id, query.afterId)];
  if (query.role) conditions.push(eq(users.role, query.role));
  if (query.organizationId) conditions.push(memberOf(tenantId, [query.organizationId]));
  if (query.withinOrganizationIds) {
    if (!query.withinOrganizationIds.length) return [];
    conditions.push(memberOf(tenantId, query.withinOrganizationIds));
  }
  if (query.onActiveTour !== undefined) {
    conditions.push(eq(users.role, 'driver'), query.onActiveTour ? isNotNull(users.activeTourId) : isNull(users.activeTourId));
  }
  return q.select().from(users).where(and(...conditions)).orderBy(desc(users.id)).limit(query.limit + 1);
}

export async function findUserForUpdate(q: Queryable, tenantId: string, userId: string): Promise<UserRow | null> {
  const [row] = await q.select().from(users).where(and(eq(users.tenantId, tenantId), eq(users.id, userId))).for('update');
  return row ?? null;
}

export async function findUserByEmailInTenant(q: Queryable, tenantId: string, email: string): Promise<UserRow | null> {
  const [row] = await q.select().from(users).where(and(eq(users.tenantId, tenantId), eq(users.email, email.toLowerCase())));
  return row ?? null;
}

export async function updateUser(
  q: Queryable,
  tenantId: string,
  userId: string,
  patch: Partial<Pick<UserRow, 'role' | 'name' | 'email' | 'phoneNumber' | 'passwordHash' | 'deactivatedAt'>>,
): Promise<void> {
  if (!Object.keys(patch).length) return;
  await q.update(users).set(patch).where(and(eq(users.tenantId, tenantId), eq(users.id, userId)));
}

export async function revokeUserCredentials(
  q: Queryable,
  tenantId: string,
  userId: string,
  at: Date,
  kinds: CredentialRow['kind'][] = ['api_key', 'access', 'refresh', 'session'],
): Promise<void> {
  await q
    .update(credentials)
    .set({ revokedAt: at })
    .where(
      and(eq(credentials.tenantId, tenantId), eq(credentials.userId, userId), inArray(credentials.kind, kinds), isNull(credentials.revokedAt)),
    );
}

export async function listApiKeys(q: Queryable, tenantId: string, afterId: string | null, limit: number): Promise<CredentialRow[]> {
  return q
    .select()
    .from(credentials)
    .where(and(eq(credentials.tenantId, tenantId), eq(credentials.kind, 'api_key'), ...before(credentials.id, afterId)))
    .orderBy(desc(credentials.id))
    .limit(limit + 1);
}

export async function findApiKeyForUpdate(q: Queryable, tenantId: string, id: string): Promise<CredentialRow | null> {
  const [row] = await q
    .select()
    .from(credentials)
    .where(and(eq(credentials.tenantId, tenantId), eq(credentials.id, id), eq(credentials.kind, 'api_key')))
    .for('update');
  return row ?? null;
}

export async function findApiKey(q: Queryable, tenantId: string, id: string): Promise<CredentialRow | null> {
  const [row] = await q
    .select()
    .from(credentials)
    .where(and(eq(credentials.tenantId, tenantId), eq(credentials.id, id), eq(credentials.kind, 'api_key')));
  return row ?? null;
}

export async function revokeCredential(q: Queryable, tenantId: string, id: string, at: Date): Promise<void> {
  await q
    .update(credentials)
    .set({ revokedAt: at })
    .where(and(eq(credentials.tenantId, tenantId), eq(credentials.id, id)));
}

/** Revokes every still-valid token of a sign-in's family (refresh-token reuse, signing a browser session out). */
export async function revokeTokenFamily(q: Queryable, tenantId: string, familyId: string, at: Date): Promise<void> {
  await q
    .update(credentials)
    .set({ revokedAt: at })
    .where(and(eq(credentials.tenantId, tenantId), or(eq(credentials.familyId, familyId), eq(credentials.id, familyId)), isNull(credentials.revokedAt)));
}

/** A browser session's credential by its token (sign-out comes before the tenant is known), revoked or not. */
export async function findSessionCredential(q: Queryable, tokenHash: string): Promise<CredentialRow | null> {
  const [row] = await q
    .select()
    .from(credentials)
    .where(and(eq(credentials.tokenHash, tokenHash), eq(credentials.kind, 'session')));
  return row ?? null;
}

/** Refresh tokens are presented before the tenant is known: looked up by the global token-hash index, then locked. */
export async function findRefreshTokenForUpdate(q: Queryable, tokenHash: string): Promise<CredentialRow | null> {
  const [row] = await q
    .select()
    .from(credentials)
    .where(and(eq(credentials.tokenHash, tokenHash), eq(credentials.kind, 'refresh')))
    .for('update');
  return row ?? null;
}

// --- read by other modules (through index.ts)

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

/**
 * The active people a report's grants name (reports notify them): every admin when `admins`, the managers of
 * `managerOrganizationIds`, and `userIds` — each person once, with its e-mail address.
 */
export async function grantAudience(
  q: Queryable,
  tenantId: string,
  audience: { admins: boolean; managerOrganizationIds: string[]; userIds: string[] },
): Promise<{ id: string; email: string }[]> {
  const orgs = audience.managerOrganizationIds;
  const rows = await queryRows<{ id: string; email: string }>(
    q,
    sql`SELECT u.id, u.email FROM users u
         WHERE u.tenant_id = ${tenantId} AND u.deactivated_at IS NULL
           AND ((${audience.admins} AND u.role = 'admin')
             OR u.id = ANY(${`{${audience.userIds.join(',')}}`}::uuid[])
             OR (u.role = 'manager' AND EXISTS (
                   SELECT 1 FROM organization_members m
                    WHERE m.tenant_id = u.tenant_id AND m.user_id = u.id AND m.organization_id = ANY(${`{${orgs.join(',')}}`}::uuid[]))))
         ORDER BY u.id`,
  );
  return rows;
}
