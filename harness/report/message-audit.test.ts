import { describe, expect, it } from 'vitest';
import type { EvidenceExchange } from '../check/outcome-and-evidence.ts';
import { buildReport } from './build.ts';
import { firstRootCause, messageProblems, problemsOf, rootCausePlace } from './message-audit.ts';
import { failureEvidence, record, sampleInput } from './test-support/sample.ts';

/** The rules the fault-report tests hold every message to, on messages as the reports have printed them. */

/** The sample exchange, answering `status`. */
function answered(status: number): EvidenceExchange {
  const exchange = failureEvidence().exchanges[0] as EvidenceExchange;
  return { ...exchange, response: { status, headers: {}, body: '' } };
}

describe('a failure message a person acts on', () => {
  it('never in the assertion library’s words', () => {
    for (const message of [
      "expected 'pending' to be 'confirmed' // Object.is equality",
      'expected null not to be null',
      "doors: expected [ 'complete_unverified', 'verified' ] to include 'incomplete'",
      'offers: expected {} to deeply equal { a: 1 }',
    ]) {
      expect(problemsOf(message, undefined), message).toHaveLength(1);
    }
    expect(problemsOf('status of a new reservation: expected "confirmed"; got "pending"', undefined)).toEqual([]);
  });

  it('a status it says came back is the status of the exchange printed under it', () => {
    const message = 'HTTP status: expected 404 NOT_FOUND; got HTTP 403 INSUFFICIENT_SCOPE';
    expect(problemsOf(message, answered(403))).toEqual([]);
    expect(problemsOf(message, answered(200))).toEqual(['quotes HTTP 403 above an exchange that answered 200']);
    // An expected status is not what came back.
    expect(problemsOf('POST /quotes: HTTP status: expected 201; got HTTP 200', answered(200))).toEqual([]);
  });

  it('an expected status is never worded as if it came back', () => {
    expect(problemsOf('HTTP status is 400 (spec 4.14.11)', answered(200))).toEqual([
      'an expected status worded as if it came back, and nothing says what did',
    ]);
  });

  it('judges the failing checks’ evidence, what checks filed under other clauses, and why checks were blocked', () => {
    const model = buildReport(
      sampleInput({
        checks: [
          record({
            clauseId: '4.7.3',
            outcome: 'fail',
            evidence: { ...failureEvidence(), message: 'expected 409 to be 200 // Object.is equality' },
          }),
          record({
            clauseId: '4.2.1',
            outcome: 'pass',
            observations: [{ clauseId: '7.2.4', message: 'HTTP status is 404', count: 2 }],
          }),
          record({
            clauseId: '4.2.2',
            outcome: 'not-applicable',
            notApplicable: { kind: 'blocked', clauseId: '4.0.6', detail: 'blocked by 4.0.6: expected 1 to be 2' },
          }),
        ],
      }),
    );
    expect(messageProblems(model).map((p) => p.clauseId)).toEqual(['4.2.2', '4.7.3', '7.2.4']);
  });
});

describe('the root cause a fault’s report lists first', () => {
  it('holds the fault’s own clause, or says where it is', () => {
    const model = buildReport(
      sampleInput({
        checks: [
          record({ clauseId: '4.7.3', outcome: 'fail', evidence: failureEvidence() }),
          record({ clauseId: '4.7.4', outcome: 'fail', evidence: { ...failureEvidence(), message: 'another cause' } }),
        ],
      }),
    );
    expect(rootCausePlace(model, '4.7.3')).toBe('first');
    expect(rootCausePlace(model, '4.7.4')).toBe('later');
    expect(rootCausePlace(model, '2.1.2')).toBe('not-failing');
  });

  it('is an entry of the report: the clauses failed for one cause, named together', () => {
    const model = buildReport(
      sampleInput({
        checks: ['4.7.3', '4.7.4'].map((clauseId) =>
          record({ clauseId, outcome: 'fail', evidence: failureEvidence() }),
        ),
      }),
    );
    expect(firstRootCause(model)).toEqual(['4.7.3', '4.7.4']);
    expect(rootCausePlace(model, '4.7.4')).toBe('first');
  });
});
