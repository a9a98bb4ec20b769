// What live tracking uses of dispatch, in one place: dispatch's index is the only door.
export {
  bookingEventDataOf,
  bookingFactsOf,
  canSeeBooking,
  canSeeTour,
  findTourSummary,
  openStopsOfTour,
  tourFactsOf,
  visibleTourSummary,
  type BookingFacts,
  type OpenStop,
  type TourFacts,
  type TourSummary,
} from '../dispatch/index.ts';
