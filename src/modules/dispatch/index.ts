// What other modules may use of dispatch (bookings, stops, packages, tours): named operations and read helpers,
// never a repository.
export { automaticGroup } from './stops/grouping.ts';
export { Stop as StopSchema } from './bookings/schemas.ts';
/** Wire enums shared with the event payloads of the OpenAPI `webhooks` section. */
export { BookingStatus as BookingStatusSchema } from './bookings/schemas.ts';
export { TourStatus as TourStatusSchema } from './tours/schemas.ts';
export { countOpenToursAndBusyDrivers } from './tours/repository.ts';

// Failing a stop (the failures module's failStop): lock, write through these, render.
export {
  appendRecoveryStop,
  failStopOnTour,
  lockStopForFailure,
  renderFailedStop,
  type RecoveryStop,
  type StopFailureRecord,
  type StopFailureScene,
} from './stops/fail-stop-on-tour.ts';

// Live tracking (ETAs, the live stream) reads tours and stops through these.
export * from './tracking-reads.ts';
export { onTrackedToursChanged, provideStopEtas, type TrackedToursChanged } from './ports.ts';
export { canSeeBooking, canSeeTour } from './visibility.ts';
// Compensation: a tour the caller sees (404 otherwise), the in-transaction hook dispatch changes call, and the
// facts tip distribution decides on.
export { visibleTour } from './tours/operations.ts';
export type { TourRow } from './tours/repository.ts';
export { onDispatchChange, type DispatchChange, provideTipDistribution, type BookingTipDistribution } from './hooks.ts';
export { bookingIdsOfTours, tipBookingFacts, tipTourFacts, type TipBookingFacts, type TipTourFacts } from './tip-facts.ts';
export { setLegacyEarnings, type EarningsTarget } from './earnings.ts';
export { getBooking } from './bookings/operations.ts';
export { getTour } from './tours/operations.ts';
export { BookingEnvelope } from './bookings/schemas.ts';
export { TourEnvelope } from './tours/schemas.ts';
export { earningsDeprecation } from './earnings.ts';
