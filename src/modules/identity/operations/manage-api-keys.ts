// API keys: admins list, create and revoke them; a revocation applies at once.
import type { Deps } from '../../../deps.ts';
import type { Actor } from '../../../http/actor.ts';
import { invalidateCredentialCache } from '../../../http/auth.ts';
import { notFound, unknownReference } from '../../../http/errors.ts';
import { decodeCursor, toPage, type Page } from '../../../http/pagination.ts';
import { issueCredential } from './create-tenant.ts';
import { identityPermissions } from '../permissions.ts';
import * as repo from '../repository.ts';
import { toApiKeyView, type ApiKeyView } from '../views.ts';

export async function listApiKeys(deps: Deps, actor: Actor, query: { limit?: number; cursor?: string }): Promise<Page<ApiKeyView>> {
  identityPermissions.require(actor, 'manage_api_keys');
  const limit = query.limit ?? 25;
  const [afterId] = decodeCursor(query.cursor) ?? [null];
  const rows = await repo.listApiKeys(deps.db, actor.tenantId, typeof afterId === 'string' ? afterId : null, limit);
  const page = toPage(rows, limit, (row) => [row.id]);
  return { items: page.items.map(toApiKeyView), meta: page.meta };
}

/** The token is in this answer only; the database keeps its SHA-256. */
export async function createApiKey(deps: Deps, actor: Actor, input: { name: string; user_id: string }): Promise<ApiKeyView & { token: string }> {
  identityPermissions.require(actor, 'manage_api_keys');
  return deps.db.transaction(async (tx) => {
    const user = await repo.findUser(tx, actor.tenantId, input.user_id);
    if (!user || user.deactivatedAt) throw unknownReference('/api_key/user_id', 'active user');
    const { id, token } = await issueCredential(tx, actor.tenantId, user.id, 'api_key', deps.clock.now(), { name: input.name });
    const row = await repo.findApiKey(tx, actor.tenantId, id);
    if (!row) throw new Error('API key vanished inside its own transaction');
    return { ...toApiKeyView(row), token };
  });
}

/** Revocation applies at once in this process (and within the auth cache's few seconds in others). */
export async function revokeApiKey(deps: Deps, actor: Actor, id: string): Promise<ApiKeyView> {
  identityPermissions.require(actor, 'manage_api_keys');
  const view = await deps.db.transaction(async (tx) => {
    const row = await repo.findApiKeyForUpdate(tx, actor.tenantId, id);
    if (!row) throw notFound('API key');
    const revokedAt = row.revokedAt ?? deps.clock.now();
    if (!row.revokedAt) await repo.revokeCredential(tx, actor.tenantId, id, revokedAt);
    return toApiKeyView({ ...row, revokedAt });
  });
  invalidateCredentialCache();
  return view;
}
