import { defineConfig } from 'vitest/config';

/**
 * The conformance suites alone, for development runs against a target (harness/target/dev-run.ts). The certify
 * runner (harness/runner) needs the same settings. Needs PARTNER_CERT_RUN (the run-settings file).
 */
export default defineConfig({
  test: {
    include: ['suites/**/*.test.ts'],
    // One file at a time in one worker that keeps its modules: the token cache and the pacing are then the run's
    // (one token per role and scope set for the whole run, not per file), and control operations never race.
    fileParallelism: false,
    pool: 'forks',
    maxWorkers: 1,
    isolate: false,
    // --only leaves files whose clauses are not selected without tests: that is not a failure.
    passWithNoTests: true,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
