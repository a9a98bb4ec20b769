// The dispatch permission matrix (docs/api-guide.md "Who sees what"): what each role may ever do, checked at the top of every
// operation (403). Whether it may do it on one booking or tour is the visibility rule's (visibility.ts, 404).
import type { Actor } from '../../http/actor.ts';
import { permissionTable } from '../../http/permission-table.ts';

export const dispatchPermissions = permissionTable({
  admin: ['create_booking', 'tip', 'dispatch', 'list_tours', 'explain_visibility', 'tracking_link', 'booking_events'],
  // A manager dispatches what it sees (visibility.ts).
  manager: ['create_booking', 'tip', 'dispatch', 'list_tours', 'tracking_link', 'booking_events'],
  // `drive`: the driver's tour transitions (claim, pick, start, …). `dispatch`: cancelling bookings, managing
  // organizations and preferred drivers, adding and changing stops, merge and insert, removing and forcing packages,
  // and the dispatcher's tour transitions.
  // `tracking_link`: a booking's recipient link (decision 1100), never a driver's to see or rotate.
  // `booking_events`: a booking's timeline, the dispatchers' (decision 1662): it names who acted and what the
  // recipient was sent.
  driver: ['drive', 'list_tours'],
  customer: ['create_booking', 'tip', 'tracking_link'],
});

/** Customers book for themselves: their bookings' customer is them, and they see no one else's. */
export const ownBookingsOnly = (actor: Pick<Actor, 'role'>): boolean => actor.role === 'customer';

/** A manager's new booking is managed by its organizations unless told otherwise; anyone else's by none. */
export const defaultManagingOrganizationIds = (actor: Pick<Actor, 'role' | 'organizationIds'>): string[] =>
  actor.role === 'manager' ? actor.organizationIds : [];

/** A manager cannot hand a booking away from itself (decision 0205): the managing organizations it sets include one of its own. */
export const keepsOwnManagement = (actor: Pick<Actor, 'role' | 'organizationIds'>, organizationIds: readonly string[]): boolean =>
  actor.role !== 'manager' || organizationIds.some((id) => actor.organizationIds.includes(id));

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
