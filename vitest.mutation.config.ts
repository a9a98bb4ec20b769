// Vitest for mutation runs (docs/testing.md): only the pure rule files' unit and property tests, no database.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'src/modules/dispatch/bookings/booking-status*.test.ts',
      'src/modules/dispatch/visibility.test.ts',
      'src/modules/dispatch/visibility.property.test.ts',
      'src/modules/failures/failure-options*.test.ts',
      'src/modules/compensation/compensation-total.test.ts',
      'src/modules/live/rules.test.ts',
      'src/modules/webhooks/retry-schedule.test.ts',
      'src/optimizer/route-state.test.ts',
      'src/optimizer/insertion.test.ts',
    ],
    pool: 'forks',
    testTimeout: 30_000,
    // One worker: the machine is shared (concurrency 1 in stryker.config.json as well).
    maxWorkers: 1,
  },
});
