// Identity's doors for reading one user or organization (decision 0219): the permission table (permissions.ts, 403),
// then the read scope — admins read the whole tenant, managers what shares one of their organizations (404 otherwise).
import type { Queryable } from '../../db/client.ts';
import type { Actor } from '../../http/actor.ts';
import { notFound } from '../../http/errors.ts';
import { readScope } from './permissions.ts';
import * as repo from './repository.ts';
import * as orgRepo from './organizations-repository.ts';

/** The user and its organizations, if the caller may read it. */
export async function requireUser(q: Queryable, actor: Actor, id: string): Promise<{ user: repo.UserRow; organizationIds: string[] }> {
  const within = readScope(actor, 'read_users');
  const user = await repo.findUser(q, actor.tenantId, id);
  if (!user) throw notFound('user');
  const organizationIds = (await repo.membershipsOf(q, actor.tenantId, [id])).get(id) ?? [];
  if (within && !organizationIds.some((orgId) => within.includes(orgId))) throw notFound('user');
  return { user, organizationIds };
}

/** The organization, if the caller may read it. */
export async function requireOrganization(q: Queryable, actor: Actor, id: string): Promise<orgRepo.OrganizationRow> {
  const within = readScope(actor, 'read_organizations');
  const row = await orgRepo.findOrganization(q, actor.tenantId, id);
  if (!row || (within && !within.includes(id))) throw notFound('organization');
  return row;
}
