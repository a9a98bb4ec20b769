// Uses several cores: independent searches with different seeds in worker threads (plus this thread), best kept.
// Independent multi-start is the simplest parallel scheme that keeps each search deterministic for its seed.
import type { AlnsParameters } from './alns.ts';
import { makespanWeightOf } from './instance.ts';
import { createSolverPool, workerEntry } from './pool.ts';
import { solve } from './solve.ts';
import type { Problem, Solution, SolveOptions } from './types.ts';

/**
 * Fewer unassigned, then fewer vehicles (or a shorter longest route), then less distance — under the makespan
 * objective, plus the waiting at its weight (the objective's order, as the search compares: alns.ts).
 */
export function betterSolution(a: Solution, b: Solution, objective: SolveOptions['objective'], waitingWeight = 0): boolean {
  if (a.unassigned.length !== b.unassigned.length) return a.unassigned.length < b.unassigned.length;
  if (objective === 'makespan' && Math.abs(a.makespan - b.makespan) > 1e-9) return a.makespan < b.makespan;
  if ((objective === undefined || objective === 'vehicles-then-distance') && a.vehicles !== b.vehicles) return a.vehicles < b.vehicles;
  const w = objective === 'makespan' ? waitingWeight : 0;
  return a.distance + w * a.waiting < b.distance + w * b.waiting - 1e-9;
}

/**
 * Runs `threads` searches at once (seeds seed, seed+1, …), one of them on the calling thread, and returns the best.
 * With threads = 1 (or no worker module) it is solve().
 */
export async function solveParallel(problem: Problem, options: SolveOptions, threads: number, parameters?: Partial<AlnsParameters>): Promise<Solution> {
  const seed = options.seed ?? 1;
  // Starting a thread takes a while and the budget is the caller's: the threads end by this thread's deadline.
  const deadline = Date.now() + options.timeLimitMs;
  const pool = threads > 1 && workerEntry() ? createSolverPool(threads - 1) : null;
  const { clock: _clock, ...plain } = options;
  const jobs: Promise<Solution>[] = [];
  for (let k = 1; k < threads && pool; k++) jobs.push(pool.solve(problem, { ...plain, seed: seed + k }, { deadline, ...(parameters ? { parameters } : {}) }));
  try {
    // Let the threads start before this thread blocks on its own search.
    await new Promise((resolve) => setTimeout(resolve, 0));
    let best = solve(problem, { ...options, seed }, parameters);
    for (const other of await Promise.all(jobs)) if (betterSolution(other, best, options.objective, makespanWeightOf(problem))) best = other;
    return best;
  } finally {
    await pool?.close();
  }
}
