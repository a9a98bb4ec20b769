// The services permission matrix: tour services and scheduling configs; one table, checked at the top of every operation.
import type { Actor, UserRole } from '../../http/actor.ts';
import { forbidden } from '../../http/errors.ts';

export const SERVICE_ACTIONS = ['read', 'manage'] as const;
export type ServiceAction = (typeof SERVICE_ACTIONS)[number];
export type ServicePermissions = Record<ServiceAction, boolean>;

const all = (allowed: readonly ServiceAction[]): ServicePermissions =>
  Object.fromEntries(SERVICE_ACTIONS.map((action) => [action, allowed.includes(action)])) as ServicePermissions;

const MATRIX: Record<UserRole, ServicePermissions> = {
  admin: all(SERVICE_ACTIONS),
  // Dispatchers read tour services and scheduling configs: they book and dispatch against them.
  manager: all(['read']),
  driver: all([]),
  customer: all([]),
};

export const mayOnServices = (actor: Pick<Actor, 'role'>, action: ServiceAction): boolean => MATRIX[actor.role][action];

export function requireOnServices(actor: Pick<Actor, 'role'>, action: ServiceAction): void {
  if (!mayOnServices(actor, action)) throw forbidden();
}
