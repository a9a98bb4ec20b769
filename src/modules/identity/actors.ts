// Resolving a credential to the actor it authenticates (the auth layer's one read of identity).
import type { Queryable } from '../../db/client.ts';
import type { Actor } from '../../http/actor.ts';
import { findCredentialWithActor } from './repository.ts';

export async function findActiveCredential(
  q: Queryable,
  tokenHash: string,
): Promise<(Omit<Actor, 'lang'> & { expiresAt: number | null; kind: string }) | null> {
  const row = await findCredentialWithActor(q, tokenHash);
  if (!row) return null;
  return {
    tenantId: row.tenant_id,
    userId: row.user_id,
    role: row.role,
    organizationIds: row.organization_ids ?? [],
    credentialId: row.credential_id,
    apiKeyId: row.kind === 'api_key' ? row.credential_id : null,
    extensions: row.extensions,
    settings: row.settings,
    expiresAt: row.expires_at === null ? null : new Date(row.expires_at).getTime(),
    kind: row.kind,
  };
}
