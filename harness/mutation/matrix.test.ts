import { describe, expect, it } from 'vitest';
import { breachesOf, type RunOutcome, rowOf, summarize } from './matrix.ts';

const run = (flagged: string[], errors: string[] = [], passed = flagged.length === 0): RunOutcome => ({
  faults: [],
  exitCode: passed ? 0 : 1,
  passed,
  flagged,
  errors,
  judged: 361,
  durationMs: 1,
});
const fault = (name: string, clause: string) => ({ name, kind: 'fault' as const, clause, description: name });
const benign = (name: string) => ({ name, kind: 'benign' as const, clause: '3.7', description: name });
const thresholds = { minScore: 1, maxExtraClauses: 2, maxBenignFailures: 0, maxRunsWithErrors: 0 };

describe('mutation matrix', () => {
  it('a fault is caught only on its own clause; the rest are its extra clauses', () => {
    expect(rowOf(fault('a', '2.1.2'), run(['2.1.2', '2.9.8a']))).toMatchObject({ ok: true, extra: ['2.9.8a'] });
    expect(rowOf(fault('b', '2.1.2'), run(['2.9.8a']))).toMatchObject({ ok: false, extra: ['2.9.8a'] });
    expect(rowOf(fault('c', '2.1.2'), run([]))).toMatchObject({ ok: false, extra: [] });
  });

  it('a benign variant passes only with nothing flagged and no error', () => {
    expect(rowOf(benign('x'), run([])).ok).toBe(true);
    expect(rowOf(benign('y'), run(['3.7'])).ok).toBe(false);
    expect(rowOf(benign('z'), run([], ['3.7/check/json'])).ok).toBe(false);
  });

  it('scores, medians and breaches', () => {
    const rows = [
      rowOf(fault('a', '1.2'), run(['1.2'])),
      rowOf(fault('b', '2.1.2'), run(['2.1.2', '2.5.1', '2.9.1', '2.11.1'])),
      rowOf(fault('c', '4.7.3'), run(['4.0.12'])),
      rowOf(benign('d'), run(['3.7'])),
    ];
    const summary = summarize(run([]), rows);
    expect(summary).toMatchObject({
      faults: 3,
      caughtOnClause: 2,
      extraMedian: 1,
      extraMax: 3,
      benign: 1,
      benignPassed: 0,
    });
    const breaches = breachesOf(summary, thresholds);
    expect(breaches.join('\n')).toMatch(/score 66\.7%/);
    expect(breaches.join('\n')).toMatch(/3 clauses besides its own/);
    expect(breaches.join('\n')).toMatch(/1 benign variant/);
    expect(breachesOf(summarize(run([]), [rows[0] as never]), thresholds)).toEqual([]);
  });
});
