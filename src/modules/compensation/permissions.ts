// The compensation permission matrix (docs/api-guide.md "Tour compensation, tips and legacy earnings"): one table, checked at the top of every operation.
import type { Actor, UserRole } from '../../http/actor.ts';

export const COMPENSATION_ACTIONS = ['show', 'write', 'history', 'resume_tips', 'legacy_earnings'] as const;
export type CompensationAction = (typeof COMPENSATION_ACTIONS)[number];
export type CompensationPermissions = Record<CompensationAction, boolean>;

const all = (allowed: readonly CompensationAction[]): CompensationPermissions =>
  Object.fromEntries(COMPENSATION_ACTIONS.map((action) => [action, allowed.includes(action)])) as CompensationPermissions;

/** Admins and managers act on the tours they see; a driver reads the compensation of its own tours only. */
const MATRIX: Record<UserRole, CompensationPermissions> = {
  admin: all(COMPENSATION_ACTIONS),
  manager: all(COMPENSATION_ACTIONS),
  driver: all(['show']),
  customer: all([]),
};

export const mayOnCompensation = (actor: Pick<Actor, 'role'>, action: CompensationAction): boolean => MATRIX[actor.role][action];

/** A driver sees a tour it could claim, but its pay is that of the tours it drives (or drove). */
export const ownToursOnly = (actor: Pick<Actor, 'role'>): boolean => actor.role === 'driver';
