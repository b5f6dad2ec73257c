import { defineConfig } from 'vitest/config';

/**
 * `npm run test:long` (in .ci/run after npm test): the longer matrices that do not fit npm test's five minutes on
 * the 2-core CI machine: the fast mutation subset, the fuzz campaign against faults, the k6 script bundles and the
 * packed tarball's quick install (npm pack builds dist/ with tsc, about a minute), a full certification of a
 * server without test hooks, every named client fault of examples/faulty-client.ts under its scenario, and two small
 * matrices of the reference's faults: the failure messages and root causes of a handful (fault-reports, about two
 * minutes) and the answers a check cannot read (certify.unreadable, about a minute).
 */
export const LONG_TESTS = [
  'harness/mutation/fast.test.ts',
  'harness/runner/certify.fuzz-faults.test.ts',
  'load/k6/k6-scripts.test.ts',
  'harness/runner/package.install.test.ts',
  'harness/runner/certify.nohooks.test.ts',
  'harness/client-certify/client-faults.long.test.ts',
  'harness/report/fault-reports.test.ts',
  'harness/runner/certify.unreadable.test.ts',
];

export default defineConfig({
  test: {
    include: LONG_TESTS,
    testTimeout: 600_000,
    hookTimeout: 600_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
