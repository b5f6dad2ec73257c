import { configDefaults, defineConfig } from 'vitest/config';
import { LONG_TESTS } from './vitest.long.config.ts';

export default defineConfig({
  test: {
    // suites/ are not unit tests: they are the conformance checks, run against a target by the certify runner.
    include: [
      'contract/**/*.test.ts',
      'fixtures/**/*.test.ts',
      'reference-impl/**/*.test.ts',
      'harness/**/*.test.ts',
      'generators/**/*.test.ts',
      'load/**/*.test.ts',
      // The suites' own helpers have unit tests too (suites/*.test.ts stay the conformance checks).
      'suites/support/**/*.test.ts',
    ],
    // The longer matrices run in `npm run test:long` (.ci/run), after npm test.
    exclude: [...configDefaults.exclude, ...LONG_TESTS],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two at a time on the 2-core CI machine: most slow files wait on child processes and sockets, not the CPU.
    maxWorkers: 2,
  },
});
