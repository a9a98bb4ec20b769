// What the composition root (src/hooks.ts) wires of failures: seeding a new tenant's reasons, the rules dispatch asks for.
export { seedPackageFailureReasons } from './operations/reasons.ts';
export { failureRules } from './failure-rules.ts';
/** The platform's stop failure reasons with both labels: the tracking read shows a failed stop's reason in words. */
export { findStopFailureReason } from './reasons.ts';
// Failures' texts in English and German, read at start-up with every other catalog (src/messages.ts, decision 0210).
import type { Messages } from '../../http/i18n.ts';
import { messages as reasons } from './reasons.ts';
import { messages as failureOptions } from './failure-messages.ts';
export const messages: readonly Messages[] = [reasons, failureOptions];
