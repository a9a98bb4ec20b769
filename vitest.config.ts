// Vitest: one migrated database template per run (PGlite dump, or a PostgreSQL template database).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'web/**/*.test.ts', 'web/**/*.test.tsx'],
    globalSetup: ['./test/global-setup.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    // expect.poll waits for what a browser page or a worker does; 1 s (vitest's default) is short on a busy machine.
    expect: { poll: { timeout: 10_000, interval: 50 } },
    hookTimeout: 60_000,
    // PGlite instances are large (~700 MiB while migrating): two files at a time on two cores.
    maxWorkers: 2,
    // Tests run in random order (files and tests within them) so order dependence shows up; vitest prints the seed
    // ("Running tests with seed …"), and `--sequence.seed=<seed>` replays a failing order.
    sequence: { shuffle: true, seed: Number(process.env.VITEST_SEED) || Date.now() % 1_000_000 },
  },
});
