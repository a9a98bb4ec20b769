// The optimiser's entry point: solve(problem, options) → routes. Pure and synchronous; no I/O. A solver pool runs the
// same search in worker threads (pool.ts).
export type { Objective, Problem, Solution, SolveOptions, Stop, Request, Vehicle, Travel } from './types.ts';
export { ProblemError } from './instance.ts';
export { DEFAULT_PARAMETERS, type AlnsParameters } from './alns.ts';
export { solve } from './solve.ts';
export { solveParallel } from './parallel.ts';
export { createSolverPool, INLINE_SOLVER, type Solver, type SolverPool, type ThreadSolveOptions } from './pool.ts';
