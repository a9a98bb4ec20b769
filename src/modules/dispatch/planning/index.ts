// The planning/ sub-folder's door: what dispatch's other sub-folders and its top-level files use of it (decision
// 0230). A cross-sub-folder import names this file, never one behind it; src/architecture.test.ts holds it.
export { MERGE_OPTIMIZE_TIME_LIMIT_MS, optimizedOrder } from './order.ts';
export type { Optimization } from './order.ts';
export { startOf } from './problem.ts';
export { MergeResponse } from './schemas.ts';
export type { Point } from './travel.ts';
export * as planningRepository from './repository.ts';
export type { PlanRow } from './repository.ts';
