import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildReport } from '../report/build.ts';
import { renderJson } from '../report/json.ts';
import { sampleInput } from '../report/test-support/sample.ts';
import { reportSchemaErrors } from '../runner/test-support/report-files.ts';
import { breachesOf, identicalVerdicts, type MutationReport, type RunOutcome, rowOf, summarize } from './matrix.ts';
import { mergeMutationIntoReport, renderMutationPage, toReportMutation } from './render.ts';

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

  it('stability counts the runs with the first verdict, never a run that gave no report', () => {
    const noReport = { ...run([]), passed: undefined, problem: 'no report (exit 130)' };
    expect(identicalVerdicts([run([]), run([]), run(['8.14'])])).toBe(2);
    expect(identicalVerdicts([noReport, run(['8.14']), run(['8.14']), run([])])).toBe(2);
    expect(identicalVerdicts([noReport, noReport])).toBe(0);
    expect(identicalVerdicts([run([], ['5.6a/check/json']), run([])])).toBe(1);
  });

  it('a run stopped part way is a breach however good its finished rows are', () => {
    const summary = summarize(run([]), [rowOf(fault('a', '1.2'), run(['1.2']))]);
    const breaches = breachesOf(summary, thresholds, undefined, { rowsRun: 1, rowsSelected: 289, stabilityRuns: 0 });
    expect(breaches).toEqual(['interrupted: 1 of 289 faults and variants run, 0 stability run(s)']);
  });
});

describe('mutation matrix in the report', () => {
  const rows = [
    rowOf(fault('caught', '1.2'), run(['1.2', '2.5.1'])),
    rowOf(fault('elsewhere', '2.1.2'), run(['2.9.1'])),
    rowOf(fault('missed', '4.7.3'), run([])),
    rowOf(benign('fine'), run([])),
    rowOf(benign('false-failure'), run(['3.7'], ['3.7/x/json'])),
  ];
  const report: MutationReport = {
    schemaVersion: 1,
    startedAt: '2031-01-01T10:00:00.000Z',
    durationMs: 60_000,
    seed: 7,
    baseline: run([]),
    rows,
    summary: summarize(run([]), rows),
    thresholds,
    breaches: breachesOf(summarize(run([]), rows), thresholds),
  };

  it('says per fault whether it was caught on its clause and what else failed; per variant whether it passed', () => {
    const mutation = toReportMutation(report);
    expect(mutation.rows.map((row) => [row.name, row.result, row.otherFailed, row.errors])).toEqual([
      ['caught', 'caught', ['2.5.1'], 0],
      ['elsewhere', 'elsewhere', ['2.9.1'], 0],
      ['missed', 'missed', [], 0],
      ['fine', 'passed', [], 0],
      ['false-failure', 'failed', ['3.7'], 1],
    ]);
    const model = buildReport(sampleInput());
    model.mutation = mutation;
    expect(reportSchemaErrors(JSON.parse(renderJson(model)))).toEqual([]);
  });

  it('writes mutation.html in the report style, and merges into a report of the embedded reference only', () => {
    const page = renderMutationPage(report);
    expect(page).toContain('id="mutation"');
    expect(page).toContain('<tr class="mutation-row o-elsewhere" data-fault="elsewhere">');
    const dir = mkdtempSync(join(tmpdir(), 'mutation-merge-'));
    try {
      writeFileSync(join(dir, 'report.json'), renderJson(buildReport(sampleInput())));
      writeFileSync(join(dir, 'report.html'), '');
      expect(mergeMutationIntoReport(report, dir).map((file) => file.slice(dir.length + 1))).toEqual([
        'report.json',
        'report.html',
      ]);
      expect(readFileSync(join(dir, 'report.html'), 'utf8')).toContain('id="mutation"');
      const other = buildReport(sampleInput({ target: { baseUrl: 'https://x.example.test', embedded: false } }));
      writeFileSync(join(dir, 'report.json'), renderJson(other));
      expect(() => mergeMutationIntoReport(report, dir)).toThrow(/not a report of the embedded reference/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
