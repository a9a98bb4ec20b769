// Uses several cores: independent searches with different seeds in worker threads (plus this thread), best kept.
// Independent multi-start is the simplest parallel scheme that keeps each search deterministic for its seed.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { AlnsParameters } from './alns.ts';
import { solve } from './solve.ts';
import type { Problem, Solution, SolveOptions } from './types.ts';

export interface ParallelJob {
  problem: Problem;
  options: SolveOptions;
  parameters?: Partial<AlnsParameters>;
  /** Date.now() by which the worker must answer: starting a worker takes a while, and the budget is the caller's. */
  deadline: number;
}

/**
 * The worker module's URL: beside this file when running from source; from the bundled CLI (dist/), the source tree
 * above it. Null when there is none (a deployment without src/): the search then runs on this thread only.
 */
function workerModule(): string | null {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  if (fs.existsSync(path.join(dir, 'parallel-worker.ts'))) return pathToFileURL(path.join(dir, 'parallel-worker.ts')).href;
  for (let k = 0; k < 4; k++, dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'src/optimizer/parallel-worker.ts');
    if (fs.existsSync(candidate)) return pathToFileURL(candidate).href;
  }
  return null;
}

// The worker registers tsx's loader first (the worker module is TypeScript), then loads the worker module.
const bootScript = (worker: string): string => {
  const tsxApi = import.meta.resolve('tsx/esm/api');
  return `import(${JSON.stringify(tsxApi)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(worker)}); });`;
};

/** Fewer unassigned, then fewer vehicles, then less distance (the planning objective). */
export function betterSolution(a: Solution, b: Solution, objective: SolveOptions['objective']): boolean {
  if (a.unassigned.length !== b.unassigned.length) return a.unassigned.length < b.unassigned.length;
  if (objective !== 'distance' && a.vehicles !== b.vehicles) return a.vehicles < b.vehicles;
  return a.distance < b.distance - 1e-9;
}

/**
 * Runs `threads` searches at once (seeds seed, seed+1, …), one of them on the calling thread, and returns the best.
 * With threads = 1 it is solve().
 */
export async function solveParallel(problem: Problem, options: SolveOptions, threads: number, parameters?: Partial<AlnsParameters>): Promise<Solution> {
  const seed = options.seed ?? 1;
  const deadline = Date.now() + options.timeLimitMs;
  const jobs: Promise<Solution>[] = [];
  const worker = threads > 1 ? workerModule() : null;
  // A function cannot cross to a worker: workers keep to the wall-clock deadline.
  const { clock: _clock, ...plain } = options;
  for (let k = 1; k < threads && worker; k++) {
    const job: ParallelJob = { problem, options: { ...plain, seed: seed + k }, deadline, ...(parameters ? { parameters } : {}) };
    jobs.push(
      new Promise<Solution>((resolve, reject) => {
        const thread = new Worker(bootScript(worker), { eval: true, workerData: job });
        thread.once('message', (solution: Solution) => {
          resolve(solution);
          void thread.terminate();
        });
        thread.once('error', reject);
      }),
    );
  }
  // Let the workers start before this thread blocks on its own search.
  await new Promise((resolve) => setTimeout(resolve, 0));
  let best = solve(problem, { ...options, seed }, parameters);
  for (const other of await Promise.all(jobs)) if (betterSolution(other, best, options.objective)) best = other;
  return best;
}
