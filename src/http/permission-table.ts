// A module's role × action permission table (docs/architecture.md "Modules and who calls whom"; places/permissions.ts spells one out by hand): which actions
// each role may ever take, checked at the top of every operation (403). Visibility of one resource (404) is the
// module's own predicate.
import type { Actor, UserRole } from './actor.ts';
import { forbidden } from './errors.ts';

export interface PermissionTable<A extends string> {
  may(actor: Pick<Actor, 'role'>, action: A): boolean;
  /** 403 unless the caller's role may take the action. */
  require(actor: Pick<Actor, 'role'>, action: A): void;
}

/** The actions each role may take; the action names are the union of those listed. */
export function permissionTable<const T extends Record<UserRole, readonly string[]>>(allowed: T): PermissionTable<T[UserRole][number]> {
  const may = (actor: Pick<Actor, 'role'>, action: T[UserRole][number]): boolean => allowed[actor.role].includes(action);
  return {
    may,
    require(actor, action) {
      if (!may(actor, action)) throw forbidden();
    },
  };
}
