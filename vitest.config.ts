import { defineConfig } from 'vitest/config';

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
    ],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two at a time on the 2-core CI machine: most slow files wait on child processes and sockets, not the CPU.
    maxWorkers: 2,
  },
});
