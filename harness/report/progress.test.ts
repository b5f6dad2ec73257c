import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { startVitest } from 'vitest/node';
import { buildReport } from './build.ts';
import { formatCounts, formatSummary, ProgressReporter } from './progress.ts';
import { sampleInput } from './test-support/sample.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

describe('ProgressReporter', () => {
  it('writes a line per finished suite file with its counts, then the totals', async () => {
    const lines: string[] = [];
    const exitCode = process.exitCode;
    const vitest = await startVitest('test', [], {
      config: false,
      root,
      dir: root,
      include: [
        'harness/report/test-support/reporter-fixture.checks.ts',
        'harness/report/test-support/broken-fixture.checks.ts',
      ],
      reporters: [new ProgressReporter({ root, write: (text) => lines.push(text) })],
      watch: false,
      fileParallelism: false,
    });
    await vitest.close();
    process.exitCode = exitCode;
    const output = lines.join('');
    expect(output).toMatch(
      /^✗ harness\/report\/test-support\/reporter-fixture\.checks\.ts {2}pass 2 · fail 1 · warn 1 · error 3 · n\/a 1 · harness errors 1 {2}\(\d+\.\d s\)$/m,
    );
    expect(output).toMatch(
      /^✗ harness\/report\/test-support\/broken-fixture\.checks\.ts {2}pass 0 · .* · harness errors 1 /m,
    );
    expect(output.trimEnd().split('\n').at(-1)).toBe(
      '2 suite file(s): pass 2 · fail 1 · warn 1 · error 3 · n/a 1 · harness errors 2',
    );
  }, 60_000);
});

describe('formatSummary', () => {
  it('states verdict, counts, coverage, failing checks, waiver news and the seed', () => {
    const model = buildReport(
      sampleInput({
        waivers: [
          { clause: '4.7.4', reason: 'tracked', expires: '2030-01-01' },
          { clause: '4.2.2', reason: 'fixed', expires: '2030-01-01' },
        ],
        leftovers: ['RES-7'],
      }),
    );
    const text = formatSummary(model, ['reports/report.html']);
    expect(text).toContain('Verdict: FAILED (spec 1.4.0, profile book)');
    expect(text).toContain(`Checks: ${formatCounts(model.verdict.counts)} · waived 1`);
    expect(text).toContain(`Coverage: 5/${model.coverage.clausesTotal} clauses`);
    expect(text).toContain('  fail  [4.7.3] 4.7.3/check of 4.7.3/json');
    expect(text).not.toContain('[4.7.4]');
    expect(text).toContain('Waiver 4.2.2 (2030-01-01): unused-passing');
    expect(text).toContain('Leftover reservations: RES-7');
    expect(text).toContain('Seed: 42');
    expect(text).toContain('Report: reports/report.html');
  });
});
