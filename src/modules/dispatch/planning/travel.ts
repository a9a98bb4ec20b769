// A point of tour optimisation's travel matrix, as the travel seam (Deps.hooks.travel, src/seams/travel.ts: decision
// 0212) takes it; the planning files take it from here.
export type { Point } from '../../../seams/index.ts';
