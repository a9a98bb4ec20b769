// One search run: compile the problem, run ALNS for the budget, read the best routes back. Pure and synchronous.
import { search, type AlnsParameters } from './alns.ts';
import { compile } from './instance.ts';
import type { Problem, Solution, SolveOptions } from './types.ts';

export function solve(problem: Problem, options: SolveOptions, parameters?: Partial<AlnsParameters>): Solution {
  const started = performance.now();
  const objective = options.objective ?? 'vehicles-then-distance';
  const inst = compile(problem, objective);
  const { best, iterations } = search(inst, {
    timeLimitMs: Math.max(0, options.timeLimitMs),
    seed: options.seed ?? 1,
    vehiclesFirst: objective === 'vehicles-then-distance',
    ...(options.initial ? { initial: options.initial } : {}),
    ...(options.maxIterations !== undefined ? { maxIterations: options.maxIterations } : {}),
    ...(parameters ? { parameters } : {}),
    ...(options.clock ? { now: options.clock } : {}),
  });
  const routes: number[][] = [];
  for (let r = 0; r < inst.vehicleCount; r++) routes.push(best.stopsOf(r));
  return {
    routes,
    unassigned: Array.from(best.bank.subarray(0, best.bankSize)).sort((a, b) => a - b),
    vehicles: best.usedVehicles(),
    distance: best.distance(),
    makespan: best.makespan(),
    waiting: best.waiting(),
    iterations,
    elapsedMs: performance.now() - started,
  };
}
