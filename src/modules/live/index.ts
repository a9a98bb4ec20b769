// What other modules may use of live tracking: ETA recomputation, the jobs, the routes, and its dispatch hooks (ETAs
// after stop changes, ETAs on rendered stops; wired in src/hooks.ts).
export { recomputeEtas, type EtaReason } from './operations/recompute-etas.ts';
export { driverLocationUpdatedData, ensurePositionRetention, liveDispatchHooks, purgeOldPositions, purgeOldPositionsJob, recomputeEtasJob } from './jobs.ts';
export { liveRoutes } from './routes.ts';
export { travelTimes } from './travel-times.ts';
/** The recipient's tracking read takes a tour's position and its stops' ETAs in its own one statement (decision 1106). */
export { currentPositionRead, stopEtasRead } from './repository.ts';
// Delivery analytics (contract §17): the ETA shown before an arrival, the distance driven on tours.
export { etaShownSql, tourDistanceSql } from './repository.ts';
/** The process's live hub and its subscriber shape: the tracking module's streams join it (decision 1102). */
export { liveHubOf, type LiveHub, type Subscriber } from './hub.ts';
// Live tracking's texts in English and German, read at start-up with every other catalog (src/messages.ts, decision 0210).
import type { Messages } from '../../http/i18n.ts';
import { messages as driverLocation } from './operations/record-driver-location.ts';
export const messages: readonly Messages[] = [driverLocation];
