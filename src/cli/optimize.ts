// `tourbook optimize --instance FILE [--time-limit SECONDS] [--seed K] [--json]`: solves one PDPTW benchmark file.
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { parseBenchmark } from '../optimizer/formats/index.ts';
import { solve } from '../optimizer/index.ts';

export interface OptimizeReport {
  instance: string;
  vehicles: number;
  distance: number;
  routes: number[][];
  seconds: number;
}

export class UsageError extends Error {}

/** Solves a benchmark file; routes are task ids as in the file, the depot left out. */
export function optimizeFile(file: string, timeLimitSeconds: number, seed: number): OptimizeReport {
  const started = performance.now();
  const text = fs.readFileSync(file, 'utf8');
  const bench = parseBenchmark(text, path.basename(file).replace(/\.txt$/, ''));
  const result = solve(bench.problem, { timeLimitMs: timeLimitSeconds * 1000, seed });
  if (result.unassigned.length > 0) throw new Error(`${bench.name}: ${result.unassigned.length} requests could not be served`);
  return {
    instance: bench.name,
    vehicles: result.vehicles,
    distance: result.distance,
    routes: result.routes.filter((r) => r.length > 0).map((r) => r.map((stop) => bench.taskIds[stop]!)),
    seconds: (performance.now() - started) / 1000,
  };
}

export function optimizeCommand(argv: string[]): void {
  const { values } = parseArgs({
    args: argv,
    options: { instance: { type: 'string' }, 'time-limit': { type: 'string' }, seed: { type: 'string' }, json: { type: 'boolean' } },
  });
  if (!values.instance) throw new UsageError('optimize needs --instance FILE');
  const seconds = Number(values['time-limit'] ?? 10);
  const seed = Number(values.seed ?? 1);
  if (!(seconds > 0)) throw new UsageError('--time-limit must be a positive number of seconds');
  if (!Number.isInteger(seed)) throw new UsageError('--seed must be an integer');
  const report = optimizeFile(values.instance, seconds, seed);
  if (values.json) {
    console.log(JSON.stringify(report));
    return;
  }
  report.routes.forEach((route, k) => console.log(`Route ${k + 1} : ${route.join(' ')}`));
  console.log(`${report.instance}: ${report.vehicles} vehicles, distance ${report.distance.toFixed(2)}, ${report.seconds.toFixed(1)} s`);
}
