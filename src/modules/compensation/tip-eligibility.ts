// Tip distribution (`completed_dropoffs_on_tour`, docs/api-guide.md "Tour compensation, tips and legacy earnings"): which tour a booking's tip goes to, and why or
// why not. Pure: the outcome depends only on the current state, so evaluating again, or in any order, changes nothing.
import { FINAL_STOP_STATUSES } from '../../shared/domain-constants.ts';

export type TipStrategy = 'noop' | 'completed_dropoffs_on_tour';
export type TipStatus = 'awarded' | 'not_eligible' | 'pending' | 'paused';
export type TipReason =
  | 'no_tip'
  | 'no_dropoffs'
  | 'dropoffs_unresolved'
  | 'no_completed_dropoff'
  | 'dropoffs_split_across_tours'
  | 'tour_not_completed'
  | 'tour_cancelled'
  | 'distribution_off'
  | 'currency_mismatch'
  | 'completed_dropoffs_on_tour';

export interface TipBooking {
  id: string;
  tip: { amount: number; currency: string } | null;
  /** The booking's drop-off stops: their status and the tour they are (or were last) on. */
  dropoffs: { status: string; tourId: string | null }[];
}

export interface TipTour {
  id: string;
  status: string;
  /** The tour's compensation currency (its service area's). */
  currency: string;
  strategy: TipStrategy;
}

export interface TipOutcome {
  bookingId: string;
  tourId: string | null;
  status: TipStatus;
  reason: TipReason;
  /** What the booking adds to the tour's tips component (0 unless awarded). */
  amount: number;
}

/** Checks in order; the first that fails is the reason (a booking shows one reason, the most basic one). */
export function tipOutcome(booking: TipBooking, tours: ReadonlyMap<string, TipTour>): TipOutcome {
  const outcome = (tourId: string | null, status: TipStatus, reason: TipReason, amount = 0): TipOutcome => ({ bookingId: booking.id, tourId, status, reason, amount });
  if (!booking.tip || booking.tip.amount <= 0) return outcome(null, 'not_eligible', 'no_tip');
  if (!booking.dropoffs.length) return outcome(null, 'not_eligible', 'no_dropoffs');
  if (booking.dropoffs.some((d) => !(FINAL_STOP_STATUSES as readonly string[]).includes(d.status))) return outcome(null, 'pending', 'dropoffs_unresolved');
  const completedOn = [...new Set(booking.dropoffs.filter((d) => d.status === 'completed').map((d) => d.tourId))];
  if (!completedOn.length) return outcome(null, 'not_eligible', 'no_completed_dropoff');
  // A booking whose completed drop-offs span tours never contributes (docs/api-guide.md "Tip distribution").
  if (completedOn.length > 1) return outcome(null, 'not_eligible', 'dropoffs_split_across_tours');
  const tour = completedOn[0] ? tours.get(completedOn[0]) : undefined;
  if (!tour) return outcome(null, 'not_eligible', 'no_completed_dropoff');
  if (tour.strategy === 'noop') return outcome(tour.id, 'not_eligible', 'distribution_off');
  // Evaluated when the tour completes (docs/api-guide.md "Tour compensation, tips and legacy earnings"); a cancelled tour never completes (decision 0603).
  if (tour.status === 'cancelled') return outcome(tour.id, 'not_eligible', 'tour_cancelled');
  if (tour.status !== 'completed') return outcome(tour.id, 'pending', 'tour_not_completed');
  if (booking.tip.currency !== tour.currency) return outcome(tour.id, 'paused', 'currency_mismatch');
  return outcome(tour.id, 'awarded', 'completed_dropoffs_on_tour', booking.tip.amount);
}

export interface TourTips {
  tips: number;
  /** Bookings whose tip currency differs from the tour's: the tour's distribution is paused while there are any. */
  mismatchedBookingIds: string[];
}

/** Every tour's tips component and pause state from the outcomes of the bookings that name it. */
export function tourTips(tourId: string, outcomes: Iterable<TipOutcome>): TourTips {
  let tips = 0;
  const mismatchedBookingIds: string[] = [];
  for (const o of outcomes) {
    if (o.tourId !== tourId) continue;
    if (o.status === 'awarded') tips += o.amount;
    if (o.status === 'paused') mismatchedBookingIds.push(o.bookingId);
  }
  return { tips, mismatchedBookingIds: mismatchedBookingIds.sort() };
}
