// Tenant settings operations: an admin reads and changes its own tenant; the operator changes any tenant.
import type { Deps } from '../../../deps.ts';
import type { Actor } from '../../../http/actor.ts';
import { invalidateCredentialCache } from '../../../http/auth.ts';
import { notFound } from '../../../http/errors.ts';
import { issueCredential } from './create-tenant.ts';
import { toTenantView, type TenantView } from '../views.ts';
import { identityPermissions } from '../permissions.ts';
import * as repo from '../repository.ts';
import type { AdminTenantUpdate, OperatorTenantUpdate } from '../tenant-schemas.ts';

export async function getOwnTenant(deps: Deps, actor: Actor): Promise<TenantView> {
  identityPermissions.require(actor, 'manage_tenant');
  const row = await repo.findTenant(deps.db, actor.tenantId);
  if (!row) throw notFound('tenant');
  return toTenantView(row);
}

/** PATCH semantics: only the fields given change; settings merge key by key. */
async function applyTenantUpdate(deps: Deps, tenantId: string, input: OperatorTenantUpdate): Promise<TenantView> {
  const updated = await deps.db.transaction(async (tx) => {
    const row = await repo.findTenantForUpdate(tx, tenantId);
    if (!row) throw notFound('tenant');
    await repo.updateTenant(tx, tenantId, {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.extensions !== undefined ? { extensions: input.extensions } : {}),
      ...(input.settings !== undefined ? { settings: { ...row.settings, ...input.settings } } : {}),
    });
    const after = await repo.findTenant(tx, tenantId);
    if (!after) throw notFound('tenant');
    return toTenantView(after);
  });
  // Extensions and settings travel with cached actors (http/auth.ts): a change must apply to the next request.
  invalidateCredentialCache();
  return updated;
}

export async function updateOwnTenant(deps: Deps, actor: Actor, input: AdminTenantUpdate): Promise<TenantView> {
  identityPermissions.require(actor, 'manage_tenant');
  return applyTenantUpdate(deps, actor.tenantId, input);
}

/** The operator is authenticated by OPERATOR_TOKEN at the route; it may change any tenant. */
export async function updateTenantAsOperator(deps: Deps, tenantId: string, input: OperatorTenantUpdate): Promise<TenantView> {
  return applyTenantUpdate(deps, tenantId, input);
}

export type AdminKeyResult =
  | { ok: true; tenant_id: string; tenant_name: string; user_id: string; api_key_id: string; token: string }
  | { ok: false; reason: 'no_tenant' | 'unknown_tenant' | 'several_tenants' | 'no_active_admin'; tenants: { id: string; name: string }[] };

/**
 * `tourbook admin-key create`: a new API key for the tenant's longest-serving active admin. There is no actor: whoever
 * can open the database (the machine that owns it) is trusted, as with `tenant create`. Without a tenant id the only
 * tenant is meant; with several, the caller must choose and is told the candidates.
 */
export async function createAdminKey(deps: Deps, tenantId: string | null): Promise<AdminKeyResult> {
  return deps.db.transaction(async (tx) => {
    const candidates = await repo.listTenantsByAge(tx, 20);
    let tenant = tenantId ? await repo.findTenant(tx, tenantId) : null;
    if (tenantId && !tenant) return { ok: false, reason: 'unknown_tenant', tenants: candidates };
    if (!tenantId) {
      if (candidates.length !== 1) return { ok: false, reason: candidates.length === 0 ? 'no_tenant' : 'several_tenants', tenants: candidates };
      tenant = await repo.findTenant(tx, candidates[0]!.id);
    }
    if (!tenant) return { ok: false, reason: 'unknown_tenant', tenants: candidates };
    const admin = await repo.findFirstActiveAdmin(tx, tenant.id);
    if (!admin) return { ok: false, reason: 'no_active_admin', tenants: [{ id: tenant.id, name: tenant.name }] };
    const { id, token } = await issueCredential(tx, tenant.id, admin.id, 'api_key', deps.clock.now(), { name: 'admin key (tourbook admin-key create)' });
    return { ok: true, tenant_id: tenant.id, tenant_name: tenant.name, user_id: admin.id, api_key_id: id, token };
  });
}
