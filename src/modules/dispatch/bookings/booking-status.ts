// A booking's status, derived from its stops after every change (docs/api-guide.md "Bookings, stops and tours").
import { invalidTransition } from '../../../http/errors.ts';
import type { BookingStatus, StopStatus } from '../tables.ts';

export const FINAL_STOP_STATUSES: readonly StopStatus[] = ['completed', 'failed', 'cancelled'];
export const isFinalStop = (status: StopStatus): boolean => FINAL_STOP_STATUSES.includes(status);

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

/** A booking that reached an outcome takes no more changes (its stops, groups, properties). */
export function requireOpenBooking(booking: { status: BookingStatus }): void {
  if (booking.status === 'completed' || booking.status === 'cancelled') throw invalidTransition('booking', booking.status, 'modified');
}
