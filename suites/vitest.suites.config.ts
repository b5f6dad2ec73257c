import { defineConfig } from 'vitest/config';

/**
 * The conformance suites alone, for development runs against a target (harness/target/dev-run.ts). The certify
 * runner (harness/runner) uses its own equivalent configuration. Needs PARTNER_CERT_RUN (run settings file).
 */
export default defineConfig({
  test: {
    include: ['suites/**/*.test.ts'],
    // One file at a time: the process-wide pacing is then the run's pacing, and control operations never race.
    fileParallelism: false,
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
