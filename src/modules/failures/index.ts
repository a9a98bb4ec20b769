// What other modules may use of failures: seeding reasons, failure_options for stop payloads, the rules package failures follow.
export { seedPackageFailureReasons } from './operations/reasons.ts';
export {
  FAILURE_OUTCOMES,
  completionRequirementsFail,
  failureOptions,
  type FailureContext,
  type FailureOptions,
  type FailureOutcome,
} from './failure-options.ts';
export { FailureOptions as FailureOptionsSchema, CompletionRequirements as CompletionRequirementsSchema } from './schemas.ts';
export { reasonUseProblem } from './reasons.ts';
export { reattemptStop, recoveryPlan } from './recovery.ts';
export { listPackageFailureReasons as packageFailureReasons } from './repository.ts';
