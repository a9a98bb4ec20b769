// Tenant settings operations: an admin reads and changes its own tenant; the operator changes any tenant.
import type { Deps } from '../../deps.ts';
import { isAdmin, type Actor } from '../../http/actor.ts';
import { invalidateCredentialCache } from '../../http/auth.ts';
import { forbidden, notFound } from '../../http/errors.ts';
import { toTenantView, type TenantView } from './operations.ts';
import * as repo from './repository.ts';
import type { AdminTenantUpdate, OperatorTenantUpdate } from './tenant-schemas.ts';

export async function getOwnTenant(deps: Deps, actor: Actor): Promise<TenantView> {
  if (!isAdmin(actor)) throw forbidden();
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
  if (!isAdmin(actor)) throw forbidden();
  return applyTenantUpdate(deps, actor.tenantId, input);
}

/** The operator is authenticated by OPERATOR_TOKEN at the route; it may change any tenant. */
export async function updateTenantAsOperator(deps: Deps, tenantId: string, input: OperatorTenantUpdate): Promise<TenantView> {
  return applyTenantUpdate(deps, tenantId, input);
}
