// The failures permission matrix: who may fail a stop at all, and who manages the tenant's package failure reasons.
import type { Actor, UserRole } from '../../http/actor.ts';
import { forbidden } from '../../http/errors.ts';

export const FAILURE_ACTIONS = ['fail_stop', 'manage_reasons'] as const;
export type FailureAction = (typeof FAILURE_ACTIONS)[number];
export type FailurePermissions = Record<FailureAction, boolean>;

const all = (allowed: readonly FailureAction[]): FailurePermissions =>
  Object.fromEntries(FAILURE_ACTIONS.map((action) => [action, allowed.includes(action)])) as FailurePermissions;

const MATRIX: Record<UserRole, FailurePermissions> = {
  admin: all(FAILURE_ACTIONS),
  // Whether a manager or driver may fail this stop, and with which outcome, is failure-options.ts' decision.
  manager: all(['fail_stop']),
  driver: all(['fail_stop']),
  customer: all([]),
};

export const mayOnFailures = (actor: Pick<Actor, 'role'>, action: FailureAction): boolean => MATRIX[actor.role][action];

export function requireOnFailures(actor: Pick<Actor, 'role'>, action: FailureAction): void {
  if (!mayOnFailures(actor, action)) throw forbidden();
}
