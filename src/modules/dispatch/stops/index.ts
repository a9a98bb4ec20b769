// The stops/ sub-folder's door: what dispatch's other sub-folders and its top-level files use of it (decision
// 0230). A cross-sub-folder import names this file, never one behind it; src/architecture.test.ts holds it.
// The repository is exported whole, as a namespace, so that its callers keep reading `xRepo.find…(…)`.
export { stopPayloadDeprecation } from './deprecations.ts';
export { loadStopContext } from './render-stops.ts';
export type { RenderDeps } from './render-stops.ts';
export * as stopsRepository from './repository.ts';
export type { StopRow } from './repository.ts';
export { buildStops, checkBookingStopLimit, placeIdsOf, stopLimitReached } from './stop-input.ts';
export type { BuildStopsOptions, LocatedStop, NewStopRow } from './stop-input.ts';
export { groupForNewStop } from './grouping.ts';
export { dropoffsBeforePickups } from './tour-order.ts';
export { automaticGroup } from './grouping.ts';
export type { PackageLink } from './tour-order.ts';
export { toStopView } from './views.ts';
export { getStop } from './read-stop.ts';
