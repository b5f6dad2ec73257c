import { describe, expect, it } from 'vitest';
import { buildReport } from './build.ts';
import type { ReportModel } from './model.ts';
import { failureEvidence, record, sampleInput } from './test-support/sample.ts';

const unreachable = (clauseId: string) =>
  record({
    clauseId,
    outcome: 'error',
    evidence: { message: 'target unreachable: connect ECONNREFUSED 127.0.0.1:4010', exchanges: [] },
  });

function clause(model: ReportModel, id: string) {
  const found = model.sections.flatMap((section) => section.clauses).find((item) => item.id === id);
  if (!found) throw new Error(`no clause ${id}`);
  return found;
}

describe('exit codes: one meaning each', () => {
  it('0 judged and passed, 1 judged and failed, 2 harness errors', () => {
    const pass = [record({ clauseId: '4.2.1', outcome: 'pass' })];
    expect(buildReport(sampleInput({ checks: pass })).verdict.exitCode).toBe(0);
    expect(buildReport(sampleInput()).verdict.exitCode).toBe(1);
    const broken = buildReport(sampleInput({ checks: pass, harnessErrors: [{ message: 'suite did not load' }] }));
    expect(broken.verdict.exitCode).toBe(2);
    expect(broken.verdict.notes?.[0]).toContain('harness error');
  });

  it('a run that judged nothing is never a pass: exit 2, with why', () => {
    const checks = [
      record({
        clauseId: '4.7.3',
        outcome: 'not-applicable',
        notApplicable: { kind: 'profile', detail: "needs profile book; the run's profile is catalog" },
      }),
      record({
        clauseId: '4.7.4',
        outcome: 'not-applicable',
        notApplicable: { kind: 'profile', detail: "needs profile full; the run's profile is catalog" },
      }),
    ];
    const model = buildReport(
      sampleInput({ checks, profile: 'catalog', options: { ...sampleInput().options, only: ['4.7'] } }),
    );
    expect(model.verdict.passed).toBe(false);
    expect(model.verdict.exitCode).toBe(2);
    expect(model.verdict.notes).toEqual([
      "no check could run: 4.7 needs profile book (the run's profile is catalog) (exit 2)",
    ]);
    expect(model.coverage.clausesJudged).toBe(0);
  });

  it('a target that stops answering: exit 2, unless something had already failed (then 1), one note either way', () => {
    const lost = buildReport(
      sampleInput({
        checks: [record({ clauseId: '4.2.1', outcome: 'pass' }), unreachable('4.2.2'), unreachable('4.3.1')],
      }),
    );
    expect(lost.verdict.exitCode).toBe(2);
    expect(lost.verdict.notes).toHaveLength(1);
    expect(lost.verdict.notes?.[0]).toMatch(/^the target stopped answering during the run: 2 check\(s\) could not run/);
    expect(lost.verdict.notes?.[0]).toContain('no verdict (exit 2)');

    const failedFirst = buildReport(
      sampleInput({
        checks: [record({ clauseId: '4.2.1', outcome: 'fail', evidence: failureEvidence() }), unreachable('4.2.2')],
      }),
    );
    expect(failedFirst.verdict.exitCode).toBe(1);
    expect(failedFirst.verdict.notes?.[0]).toContain('1 clause(s) had already failed, so the verdict stands (exit 1)');

    const nothingJudged = buildReport(sampleInput({ checks: [unreachable('4.2.2')] }));
    expect(nothingJudged.verdict.exitCode).toBe(2);
    expect(nothingJudged.verdict.notes?.[0]).toContain('the target stopped answering');
  });

  it('a failure seen only by other checks fails its clause, which counts as judged (live)', () => {
    const model = buildReport(
      sampleInput({
        checks: [
          record({
            clauseId: '4.2.1',
            outcome: 'pass',
            observations: [{ clauseId: '7.2.4', message: 'error envelope without requestId', count: 3 }],
          }),
        ],
      }),
    );
    const observed = clause(model, '7.2.4');
    expect(observed.outcome).toBe('fail');
    expect(observed.judgedBy).toEqual(['live']);
    expect(model.coverage.clausesJudged).toBe(2);
    expect(model.verdict.exitCode).toBe(1);
  });

  it('a deviation seen only by SHOULD checks warns on the clause it breaks, and fails it under --strict', () => {
    const seenBy = (level: 'MUST' | 'SHOULD') =>
      record({
        clauseId: '4.2.1',
        level,
        outcome: 'pass',
        observations: [{ clauseId: '7.2.1', message: 'a 404 without the error envelope', count: 1 }],
      });
    expect(clause(buildReport(sampleInput({ checks: [seenBy('SHOULD')] })), '7.2.1').outcome).toBe('warn');
    expect(clause(buildReport(sampleInput({ checks: [seenBy('MUST')] })), '7.2.1').outcome).toBe('fail');
    expect(clause(buildReport(sampleInput({ checks: [seenBy('SHOULD'), seenBy('MUST')] })), '7.2.1').outcome).toBe(
      'fail',
    );
    const strict = sampleInput({ checks: [seenBy('SHOULD')] });
    const strictModel = buildReport({ ...strict, options: { ...strict.options, strict: true } });
    expect(clause(strictModel, '7.2.1').outcome).toBe('fail');
  });
});

describe('--baseline and --fail-on new', () => {
  const before = buildReport(
    sampleInput({
      checks: [
        record({ clauseId: '4.2.1', outcome: 'fail', evidence: failureEvidence() }),
        record({ clauseId: '4.2.2', outcome: 'fail', evidence: failureEvidence() }),
        record({ clauseId: '4.3.1', outcome: 'pass' }),
        record({ clauseId: '4.2.5', outcome: 'pass' }),
      ],
    }),
  );
  const now = [
    record({ clauseId: '4.2.1', outcome: 'fail', evidence: failureEvidence() }),
    record({ clauseId: '4.2.2', outcome: 'pass' }),
    record({ clauseId: '4.3.1', outcome: 'fail', evidence: failureEvidence() }),
    record({ clauseId: '4.2.5', outcome: 'not-applicable', notApplicable: { kind: 'profile', detail: 'needs shop' } }),
  ];

  it('sorts clauses into new failures, fixed, unchanged and became not-applicable', () => {
    const model = buildReport(sampleInput({ checks: now, baseline: before }));
    expect(model.baseline).toEqual({
      from: { startedAt: before.timing.startedAt, seed: 42, toolVersion: '0.1.0' },
      newFailures: ['4.3.1'],
      fixed: ['4.2.2'],
      unchanged: ['4.2.1'],
      becameNotApplicable: ['4.2.5'],
    });
    expect(model.verdict.exitCode).toBe(1);
  });

  it('--fail-on new: only new failures fail the exit code; waivers still apply', () => {
    const options = { ...sampleInput().options, failOn: 'new' as const };
    const withNew = buildReport(sampleInput({ checks: now, baseline: before, options }));
    expect(withNew.verdict.passed).toBe(false);
    expect(withNew.verdict.exitCode).toBe(1);
    expect(withNew.verdict.notes?.[0]).toContain('4.3.1');

    const waived = buildReport(
      sampleInput({
        checks: now,
        baseline: before,
        options,
        waivers: [{ clause: '4.3.1', reason: 'PAR-9', expires: '2030-01-01' }],
      }),
    );
    expect(waived.baseline?.newFailures).toEqual([]);
    expect(waived.verdict.passed).toBe(false);
    expect(waived.verdict.exitCode).toBe(0);
    expect(waived.verdict.notes?.[0]).toContain('--fail-on new');
  });
});
