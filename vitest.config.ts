// Vitest: one migrated database template per run (PGlite dump, or a PostgreSQL template database).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['./test/global-setup.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // PGlite instances are large (~700 MiB while migrating): two files at a time on two cores.
    maxWorkers: 2,
  },
});
