// A booking's status, derived from its stops after every change (docs/api-guide.md "Bookings, stops and tours").
import { FINAL_STOP_STATUSES } from '../../../shared/domain-constants.ts';
import type { BookingStatus, StopStatus } from '../tables.ts';
import { bookingOrganizations, type BookingFacts } from '../visibility.ts';

// Defined below the modules, where tip distribution's rules read it too (decision 0215); dispatch's SQL reads it here.
export { FINAL_STOP_STATUSES };
export const isFinalStop = (status: StopStatus): boolean => (FINAL_STOP_STATUSES as readonly StopStatus[]).includes(status);

/**
 * Completed and cancelled are terminal: a booking whose stops all reached an outcome never becomes dispatchable
 * again, even when a stop is added later (docs/api-guide.md "Bookings, stops and tours": "does not return to a dispatchable state").
 */
export function deriveBookingStatus(current: BookingStatus | null, stops: readonly { status: StopStatus; tourId: string | null }[]): BookingStatus {
  if (current === 'completed' || current === 'cancelled') return current;
  const open = stops.filter((s) => !isFinalStop(s.status));
  if (stops.length && !open.length) return 'completed';
  const onTours = open.filter((s) => s.tourId !== null).length;
  if (onTours === 0) return 'to_be_dispatched';
  return onTours === open.length ? 'dispatched' : 'partially_dispatched';
}

/** A booking that reached an outcome takes no more changes (its stops, groups, properties): the caller answers 409. */
export const isOpenBooking = (booking: { status: BookingStatus }): boolean => booking.status !== 'completed' && booking.status !== 'cancelled';

/**
 * What settling stores of a booking: its status derived from its stops, and the organizations that see it. The
 * create's one-statement fast path writes a new booking with this, so the two paths cannot disagree (decision 0218).
 */
export function settledBooking(
  current: BookingStatus | null,
  booking: BookingFacts,
  stops: readonly { status: StopStatus; tourId: string | null }[],
): { status: BookingStatus; organizationIds: string[] } {
  return { status: deriveBookingStatus(current, stops), organizationIds: bookingOrganizations(booking).organizationIds };
}
