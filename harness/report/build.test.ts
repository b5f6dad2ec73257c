import { describe, expect, it } from 'vitest';
import { CLAUSES, SECTIONS } from '../../contract/clauses/index.ts';
import { SPEC_RELEASE } from '../../contract/constants.ts';
import type { Outcome } from '../check/outcome-and-evidence.ts';
import { allChecks, buildReport, xmlOnlyToRepresentation } from './build.ts';
import type { CheckRecord } from './check-record.ts';
import type { ReportModel } from './model.ts';
import { OUTCOMES_WORST_FIRST, worstOutcome } from './outcome.ts';
import { failureEvidence, record, sampleInput } from './test-support/sample.ts';
import { trafficText } from './text.ts';

function clause(model: ReportModel, id: string) {
  const found = model.sections.flatMap((section) => section.clauses).find((item) => item.id === id);
  if (!found) throw new Error(`clause ${id} missing from the report`);
  return found;
}

describe('buildReport: clause catalogue', () => {
  it('lists every clause of the clause catalogue once, in its order, under its section in spec order', () => {
    const model = buildReport(sampleInput());
    const ids = model.sections.flatMap((section) => section.clauses.map((item) => item.id));
    expect(ids).toEqual(CLAUSES.map((item) => item.id));
    for (const section of model.sections) {
      expect(section.clauses.length).toBeGreaterThan(0);
      for (const item of section.clauses) expect(CLAUSES.find((c) => c.id === item.id)?.section).toBe(section.id);
    }
    const order = SECTIONS.map((section) => section.id);
    const positions = model.sections.map((section) => order.indexOf(section.id));
    expect(positions.every((position) => position >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    expect(model.sections.find((section) => section.id === '4.7')?.title).toBe(
      SECTIONS.find((section) => section.id === '4.7')?.title,
    );
    expect(model.spec.release).toBe(SPEC_RELEASE);
  });

  it('gives each clause the worst outcome of its checks, and not-checked without checks', () => {
    const model = buildReport(sampleInput());
    expect(clause(model, '4.7.3').outcome).toBe('fail');
    expect(clause(model, '4.2.1').outcome).toBe('pass');
    expect(clause(model, '4.3.1').outcome).toBe('not-applicable');
    expect(clause(model, '4.7.4').outcome).toBe('error');
    expect(clause(model, '5.7b').outcome).toBe('warn');
    expect(clause(model, '4.7.1').outcome).toBe('not-checked');
    expect(clause(model, '4.7.1').checks).toEqual([]);
  });

  it('orders outcomes error > fail > warn > pass > not-applicable', () => {
    expect(OUTCOMES_WORST_FIRST).toEqual(['error', 'fail', 'warn', 'pass', 'not-applicable']);
    for (const [index, worse] of OUTCOMES_WORST_FIRST.entries()) {
      for (const better of OUTCOMES_WORST_FIRST.slice(index)) {
        expect(worstOutcome([better, worse])).toBe(worse);
        expect(worstOutcome([worse, better])).toBe(worse);
      }
    }
    expect(worstOutcome([])).toBeUndefined();
  });

  it('builds check ids from clause, name and representation, numbering duplicates', () => {
    const model = buildReport(
      sampleInput({
        checks: [
          record({ clauseId: '4.2.3', name: 'lists', outcome: 'pass', representation: 'xml' }),
          record({ clauseId: '4.2.3', name: 'lists', outcome: 'pass', representation: 'json' }),
          record({ clauseId: '4.2.3', name: 'lists', outcome: 'fail', representation: 'json' }),
          record({ clauseId: '4.2.4', name: 'plain', outcome: 'pass' }),
        ],
      }),
    );
    expect(clause(model, '4.2.3').checks.map((check) => [check.id, check.outcome])).toEqual([
      ['4.2.3/lists/json', 'pass'],
      ['4.2.3/lists/json#2', 'fail'],
      ['4.2.3/lists/xml', 'pass'],
    ]);
    expect(clause(model, '4.2.4').checks[0]?.id).toBe('4.2.4/plain');
    expect(clause(model, '4.2.4').checks[0]?.level).toBe('MUST');
  });

  it('reports a check of an unknown clause as a harness error, which fails the verdict', () => {
    const model = buildReport(
      sampleInput({
        checks: [record({ clauseId: '99.1', outcome: 'pass' }), record({ clauseId: '4.2.1', outcome: 'pass' })],
      }),
    );
    expect(model.harnessErrors).toHaveLength(1);
    expect(model.harnessErrors?.[0]?.message).toContain('99.1');
    expect(allChecks(model)).toHaveLength(1);
    expect(model.verdict.passed).toBe(false);
  });
});

describe('buildReport: counts, coverage and verdict', () => {
  it('counts checks per outcome, per section and overall', () => {
    const model = buildReport(sampleInput());
    expect(model.verdict.counts).toEqual({ pass: 3, fail: 1, warn: 1, error: 1, 'not-applicable': 2 });
    const summed: Record<Outcome, number> = { pass: 0, fail: 0, warn: 0, error: 0, 'not-applicable': 0 };
    for (const section of model.sections) {
      for (const outcome of OUTCOMES_WORST_FIRST) summed[outcome] += section.counts[outcome];
    }
    expect(summed).toEqual(model.verdict.counts);
    expect(model.sections.find((section) => section.id === '4.7')?.counts).toEqual({
      pass: 1,
      fail: 1,
      warn: 0,
      error: 1,
      'not-applicable': 0,
    });
  });

  it('covers the clauses judged on this target (a check passed, failed or warned), over the whole clause catalogue', () => {
    const model = buildReport(sampleInput());
    // 4.2.1, 4.2.2, 4.7.3, 5.7b were judged; 4.7.4 only errored and 4.3.1 was only not-applicable.
    expect(model.coverage.clausesJudged).toBe(4);
    expect(model.coverage.clausesTotal).toBe(CLAUSES.length);
    expect(model.coverage.ratio).toBeCloseTo(4 / CLAUSES.length, 4);
    expect(clause(model, '4.7.4').judgedBy).toBeUndefined();
    expect(clause(model, '4.7.4').notJudged).toEqual(['no check of the clause could judge it (see the errors)']);
    const empty = buildReport(sampleInput({ checks: [] }));
    expect(empty.coverage.clausesJudged).toBe(0);
    expect(empty.coverage.ratio).toBe(0);
  });

  it('fails the verdict on a MUST failure or error', () => {
    expect(buildReport(sampleInput()).verdict.passed).toBe(false);
    const onlyError = [record({ clauseId: '4.2.1', outcome: 'error' }), record({ clauseId: '4.2.2', outcome: 'pass' })];
    expect(buildReport(sampleInput({ checks: onlyError })).verdict.passed).toBe(false);
    const onlyFail = [record({ clauseId: '4.2.1', outcome: 'fail' })];
    expect(buildReport(sampleInput({ checks: onlyFail })).verdict.passed).toBe(false);
  });

  it('passes with warnings and not-applicable checks unless strict', () => {
    const checks = [
      record({ clauseId: '4.2.1', outcome: 'pass' }),
      record({ clauseId: '5.7b', outcome: 'warn', level: 'SHOULD' }),
      record({ clauseId: '4.3.1', outcome: 'not-applicable' }),
    ];
    const lenient = buildReport(sampleInput({ checks }));
    expect(lenient.verdict.passed).toBe(true);
    const strict = buildReport(sampleInput({ checks, options: { ...sampleInput().options, strict: true } }));
    expect(strict.verdict.passed).toBe(false);
  });

  it('judges a SHOULD-level failure only under strict', () => {
    const checks = [record({ clauseId: '4.2.1', outcome: 'fail', level: 'SHOULD' })];
    expect(buildReport(sampleInput({ checks })).verdict.passed).toBe(true);
    const strictOptions = { ...sampleInput().options, strict: true };
    expect(buildReport(sampleInput({ checks, options: strictOptions })).verdict.passed).toBe(false);
  });

  it('fails the verdict when the harness reports errors no check owns', () => {
    const checks = [record({ clauseId: '4.2.1', outcome: 'pass' })];
    const model = buildReport(
      sampleInput({ checks, harnessErrors: [{ file: 'suites/04.02-fleet.test.ts', message: 'import failed' }] }),
    );
    expect(model.verdict.passed).toBe(false);
    expect(model.harnessErrors).toEqual([{ file: 'suites/04.02-fleet.test.ts', message: 'import failed' }]);
    expect(buildReport(sampleInput({ checks })).harnessErrors).toBeUndefined();
  });

  it('copies leftovers and keeps secrets out of the model', () => {
    const evidence = failureEvidence();
    const exchange = evidence.exchanges[0];
    if (!exchange) throw new Error('sample has an exchange');
    exchange.request.headers.authorization = 'Bearer eyJhbGciOiJIUzI1NiJ9.secret-token';
    exchange.curl = "curl -H 'Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.secret-token' -u client-1:s3cr3t https://x";
    const model = buildReport(
      sampleInput({
        checks: [record({ clauseId: '4.7.3', outcome: 'fail', evidence })],
        leftovers: ['R-1', 'R-2'],
      }),
    );
    const text = JSON.stringify(model);
    expect(text).not.toContain('secret-token');
    expect(text).not.toContain('s3cr3t');
    expect(text).toContain('Bearer [REDACTED]');
    expect(model.leftovers).toEqual(['R-1', 'R-2']);
    // The input is not modified.
    expect(exchange.request.headers.authorization).toContain('secret-token');
  });
});

describe('buildReport: waivers', () => {
  const today = '2025-06-01';

  it('waives the failures of a clause with a live waiver: listed apart, not counted in the verdict', () => {
    const checks = [
      record({ clauseId: '4.7.3', outcome: 'fail', representation: 'json', evidence: failureEvidence() }),
      record({ clauseId: '4.7.3', outcome: 'error', representation: 'xml' }),
      record({ clauseId: '4.2.1', outcome: 'pass' }),
    ];
    const waiver = { clause: '4.7.3', reason: 'ticket PAR-12', expires: today };
    const model = buildReport(sampleInput({ checks, waivers: [waiver], today }));
    expect(model.verdict.passed).toBe(true);
    expect(model.verdict.waived).toBe(2);
    expect(model.verdict.counts.fail).toBe(0);
    expect(model.verdict.counts.error).toBe(0);
    expect(model.verdict.counts.pass).toBe(1);
    const waivedClause = clause(model, '4.7.3');
    expect(waivedClause.outcome).toBe('error');
    expect(waivedClause.waived).toBe(true);
    expect(waivedClause.checks.map((check) => check.waived)).toEqual([
      { reason: 'ticket PAR-12', expires: today },
      { reason: 'ticket PAR-12', expires: today },
    ]);
    expect(model.sections.find((section) => section.id === '4.7')?.waived).toBe(2);
    expect(model.waivers).toEqual([{ clauseId: '4.7.3', reason: 'ticket PAR-12', expires: today, status: 'used' }]);
  });

  it('does not apply an expired waiver and reports it expired', () => {
    const checks = [record({ clauseId: '4.7.3', outcome: 'fail' })];
    const waiver = { clause: '4.7.3', reason: 'old', expires: '2025-05-31' };
    const model = buildReport(sampleInput({ checks, waivers: [waiver], today }));
    expect(model.verdict.passed).toBe(false);
    expect(model.verdict.waived).toBe(0);
    expect(model.verdict.counts.fail).toBe(1);
    expect(clause(model, '4.7.3').checks[0]?.waived).toBeUndefined();
    expect(clause(model, '4.7.3').waived).toBeUndefined();
    expect(model.waivers[0]?.status).toBe('expired');
  });

  it('judges expiry against the run day when no today is given', () => {
    const checks = [record({ clauseId: '4.7.3', outcome: 'fail' })];
    const waivers = [{ clause: '4.7.3', reason: 'x', expires: '2025-06-01' }];
    const input = sampleInput({ checks, waivers });
    expect(buildReport(input).waivers[0]?.status).toBe('used');
    const later = { ...input.timing, startedAt: '2025-06-02T00:00:00.000Z' };
    expect(buildReport({ ...input, timing: later }).waivers[0]?.status).toBe('expired');
  });

  it('flags a waiver whose clause passes entirely as unused-passing, and others as unused', () => {
    const checks = [
      record({ clauseId: '4.2.1', outcome: 'pass', representation: 'json' }),
      record({ clauseId: '4.2.1', outcome: 'pass', representation: 'xml' }),
      record({ clauseId: '4.2.2', outcome: 'pass' }),
      record({ clauseId: '4.2.2', outcome: 'not-applicable' }),
      record({ clauseId: '5.7b', outcome: 'warn', level: 'SHOULD' }),
      record({ clauseId: '4.7.3', outcome: 'fail' }),
    ];
    const waivers = [
      { clause: '4.7.3', reason: 'second for the same clause', expires: '2030-01-01' },
      { clause: '4.2.1', reason: 'fixed since', expires: '2030-01-01' },
      { clause: '4.2.2', reason: 'partly n/a', expires: '2030-01-01' },
      { clause: '4.7.1', reason: 'never checked', expires: '2030-01-01' },
      { clause: '5.7b', reason: 'warnings are not waived', expires: '2030-01-01' },
      { clause: '4.7.3', reason: 'third', expires: '2030-01-01' },
    ];
    const model = buildReport(sampleInput({ checks, waivers, today }));
    expect(model.waivers.map((waiver) => [waiver.clauseId, waiver.reason, waiver.status])).toEqual([
      ['4.2.1', 'fixed since', 'unused-passing'],
      ['4.2.2', 'partly n/a', 'unused'],
      ['4.7.1', 'never checked', 'unused'],
      ['4.7.3', 'second for the same clause', 'used'],
      ['4.7.3', 'third', 'unused'],
      ['5.7b', 'warnings are not waived', 'unused'],
    ]);
    expect(clause(model, '4.7.3').checks[0]?.waived?.reason).toBe('second for the same clause');
    expect(clause(model, '5.7b').checks[0]?.waived).toBeUndefined();
    expect(model.verdict.counts.warn).toBe(1);
  });
});

describe('buildReport: properties and examples', () => {
  it('counts the checks that judged by kind: generated cases make a property, n/a checks count as neither', () => {
    const model = buildReport(
      sampleInput({
        checks: [
          record({ clauseId: '4.2.3', name: 'property', outcome: 'pass', cases: { runs: 25, judged: 25 } }),
          record({ clauseId: '4.2.3', name: 'failing property', outcome: 'fail', cases: { runs: 25, judged: 3 } }),
          record({ clauseId: '4.2.4', name: 'example', outcome: 'pass' }),
          record({ clauseId: '4.2.5', name: 'n/a', outcome: 'not-applicable' }),
        ],
      }),
    );
    expect(model.coverage.checks).toEqual({ properties: 2, examples: 1 });
  });
});

describe('xmlOnlyToRepresentation', () => {
  const xmlRecord = (clauseId: string, representation: 'json' | 'xml', outcome: 'pass' | 'fail'): CheckRecord => ({
    clauseId,
    name: `${clauseId} check`,
    file: 'suites/x.test.ts',
    representation,
    outcome,
    durationMs: 1,
    ...(outcome === 'fail' ? { evidence: { message: 'served, not refused', exchanges: [] } } : {}),
  });

  it('a scope row met in JSON and broken in XML only is 4.13.5a\'s ("XML grants no extra access")', () => {
    const out = xmlOnlyToRepresentation([xmlRecord('4.0.9', 'json', 'pass'), xmlRecord('4.0.9', 'xml', 'fail')]);
    const xml = out.find((r) => r.representation === 'xml');
    expect(xml?.outcome).toBe('not-applicable');
    expect(xml?.observations?.map((o) => o.clauseId)).toEqual(['4.13.5a']);
    expect(xml?.observations?.[0]?.message).toMatch(/in XML only; JSON meets 4\.0\.9/);
  });

  it("initial credentials' scopes (1.7) met in JSON and broken in XML only are access too: 4.13.5a's", () => {
    const out = xmlOnlyToRepresentation([xmlRecord('1.7', 'json', 'pass'), xmlRecord('1.7', 'xml', 'fail')]);
    expect(out.find((r) => r.representation === 'xml')?.observations?.map((o) => o.clauseId)).toEqual(['4.13.5a']);
  });

  it("a field rule met in JSON and broken in XML only is 4.14.18a's (the same names and values)", () => {
    const out = xmlOnlyToRepresentation([xmlRecord('2.6.3', 'json', 'pass'), xmlRecord('2.6.3', 'xml', 'fail')]);
    expect(out.find((r) => r.representation === 'xml')?.observations?.map((o) => o.clauseId)).toEqual(['4.14.18a']);
  });

  it('a clause broken in JSON too stays where it is', () => {
    const out = xmlOnlyToRepresentation([xmlRecord('4.0.9', 'json', 'fail'), xmlRecord('4.0.9', 'xml', 'fail')]);
    expect(out.map((r) => r.outcome)).toEqual(['fail', 'fail']);
  });
});

describe('buildReport: traffic', () => {
  const traffic = (requests: Record<string, number>) => ({
    requests,
    provoked429: 0,
    unprovoked429: 0,
    waitedMs: 0,
  });

  it("sums the checks' requests by role and keeps pre-flight's apart, as the Traffic line says", () => {
    const input = sampleInput();
    const checks = input.checks.map((check, i) => ({ ...check, traffic: traffic({ partnerA: i + 1, anonymous: 1 }) }));
    const n = checks.length;
    const model = buildReport({ ...input, checks, preflightRequests: 6 });
    expect(model.traffic?.requests).toBe((n * (n + 1)) / 2 + n);
    expect(model.traffic?.preflight).toBe(6);
    expect(trafficText(model)).toMatch(
      new RegExp(`^${model.traffic?.requests} requests \\(anonymous ${n}, .*\\), and 6 at pre-flight; 429: 0 provoked`),
    );
    const without = buildReport({ ...input, checks });
    expect(without.traffic?.preflight).toBeUndefined();
    expect(trafficText(without)).not.toContain('pre-flight');
  });
});
