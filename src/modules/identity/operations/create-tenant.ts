// Creating a tenant with its first admin and that admin's API key, and issuing credentials of every kind.
// (Every credential comes from issueCredential: sign-in, browser sessions, API keys and the tenant's first admin.)
import { sql } from 'drizzle-orm';
import type { Deps } from '../../../deps.ts';
import { newId } from '../../../shared/ids.ts';
import { randomBase62, sha256Hex } from '../../../shared/secrets.ts';
import type { Tx } from '../../../db/client.ts';
import * as repo from '../repository.ts';
import type { TenantCreateInput } from '../schemas.ts';
import { toTenantView, type TenantView } from '../views.ts';

const PREFIXES: Record<repo.CredentialRow['kind'], string> = { api_key: 'tb_', access: 'tba_', refresh: 'tbr_', session: 'tbs_' };

/** Issues a credential inside the caller's transaction and returns the token (shown once). */
export async function issueCredential(
  tx: Tx,
  tenantId: string,
  userId: string,
  kind: repo.CredentialRow['kind'],
  at: Date,
  options: { name?: string | null; token?: string; expiresAt?: Date | null; familyId?: string } = {},
): Promise<{ id: string; token: string }> {
  const prefix = PREFIXES[kind];
  const token = options.token ?? `${prefix}${randomBase62(kind === 'api_key' ? 32 : 40)}`;
  const id = newId();
  await repo.insertCredential(tx, {
    tenantId,
    id,
    userId,
    kind,
    name: options.name ?? null,
    tokenHash: sha256Hex(token),
    tokenPrefix: token.slice(0, prefix.length + 4),
    expiresAt: options.expiresAt ?? null,
    familyId: options.familyId ?? null,
    createdAt: at,
  });
  return { id, token };
}

export interface CreatedTenant {
  tenant: TenantView;
  admin_user_id: string;
  admin_token: string;
}

/** A tenant, its first admin user and that admin's API key, in one transaction. */
export async function createTenant(deps: Deps, input: TenantCreateInput, options: { adminToken?: string } = {}): Promise<CreatedTenant> {
  return deps.db.transaction((tx) => insertTenantWithAdmin(deps, tx, input, options));
}

/** The advisory lock of the bootstrap tenant's creation: any fixed number no other lock of ours uses. */
const BOOTSTRAP_LOCK = 260_001;

/**
 * The bootstrap tenant, when there is no tenant yet; null when there is one. Processes starting together against one
 * database queue on a transaction-scoped advisory lock, so exactly one of them creates it (decision 1405).
 */
export async function createBootstrapTenant(deps: Deps, options: { adminToken?: string } = {}): Promise<CreatedTenant | null> {
  return deps.db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${BOOTSTRAP_LOCK})`);
    if ((await repo.countTenants(tx)) > 0) return null;
    return insertTenantWithAdmin(deps, tx, { name: 'Bootstrap' }, options);
  });
}

async function insertTenantWithAdmin(deps: Deps, tx: Tx, input: TenantCreateInput, options: { adminToken?: string }): Promise<CreatedTenant> {
  const at = deps.clock.now();
  const tenantId = newId();
  const adminId = newId();
  await repo.insertTenant(tx, {
    id: tenantId,
    name: input.name,
    extensions: input.extensions ?? [],
    settings: { enforce_sunsets: false },
    createdAt: at,
  });
  await repo.insertUser(tx, {
    tenantId,
    id: adminId,
    role: 'admin',
    name: `${input.name} admin`,
    email: (input.admin_email ?? `admin@${tenantId}.tourbook.local`).toLowerCase(),
    createdAt: at,
  });
  await deps.hooks.identity.tenantCreated(tx, tenantId, at);
  const { token } = await issueCredential(tx, tenantId, adminId, 'api_key', at, {
    name: 'first admin key',
    ...(options.adminToken ? { token: options.adminToken } : {}),
  });
  const tenant = await repo.findTenant(tx, tenantId);
  if (!tenant) throw new Error('tenant vanished inside its own transaction');
  return { tenant: toTenantView(tenant), admin_user_id: adminId, admin_token: token };
}
