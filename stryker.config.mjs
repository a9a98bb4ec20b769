// Mutation testing of the pure rule files and the solver's feasibility code: `npm run mutation` (docs/testing.md).
// Only these files are mutated, and only their database-free unit and property tests run against each mutant.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  // Each mutant runs only the tests that import its file (and only those that reach the mutant).
  vitest: { configFile: 'vitest.mutation.config.ts', related: true },
  mutate: [
    'src/modules/dispatch/bookings/booking-status.ts',
    'src/modules/dispatch/visibility.ts',
    // Its message catalog is failure-messages.ts (translations, not rules).
    'src/modules/failures/failure-options.ts',
    'src/modules/compensation/compensation-total.ts',
    'src/modules/live/ingestion.ts',
    'src/modules/webhooks/retry-schedule.ts',
    'src/optimizer/route-state.ts',
    // The insertion scans' feasibility checks; the regret repair below them is a heuristic, not a rule.
    'src/optimizer/insertion.ts:14-141',
  ],
  coverageAnalysis: 'perTest',
  // The machine is shared by many builds: one mutant at a time.
  concurrency: 1,
  timeoutMS: 10_000,
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  tempDirName: '.stryker-tmp',
};
