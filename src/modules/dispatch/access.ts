// Access to bookings: the visibility rule applied to one loaded booking; an invisible booking is a 404.
import type { Queryable } from '../../db/client.ts';
import type { Actor } from '../../http/actor.ts';
import { notFound } from '../../http/errors.ts';
import { findTours } from './tours/index.ts';
import { canSeeBooking, seesBookingWithoutTours } from './visibility.ts';
import { dispatchPermissions } from './permissions.ts';
import { bookingsRepository as repo } from './bookings/index.ts';
import { stopsRepository as stopsRepo } from './stops/index.ts';
import { tourFacts } from './settle.ts';

/** `stops`, when the caller already holds all of the booking's stops, spares reading which tours they are on. */
export async function canSee(q: Queryable, actor: Actor, booking: repo.BookingRow, stops?: stopsRepo.StopRow[]): Promise<boolean> {
  const decided = seesBookingWithoutTours(actor, booking);
  if (decided !== null) return decided;
  const tourIds = stops
    ? [...new Set(stops.map((s) => s.tourId).filter((id): id is string => id !== null))]
    : await stopsRepo.tourIdsOfBookings(q, actor.tenantId, [booking.id]);
  const tours = await findTours(q, actor.tenantId, tourIds);
  return canSeeBooking(actor, { customerId: booking.customerId, managingOrganizationIds: booking.managingOrganizationIds, tours: tours.map(tourFacts) });
}

/** The booking if the caller sees it; 404 otherwise. With `forUpdate` the row is locked. */
export async function visibleBooking(q: Queryable, actor: Actor, id: string, options: { forUpdate?: boolean } = {}): Promise<repo.BookingRow> {
  const [booking] = options.forUpdate ? await repo.findBookingsForUpdate(q, actor.tenantId, [id]) : [await repo.findBooking(q, actor.tenantId, id)];
  if (!booking || !(await canSee(q, actor, booking))) throw notFound('booking');
  return booking;
}

/** Dispatchers (permissions.ts): admins, and managers for what they see. */
export function requireDispatcher(actor: Actor): void {
  dispatchPermissions.require(actor, 'dispatch');
}
