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
