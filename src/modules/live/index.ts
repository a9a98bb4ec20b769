// What other modules may use of live tracking: ETA recomputation, the jobs, the routes. Importing it plugs live
// tracking into dispatch (ports: ETAs after stop changes, ETAs on rendered stops).
export { recomputeEtas, type EtaReason } from './operations/recompute-etas.ts';
export { ensurePositionRetention, purgeOldPositions, purgeOldPositionsJob, recomputeEtasJob } from './jobs.ts';
export { liveRoutes } from './routes.ts';
export { travelTimes } from './travel-times.ts';
