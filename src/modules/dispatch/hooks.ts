// Dispatch's seams: other modules react inside dispatch's transactions (DispatchHooks), the failures module decides
// what dispatch renders and checks of failures (FailureRules). Both exist because those modules import dispatch:
// dispatch importing them back would be an import loop. They are declared in src/seams/ (below the modules, so Deps
// names them without importing dispatch: decision 0212) and wired in the composition root (src/hooks.ts); dispatch's
// files take what they use of them from here.
export type {
  BookingTipDistribution,
  DispatchHooks,
  FailureRules,
  RecoveryStopCopy,
  StopFailureFacts,
  TipDistributionSource,
} from '../../seams/index.ts';
