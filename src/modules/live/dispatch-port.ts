// What live tracking uses of dispatch, in one place: dispatch's index is the only door.
export {
  bookingEventDataOf,
  bookingFactsOf,
  canSeeBooking,
  canSeeTour,
  findTourSummary,
  isHeldByDriver,
  openStopsOfTour,
  requireLoadedTour,
  requireTour,
  tourFactsOf,
  tourSummaryOf,
  type BookingFacts,
  type OpenStop,
  type TourFacts,
  type TourSummary,
} from '../dispatch/index.ts';
// The driver position's fast path reads the tour and its open stops in its own single statement (json-read parts).
export { bookingEventDataRead, openStopsRead, openStopsVersionSql, tourRead, tourVersionSql } from '../dispatch/index.ts';
