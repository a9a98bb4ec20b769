// What other modules may use of compensation: the tip distribution hook for dispatch changes, and each booking's
// tip distribution outcome for booking responses.
export { distributeTips, type TipTrigger } from './tip-distribution.ts';
export { tipDistributionOfBookings } from './views.ts';
export { DISTRIBUTE_TIPS_JOB } from './dispatch-hooks.ts';
export { compensationRoutes } from './routes.ts';
export { distributeTipsJob } from './jobs.ts';
