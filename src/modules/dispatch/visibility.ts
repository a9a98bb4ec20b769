// Who sees a tour or a booking (docs/api-guide.md "Who sees what", docs/api-guide.md "Who sees what").
// The same decision is stored per organization (tour_visibility, booking_visibility) for list queries.
import type { Actor } from '../../http/actor.ts';
import type { TourStatus } from './tables.ts';

export type VisibilityReason = 'executing_driver' | 'managing_organization' | 'no_managing_organizations';

export interface TourFacts {
  status: TourStatus;
  driverId: string | null;
  /** Kept after completion or cancellation with a driver; cleared when the driver leaves. */
  executingOrganizationId: string | null;
  managingOrganizationIds: readonly string[];
  preferredDriverIds: readonly string[];
}

export interface BookingFacts {
  customerId: string | null;
  managingOrganizationIds: readonly string[];
  /** The tours holding any of its stops. */
  tours: readonly TourFacts[];
}

export interface OrganizationsThatSee {
  organizationIds: string[];
  reason: VisibilityReason;
}

type Viewer = Pick<Actor, 'role' | 'userId' | 'organizationIds'>;

/** A tour with an executing driver is its organization's alone; otherwise its managing organizations'. */
export function tourOrganizations(tour: TourFacts): OrganizationsThatSee {
  if (tour.executingOrganizationId) return { organizationIds: [tour.executingOrganizationId], reason: 'executing_driver' };
  if (tour.managingOrganizationIds.length) return { organizationIds: [...tour.managingOrganizationIds], reason: 'managing_organization' };
  return { organizationIds: [], reason: 'no_managing_organizations' };
}

/** A booking belongs to the organizations executing any of its tours (split bookings: all of them), else its managers. */
export function bookingOrganizations(booking: BookingFacts): OrganizationsThatSee {
  const executing = [...new Set(booking.tours.map((t) => t.executingOrganizationId).filter((id): id is string => id !== null))].sort();
  if (executing.length) return { organizationIds: executing, reason: 'executing_driver' };
  if (booking.managingOrganizationIds.length) return { organizationIds: [...booking.managingOrganizationIds], reason: 'managing_organization' };
  return { organizationIds: [], reason: 'no_managing_organizations' };
}

/** A driver may take a waiting tour of its organization's (or of nobody's), if it is preferred where drivers are preferred. */
export function isEligibleDriver(viewer: Viewer, tour: TourFacts): boolean {
  const orgOk = !tour.managingOrganizationIds.length || tour.managingOrganizationIds.some((id) => viewer.organizationIds.includes(id));
  const preferredOk = !tour.preferredDriverIds.length || tour.preferredDriverIds.includes(viewer.userId);
  return viewer.role === 'driver' && orgOk && preferredOk;
}

const overlaps = (a: readonly string[], b: readonly string[]): boolean => a.some((id) => b.includes(id));

export function canSeeTour(viewer: Viewer, tour: TourFacts): boolean {
  switch (viewer.role) {
    case 'admin':
      return true;
    case 'customer':
      return false;
    case 'manager':
      return overlaps(tourOrganizations(tour).organizationIds, viewer.organizationIds);
    case 'driver':
      if (tour.driverId === viewer.userId) return true;
      return !tour.driverId && (tour.status === 'scheduled' || tour.status === 'pickable') && isEligibleDriver(viewer, tour);
  }
}

/** Admins see every booking and customers their own, whichever tours hold it: decided without reading them (else null). */
export function seesBookingWithoutTours(viewer: Viewer, booking: Pick<BookingFacts, 'customerId'>): boolean | null {
  if (viewer.role === 'admin') return true;
  if (viewer.role === 'customer') return booking.customerId === viewer.userId;
  return null;
}

export function canSeeBooking(viewer: Viewer, booking: BookingFacts): boolean {
  switch (viewer.role) {
    case 'admin':
      return true;
    case 'customer':
      return booking.customerId === viewer.userId;
    case 'manager':
      return overlaps(bookingOrganizations(booking).organizationIds, viewer.organizationIds);
    case 'driver':
      return booking.tours.some((tour) => tour.driverId === viewer.userId);
  }
}
