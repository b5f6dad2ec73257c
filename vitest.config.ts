import { existsSync } from 'node:fs';
import { configDefaults, defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { ChromiumNote } from './harness/report/test-support/chromium.ts';
import { LONG_TESTS } from './vitest.long.config.ts';

/**
 * The files that run a whole certification or start servers, longest first (measured with `npx vitest run
 * --reporter=json` on the 2-core machine, 2026-11-30: 49 s down to 7 s). A clean clone (CI, the bench's npm-test
 * row) has no duration cache, and vitest then starts the largest files first: the full certification (36 s), a
 * small file, could start last and run alone while the other worker sat idle. Any file not listed keeps vitest's
 * own order after these.
 */
export const LONGEST_FIRST = [
  'harness/runner/certify.verdict.test.ts',
  'harness/runner/certify.broken.test.ts',
  'harness/runner/certify.embedded.test.ts',
  'harness/runner/certify.patient.test.ts',
  'harness/runner/certify.postgres.test.ts',
  'harness/client-certify/limits.test.ts',
  'load/scenarios/scenarios.embedded.test.ts',
  'harness/runner/certify.fuzz.test.ts',
  'reference-impl/testing/crash.test.ts',
  'harness/client-certify/resilience.test.ts',
  'harness/client-certify/run.test.ts',
  'harness/runner/certify.reference.test.ts',
  'harness/runner/certify.scopes.test.ts',
  'harness/target/embedded.test.ts',
  'reference-impl/testing/outage.test.ts',
  'reference-impl/testing/disk-fault.test.ts',
  'harness/client-certify/client-faults.test.ts',
  'harness/client-certify/sandbox-program.test.ts',
  'reference-impl/testing/memory.test.ts',
  'load/cli.test.ts',
];

// A renamed file would silently lose its place: say so instead.
for (const path of LONGEST_FIRST) {
  if (!existsSync(new URL(path, import.meta.url))) throw new Error(`vitest.config.ts LONGEST_FIRST: no ${path}`);
}

export class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const ordered = await super.sort(files);
    const rank = (file: TestSpecification) => {
      const at = LONGEST_FIRST.findIndex((path) => file.moduleId.endsWith(`/${path}`));
      return at === -1 ? LONGEST_FIRST.length : at;
    };
    return ordered
      .map((file, index) => ({ file, index, rank: rank(file) }))
      .sort((a, b) => a.rank - b.rank || a.index - b.index)
      .map(({ file }) => file);
  }
}

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
    // One process per worker for all its files, not one per file: starting a fork and importing a file's modules
    // afresh took 103 s (vitest's "import" figure, summed over both workers) of a 289-s run on the 2-core machine;
    // without it the run took 211 to 215 s (2026-11-28), every test passing in this order and with the files
    // shuffled. So a test file must not rely on a fresh module graph: what it changes (process.env, listeners,
    // module state) it restores.
    isolate: false,
    // Two at a time on the 2-core CI machine: most slow files wait on child processes and sockets, not the CPU.
    maxWorkers: 2,
    sequence: { sequencer: LongestFirstSequencer },
    // Without Chromium the HTML report's browser checks are skipped: said once, after vitest's summary.
    reporters: ['default', new ChromiumNote()],
  },
});
