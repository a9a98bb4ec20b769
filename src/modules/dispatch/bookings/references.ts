// What a booking refers to, checked: its service and its managing organizations (422 unknown_reference otherwise).
import type { Queryable } from '../../../db/client.ts';
import type { Actor } from '../../../http/actor.ts';
import { unknownReference, unprocessable } from '../../../http/errors.ts';
import { findOrganizations } from '../../identity/index.ts';
import { getService, type ServiceConfig } from '../../services/index.ts';
import { keepsOwnManagement } from '../permissions.ts';

export async function serviceOrReject(tx: Queryable, tenantId: string, id: string, pointer: string): Promise<ServiceConfig> {
  const service = await getService(tx, tenantId, id);
  if (!service) throw unknownReference(pointer, 'service');
  return service;
}

export async function checkOrganizations(tx: Queryable, tenantId: string, ids: string[], pointer: string): Promise<void> {
  const found = new Set((await findOrganizations(tx, tenantId, ids)).map((o) => o.id));
  ids.forEach((id, i) => {
    if (!found.has(id)) throw unknownReference(`${pointer}/${i}`, 'organization');
  });
}

/**
 * A booking's managing organizations as the caller sets them, on create and on PUT: every one must exist, and a
 * manager's list must keep one of the manager's own organizations. A manager cannot hand a booking away from itself:
 * the write would be saved and then answered 404 (decision 0205; API guide "Tip, managing organizations and
 * preferred drivers"). Checked before anything is written.
 */
export async function checkManagingOrganizations(
  tx: Queryable,
  actor: Pick<Actor, 'tenantId' | 'role' | 'organizationIds'>,
  ids: string[],
  pointer: string,
): Promise<void> {
  await checkOrganizations(tx, actor.tenantId, ids, pointer);
  if (keepsOwnManagement(actor, ids)) return;
  const detail = 'must include one of your own organizations: a manager cannot hand a booking away from itself';
  throw unprocessable('must_include_own_organization', `managing_organization_ids ${detail}.`, [{ pointer, code: 'must_include_own_organization', detail }]);
}
