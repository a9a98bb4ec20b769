// What other modules may use of compensation: its dispatch hooks (tip distribution scheduled after dispatch changes,
// each booking's tip distribution outcome for booking responses; wired in src/hooks.ts), its jobs and the payload of
// its debounced event (named in src/worker/handlers.ts).
export { distributeTips, type TipTrigger } from './tip-distribution.ts';
export { tipDistributionOfBookings } from './views.ts';
export { compensationDispatchHooks, DISTRIBUTE_TIPS_JOB } from './dispatch-hooks.ts';
export { compensationRoutes } from './routes.ts';
export { distributeTipsJob } from './jobs.ts';
export { compensationUpdatedData } from './store.ts';
// Compensation's texts in English and German, read at start-up with every other catalog (src/messages.ts, decision 0210).
import type { Messages } from '../../http/i18n.ts';
import { messages as writeComponent } from './write-component.ts';
export const messages: readonly Messages[] = [writeComponent];
