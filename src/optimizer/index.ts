// The optimiser's entry point: solve(problem, options) → routes. Pure and synchronous; no I/O.
export type { Problem, Solution, SolveOptions, Stop, Request, Vehicle, Travel } from './types.ts';
export { ProblemError } from './instance.ts';
export { DEFAULT_PARAMETERS, type AlnsParameters } from './alns.ts';
export { solve } from './solve.ts';
export { solveParallel } from './parallel.ts';
