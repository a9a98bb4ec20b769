// What other modules may use of dispatch (bookings, stops, packages, tours): named operations and read helpers,
// never a repository.
export { automaticGroup } from './stops/grouping.ts';
export { Stop as StopSchema } from './bookings/schemas.ts';
export { stopPayloadDeprecation } from './stops/deprecations.ts';
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

// Seams wired in the composition root (src/hooks.ts, Deps.hooks): reactions inside dispatch's transactions, and
// what dispatch asks of the failures module.
export {
  NO_DISPATCH_HOOKS,
  type DispatchHooks,
  type FailureOptionsView,
  type FailureRules,
  type PackageFailureVerdict,
  type ReportedPackageFailure,
  type StopFailureFacts,
  type TourStopsChange,
} from './hooks.ts';
