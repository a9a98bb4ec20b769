// What a booking refers to, checked: its service and its managing organizations (422 unknown_reference otherwise).
import type { Queryable } from '../../../db/client.ts';
import { unknownReference } from '../../../http/errors.ts';
import { findOrganizations } from '../../identity/index.ts';
import { getService, type ServiceConfig } from '../../services/index.ts';

export async function serviceOrReject(tx: Queryable, tenantId: string, id: string, pointer: string): Promise<ServiceConfig> {
  const service = await getService(tx, tenantId, id);
  if (!service) throw unknownReference(pointer, 'service');
  return service;
}

/** `visible`: the organizations the caller may name (a manager's own, decision 0202); others answer like unknown ones. */
export async function checkOrganizations(tx: Queryable, tenantId: string, ids: string[], pointer: string, visible: string[] | null = null): Promise<void> {
  const found = new Set((await findOrganizations(tx, tenantId, ids)).map((o) => o.id));
  ids.forEach((id, i) => {
    if (!found.has(id) || (visible && !visible.includes(id))) throw unknownReference(`${pointer}/${i}`, 'organization');
  });
}
