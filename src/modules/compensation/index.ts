// What other modules may use of compensation: its dispatch hooks (tip distribution scheduled after dispatch changes,
// each booking's tip distribution outcome for booking responses; wired in src/hooks.ts), its jobs and the payload of
// its debounced event (named in src/worker/handlers.ts).
export { distributeTips, type TipTrigger } from './tip-distribution.ts';
export { tipDistributionOfBookings } from './views.ts';
export { compensationDispatchHooks, DISTRIBUTE_TIPS_JOB } from './dispatch-hooks.ts';
export { compensationRoutes } from './routes.ts';
export { distributeTipsJob } from './jobs.ts';
export { compensationUpdatedData } from './store.ts';
