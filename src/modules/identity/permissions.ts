// The identity permission matrix (docs/api-guide.md "Users and authentication"): who manages a tenant's users, organizations, service areas,
// API keys and settings. One table, checked at the top of every operation (403).
import type { Actor } from '../../http/actor.ts';
import { permissionTable } from '../../http/permission-table.ts';

export const identityPermissions = permissionTable({
  admin: ['read_users', 'manage_users', 'read_organizations', 'manage_organizations', 'read_service_areas', 'manage_service_areas', 'manage_api_keys', 'manage_tenant'],
  // Read-only: users and organizations within its organizations (readScope); service areas for their time zone and
  // currency, which every date and amount a dispatcher reads is shown in (decision 1001).
  manager: ['read_users', 'read_organizations', 'read_service_areas'],
  driver: [],
  customer: [],
});

/**
 * The visibility predicate of a read: admins read the whole tenant (undefined), managers what shares one of their
 * organizations. 403 for a role that may not read at all.
 */
export function readScope(actor: Pick<Actor, 'role' | 'organizationIds'>, action: 'read_users' | 'read_organizations'): string[] | undefined {
  identityPermissions.require(actor, action);
  return actor.role === 'admin' ? undefined : actor.organizationIds;
}
