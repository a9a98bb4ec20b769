// Who receives what on the live stream (docs/api-guide.md "Live tracking", docs/api-guide.md "Who sees what"): pure, decided per event and viewer.
import type { Actor } from '../../http/actor.ts';
import type { Envelope } from '../../events/outbox.ts';
import { canSeeBooking, canSeeTour, type BookingFacts, type TourFacts } from './dispatch-port.ts';

export type Viewer = Pick<Actor, 'role' | 'userId' | 'organizationIds'>;

export interface StreamFilters {
  tourId: string | null;
  types: ReadonlySet<string> | null;
}

/** What the visibility rule knows of an event's resource, as of now; null when the resource is gone. */
export interface ResourceFacts {
  tour?: TourFacts | null;
  booking?: (BookingFacts & { tourIds: readonly string[] }) | null;
}

/**
 * A driver's positions reach only admins, the managers of the driver's own organization and the driver (docs/api-guide.md "Live tracking":
 * the driver's own organization "alone receives the driver's live updates").
 */
export function seesPosition(viewer: Viewer, driverId: string | null, driverOrganizationId: string | null): boolean {
  switch (viewer.role) {
    case 'admin':
      return true;
    case 'manager':
      return driverOrganizationId !== null && viewer.organizationIds.includes(driverOrganizationId);
    case 'driver':
      return driverId !== null && driverId === viewer.userId;
    case 'customer':
      return false;
  }
}

/** Tour and booking events follow the read visibility of their resource; anything else is for admins. */
export function seesEvent(viewer: Viewer, envelope: Pick<Envelope, 'resource_type'>, facts: ResourceFacts): boolean {
  if (envelope.resource_type === 'tour') return facts.tour ? canSeeTour(viewer, facts.tour) : viewer.role === 'admin';
  if (envelope.resource_type === 'booking') return facts.booking ? canSeeBooking(viewer, facts.booking) : viewer.role === 'admin';
  return viewer.role === 'admin';
}

/** `filters[types][]` and `filters[tour_id]` (a booking event passes when the booking has a stop on that tour). */
export function passesFilters(filters: StreamFilters, envelope: Pick<Envelope, 'type' | 'resource_type' | 'data'>, facts: ResourceFacts): boolean {
  if (filters.types && !filters.types.has(envelope.type)) return false;
  if (!filters.tourId) return true;
  if (envelope.data.tour_id === filters.tourId) return true;
  return envelope.resource_type === 'booking' && (facts.booking?.tourIds.includes(filters.tourId) ?? false);
}
