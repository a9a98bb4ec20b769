// The identity permission matrix (CONTRACT.md §3): who manages a tenant's users, organizations, service areas,
// API keys and settings. One table, checked at the top of every operation (403).
import type { Actor, UserRole } from '../../http/actor.ts';
import { forbidden } from '../../http/errors.ts';

export const IDENTITY_ACTIONS = [
  'read_users',
  'manage_users',
  'read_organizations',
  'manage_organizations',
  'manage_service_areas',
  'manage_api_keys',
  'manage_tenant',
] as const;
export type IdentityAction = (typeof IDENTITY_ACTIONS)[number];
export type IdentityPermissions = Record<IdentityAction, boolean>;

const all = (allowed: readonly IdentityAction[]): IdentityPermissions =>
  Object.fromEntries(IDENTITY_ACTIONS.map((action) => [action, allowed.includes(action)])) as IdentityPermissions;

const MATRIX: Record<UserRole, IdentityPermissions> = {
  admin: all(IDENTITY_ACTIONS),
  // Read-only, and only within its organizations (readScope).
  manager: all(['read_users', 'read_organizations']),
  driver: all([]),
  customer: all([]),
};

export const mayOnIdentity = (actor: Pick<Actor, 'role'>, action: IdentityAction): boolean => MATRIX[actor.role][action];

export function requireOnIdentity(actor: Pick<Actor, 'role'>, action: IdentityAction): void {
  if (!mayOnIdentity(actor, action)) throw forbidden();
}

/**
 * The visibility predicate of a read: admins read the whole tenant (undefined), managers what shares one of their
 * organizations. 403 for a role that may not read at all.
 */
export function readScope(actor: Pick<Actor, 'role' | 'organizationIds'>, action: 'read_users' | 'read_organizations'): string[] | undefined {
  requireOnIdentity(actor, action);
  return actor.role === 'admin' ? undefined : actor.organizationIds;
}
