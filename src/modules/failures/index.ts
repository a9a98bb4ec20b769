// What other modules may use of failures: seeding reasons, failure_options for stop payloads, package failures at completion.
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
export { appendPackageReattempts, checkPackageFailures, type PackageReattempts } from './operations/package-failures.ts';
export { stopPayloadDeprecation } from './deprecations.ts';
