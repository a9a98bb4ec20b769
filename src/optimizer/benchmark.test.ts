// The solver on real benchmark instances, briefly, with every route re-checked by the data set's own checker.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { evaluate, parseInstance } from '../../test/fixtures/pdptw/verify.mjs';
import { parseBenchmark } from './formats/index.ts';
import { solve, solveParallel } from './index.ts';

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../test/fixtures/pdptw');

describe('the solver on benchmark instances (1,200 iterations each: deterministic, about a second)', () => {
  // Best-known vehicles and distance (best_known.csv); a brief run must be feasible and close to them.
  const cases = [
    { file: 'lc101.txt', vehicles: 10, distance: 828.9369 },
    { file: 'lr104.txt', vehicles: 9, distance: 1013.3941 },
    { file: 'lrc206.txt', vehicles: 3, distance: 1159.0316 },
    { file: 'bar-n100-1.txt', vehicles: 6, distance: 732 },
  ];
  for (const c of cases) {
    it(`${c.file}: every route passes the independent checker, within one vehicle and 10 % of the best known`, () => {
      const full = path.join(FIXTURES, c.file);
      const bench = parseBenchmark(fs.readFileSync(full, 'utf8'), c.file);
      const result = solve(bench.problem, { timeLimitMs: 60_000, maxIterations: 1200, seed: 7 });
      const routes = result.routes.filter((r) => r.length > 0).map((r) => r.map((stop) => bench.taskIds[stop]!));
      const check = evaluate(parseInstance(full), routes);
      expect(check, check.reason).toMatchObject({ feasible: true, vehicles: result.vehicles });
      expect(result.unassigned).toEqual([]);
      expect(check.distance).toBeCloseTo(result.distance, 6);
      expect(result.vehicles).toBeLessThanOrEqual(c.vehicles + 1);
      expect(result.distance).toBeLessThanOrEqual(c.distance * 1.1);
    });
  }
});

it('solveParallel runs searches in worker threads and returns the best of them, checked independently', async () => {
  const full = path.join(FIXTURES, 'lc101.txt');
  const bench = parseBenchmark(fs.readFileSync(full, 'utf8'), 'lc101');
  const result = await solveParallel(bench.problem, { timeLimitMs: 30_000, maxIterations: 300, seed: 5 }, 2);
  const single = solve(bench.problem, { timeLimitMs: 30_000, maxIterations: 300, seed: 5 });
  const routes = result.routes.filter((r) => r.length > 0).map((r) => r.map((stop) => bench.taskIds[stop]!));
  expect(evaluate(parseInstance(full), routes)).toMatchObject({ feasible: true, vehicles: result.vehicles });
  // Seed 5 runs on this thread, so the best of both is at least as good as it.
  expect(result.vehicles).toBeLessThanOrEqual(single.vehicles);
  if (result.vehicles === single.vehicles) expect(result.distance).toBeLessThanOrEqual(single.distance + 1e-9);
});
