// The seams between modules (Deps.hooks), declared below every module: a module that must call one importing it asks
// through these, and the composition root (src/hooks.ts) wires who answers. Nothing here imports a module, so Deps and
// the generic layers (http/, compat/, worker/) that take it depend on no domain module (decision 0212).
export { NO_DISPATCH_HOOKS, type BookingTipDistribution, type DispatchChange, type DispatchHooks, type StopEta, type TipDistributionSource, type TrackedToursChanged } from './dispatch.ts';
export type {
  FailureOptionsView,
  FailureOutcomeOptionView,
  FailureRules,
  PackageFailureVerdict,
  RecoveryStopCopy,
  ReportedPackageFailure,
  StopFailureFacts,
} from './failure-rules.ts';
export type { IdentityHooks } from './identity.ts';
export type { Point, TravelTimes, TravelAsk, TravelAnswer, TravelRouteAnswer, TravelSource } from './travel.ts';
