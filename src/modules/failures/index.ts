// What the composition root (src/hooks.ts) wires of failures: seeding a new tenant's reasons, the rules dispatch asks for.
export { seedPackageFailureReasons } from './operations/reasons.ts';
export { failureRules } from './failure-rules.ts';
