// What other modules may use of live tracking: the ETA hook for stop changes, stop ETAs for rendering, the jobs.
export { recomputeEtas, type EtaReason } from './operations/recompute-etas.ts';
export { etasOfStops } from './repository.ts';
export { ensurePositionRetention, purgeOldPositions } from './jobs.ts';
export { liveRoutes } from './routes.ts';
