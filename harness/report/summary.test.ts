import { describe, expect, it } from 'vitest';
import { buildReport } from './build.ts';
import { formatSummary } from './summary.ts';
import { failureEvidence, record, sampleInput } from './test-support/sample.ts';

describe('formatSummary (the terminal)', () => {
  it('states verdict and exit code, clause counts, coverage of judged clauses, failing clauses, waivers and the seed', () => {
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
    expect(text).toContain('Verdict: FAILED · exit 1 (spec 1.4.0, profile book)');
    expect(text).toMatch(/^Clauses: pass 2 · fail 1 · warn 1 · error 1 · n\/a 1 · not checked \d+ · waived 1$/m);
    expect(text).toContain(`Coverage: 4 / ${model.coverage.clausesTotal} clauses judged on this target`);
    // One line per failing clause: the clause id once, then the cause in words.
    expect(text).toContain('  fail  4.7.3    expected 200, got 422 — POST /reservations\n');
    expect(text).not.toContain('4.7.3/check of');
    expect(text).not.toMatch(/^ {2}\w+ +4\.7\.4/m);
    expect(text).toContain('Waiver 4.2.2 (2030-01-01): unused-passing');
    expect(text).toContain('Leftover reservations: RES-7');
    expect(text).toContain('Seed: 42');
    expect(text).toContain('Report: reports/report.html');
  });

  it('groups clauses that failed for one cause on one line, counted, root causes first', () => {
    const down = (clauseId: string) =>
      record({
        clauseId,
        outcome: 'error',
        evidence: { message: 'target unreachable: connect ECONNREFUSED', exchanges: [] },
      });
    const observation = { clauseId: '7.2.4', message: 'error envelope without requestId', count: 336 };
    const model = buildReport(
      sampleInput({
        checks: [
          record({ clauseId: '4.7.3', outcome: 'fail', evidence: failureEvidence() }),
          record({ clauseId: '4.2.1', outcome: 'pass', observations: [observation] }),
          ...['4.2.2', '4.2.3', '4.2.4', '4.2.5', '4.3.1'].map(down),
        ],
      }),
    );
    const text = formatSummary(model);
    const lines = text.split('\n');
    const start = lines.findIndex((line) => line.startsWith('Failing clauses (7), root causes first:'));
    expect(lines.slice(start + 1, start + 4)).toEqual([
      '  fail  7.2.4    error envelope without requestId (seen 336× by other checks)',
      '  error ×5       target unreachable: connect ECONNREFUSED (4.2.2, 4.2.3, 4.2.4, 4.2.5, 4.3.1)',
      '  fail  4.7.3    expected 200, got 422 — POST /reservations',
    ]);
    expect(text).toMatch(/^Note: the target stopped answering during the run: 5 check\(s\) could not run/m);
  });
});
