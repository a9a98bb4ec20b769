// The dispatch permission matrix (CONTRACT.md §4–§5): what each role may ever do, checked at the top of every
// operation (403). Whether it may do it on one booking or tour is the visibility rule's (visibility.ts, 404).
import type { Actor, UserRole } from '../../http/actor.ts';
import { forbidden } from '../../http/errors.ts';

export const DISPATCH_ACTIONS = [
  /** POST /bookings. */
  'create_booking',
  /** PUT/DELETE a booking's tip. */
  'tip',
  /** Cancel bookings, set managing organizations and preferred drivers, add and change stops, merge and insert into
   * tours, remove and force packages, and the dispatcher's tour transitions. */
  'dispatch',
  /** The driver's tour transitions (claim, pick, start, …) and stop steps. */
  'drive',
  'list_tours',
  /** GET /tours/{id}/visibility. */
  'explain_visibility',
] as const;
export type DispatchAction = (typeof DISPATCH_ACTIONS)[number];
export type DispatchPermissions = Record<DispatchAction, boolean>;

const all = (allowed: readonly DispatchAction[]): DispatchPermissions =>
  Object.fromEntries(DISPATCH_ACTIONS.map((action) => [action, allowed.includes(action)])) as DispatchPermissions;

const MATRIX: Record<UserRole, DispatchPermissions> = {
  admin: all(['create_booking', 'tip', 'dispatch', 'list_tours', 'explain_visibility']),
  // A manager dispatches what it sees (visibility.ts).
  manager: all(['create_booking', 'tip', 'dispatch', 'list_tours']),
  driver: all(['drive', 'list_tours']),
  customer: all(['create_booking', 'tip']),
};

export const mayOnDispatch = (actor: Pick<Actor, 'role'>, action: DispatchAction): boolean => MATRIX[actor.role][action];

export function requireOnDispatch(actor: Pick<Actor, 'role'>, action: DispatchAction): void {
  if (!mayOnDispatch(actor, action)) throw forbidden();
}

/** Customers book for themselves: their bookings' customer is them, and they see no one else's. */
export const ownBookingsOnly = (actor: Pick<Actor, 'role'>): boolean => actor.role === 'customer';

/** A manager's new booking is managed by its organizations unless told otherwise; anyone else's by none. */
export const defaultManagingOrganizationIds = (actor: Pick<Actor, 'role' | 'organizationIds'>): string[] =>
  actor.role === 'manager' ? actor.organizationIds : [];

/** The visibility predicate as a list filter (the stored visibility of decision 0300): which bookings a role lists. */
export function bookingListScope(actor: Pick<Actor, 'role' | 'userId' | 'organizationIds'>):
  | { visibleToOrganizationIds: string[] }
  | { onToursOfDriver: string }
  | { customerId: string }
  | Record<string, never> {
  switch (actor.role) {
    case 'admin':
      return {};
    case 'manager':
      return { visibleToOrganizationIds: actor.organizationIds };
    case 'driver':
      return { onToursOfDriver: actor.userId };
    case 'customer':
      return { customerId: actor.userId };
  }
}

/** The visibility predicate as a list filter: which tours a role lists (customers list none: 403 before). */
export function tourListScope(actor: Pick<Actor, 'role' | 'userId' | 'organizationIds'>):
  | { visibleToOrganizationIds: string[] }
  | { driver: { id: string; organizationIds: string[] } }
  | Record<string, never> {
  switch (actor.role) {
    case 'manager':
      return { visibleToOrganizationIds: actor.organizationIds };
    case 'driver':
      return { driver: { id: actor.userId, organizationIds: actor.organizationIds } };
    default:
      return {};
  }
}
