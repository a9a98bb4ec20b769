// What a live stream asked for (docs/api-guide.md "Live tracking"): the viewer, its filters, the facts of an event's
// resource; pure. Who may receive an event is decided in access.ts (seesEvent, seesPosition).
import type { Actor } from '../../http/actor.ts';
import type { Envelope } from '../../events/outbox.ts';
import type { BookingFacts, TourFacts } from './dispatch-port.ts';

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

/** `filters[types][]` and `filters[tour_id]` (a booking event passes when the booking has a stop on that tour). */
export function passesFilters(filters: StreamFilters, envelope: Pick<Envelope, 'type' | 'resource_type' | 'data'>, facts: ResourceFacts): boolean {
  if (filters.types && !filters.types.has(envelope.type)) return false;
  if (!filters.tourId) return true;
  if (envelope.data.tour_id === filters.tourId) return true;
  return envelope.resource_type === 'booking' && (facts.booking?.tourIds.includes(filters.tourId) ?? false);
}
