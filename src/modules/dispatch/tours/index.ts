// The tours/ sub-folder's door: what dispatch's other sub-folders and its top-level files use of it (decision
// 0230). A cross-sub-folder import names this file, never one behind it; src/architecture.test.ts holds it.
// The repository is exported whole, as a namespace, so that its callers keep reading `xRepo.find…(…)`.
export * as toursRepository from './repository.ts';
export { findTours } from './repository.ts';
export type { TourRow } from './repository.ts';
export { Tour } from './schemas.ts';
export { HELD_BY_DRIVER_STATUSES, isHeldByDriver, isOpenTour, OPEN_TOUR_STATUSES, TOUR_STATUSES } from './tour-machine.ts';
