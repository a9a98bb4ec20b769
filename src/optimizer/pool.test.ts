// The solver pool: a search in a worker thread gives what the same search gives inline, jobs queue for a thread,
// a bad problem fails as it does inline, and a closed pool refuses work.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { parseBenchmark } from './formats/index.ts';
import { createSolverPool, ProblemError, solve } from './index.ts';

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../test/fixtures/pdptw');
const bench = parseBenchmark(fs.readFileSync(path.join(FIXTURES, 'lc101.txt'), 'utf8'), 'lc101');

describe('createSolverPool', () => {
  const pool = createSolverPool(1);
  afterAll(() => pool.close());

  it('gives the same solution for a seed in a thread as solve() on this thread', async () => {
    const options = { timeLimitMs: 60_000, maxIterations: 150, seed: 3 };
    const threaded = await pool.solve(bench.problem, options);
    const inline = solve(bench.problem, options);
    expect(threaded.routes).toEqual(inline.routes);
    expect(threaded.distance).toBe(inline.distance);
    expect(threaded.iterations).toBe(inline.iterations);
  });

  it('queues jobs beyond its threads and answers each with its own solution', async () => {
    const seeds = [11, 12, 13];
    const solutions = await Promise.all(seeds.map((seed) => pool.solve(bench.problem, { timeLimitMs: 60_000, maxIterations: 40, seed })));
    for (const [k, seed] of seeds.entries()) expect(solutions[k]!.routes).toEqual(solve(bench.problem, { timeLimitMs: 60_000, maxIterations: 40, seed }).routes);
  });

  it('fails a bad problem with a ProblemError, as solve() does, and keeps serving', async () => {
    const bad = { ...bench.problem, requests: [{ pickup: 10_000 }] };
    await expect(pool.solve(bad, { timeLimitMs: 10 })).rejects.toBeInstanceOf(ProblemError);
    expect((await pool.solve(bench.problem, { timeLimitMs: 60_000, maxIterations: 5 })).unassigned).toEqual([]);
  });
});

it('a closed pool rejects the job it was running and every later one', async () => {
  const pool = createSolverPool(1);
  const running = pool.solve(bench.problem, { timeLimitMs: 30_000 });
  const rejected = expect(running).rejects.toThrow(/shut down/);
  await pool.close();
  await rejected;
  await expect(pool.solve(bench.problem, { timeLimitMs: 10 })).rejects.toThrow(/shut down/);
});
