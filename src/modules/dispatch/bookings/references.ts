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

export async function checkOrganizations(tx: Queryable, tenantId: string, ids: string[], pointer: string): Promise<void> {
  const found = new Set((await findOrganizations(tx, tenantId, ids)).map((o) => o.id));
  ids.forEach((id, i) => {
    if (!found.has(id)) throw unknownReference(`${pointer}/${i}`, 'organization');
  });
}
