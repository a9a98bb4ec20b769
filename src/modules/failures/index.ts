// What the composition root (src/hooks.ts) wires of failures: seeding a new tenant's reasons, the rules dispatch asks for.
export { seedPackageFailureReasons } from './operations/reasons.ts';
export { failureRules } from './failure-rules.ts';
/** The platform's stop failure reasons with both labels: the tracking read shows a failed stop's reason in words. */
export { findStopFailureReason } from './reasons.ts';
