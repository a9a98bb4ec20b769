// `tourbook optimize --instance FILE [--time-limit SECONDS] [--seed K] [--workers N] [--json]`: solves one PDPTW benchmark file.
import fs from 'node:fs';
import path from 'node:path';
import { parseBenchmark } from '../optimizer/formats/index.ts';
import { solveParallel } from '../optimizer/index.ts';
import { CliError } from './cli-error.ts';

export interface OptimizeReport {
  instance: string;
  vehicles: number;
  distance: number;
  routes: number[][];
  seconds: number;
}

/** A usage mistake: exit code 2, as main.ts gives for bad options. */
const usage = (message: string) => new CliError(message, 2);

/** Solves a benchmark file; routes are task ids as in the file, the depot left out. */
export async function optimizeFile(file: string, timeLimitSeconds: number, seed: number, workers = 1): Promise<OptimizeReport> {
  const started = performance.now();
  let bench;
  try {
    bench = parseBenchmark(fs.readFileSync(file, 'utf8'), path.basename(file).replace(/\.txt$/, ''));
  } catch (err) {
    // An unreadable or malformed file is the user's input: a message and exit code 2, not a stack trace.
    throw usage(`cannot read ${file}: ${err instanceof Error ? err.message : String(err)}`);
  }
  const result = await solveParallel(bench.problem, { timeLimitMs: timeLimitSeconds * 1000, seed }, workers);
  if (result.unassigned.length > 0) throw new Error(`${bench.name}: ${result.unassigned.length} requests could not be served`);
  return {
    instance: bench.name,
    vehicles: result.vehicles,
    distance: result.distance,
    routes: result.routes.filter((r) => r.length > 0).map((r) => r.map((stop) => bench.taskIds[stop]!)),
    seconds: (performance.now() - started) / 1000,
  };
}

export interface OptimizeOptions {
  instance?: string;
  'time-limit'?: string;
  seed?: string;
  workers?: string;
  json?: boolean;
}

export async function optimizeCommand(values: OptimizeOptions): Promise<void> {
  if (!values.instance) throw usage('needs --instance FILE');
  const seconds = Number(values['time-limit'] ?? 10);
  const seed = Number(values.seed ?? 1);
  if (!(seconds > 0)) throw usage('--time-limit must be a positive number of seconds');
  if (!Number.isInteger(seed)) throw usage('--seed must be an integer');
  const workers = Number(values.workers ?? 1);
  if (!Number.isInteger(workers) || workers < 1) throw usage('--workers must be a positive integer');
  const report = await optimizeFile(values.instance, seconds, seed, workers);
  if (values.json) {
    console.log(JSON.stringify(report));
    return;
  }
  report.routes.forEach((route, k) => console.log(`Route ${k + 1} : ${route.join(' ')}`));
  console.log(`${report.instance}: ${report.vehicles} vehicles, distance ${report.distance.toFixed(2)}, ${report.seconds.toFixed(1)} s`);
}
