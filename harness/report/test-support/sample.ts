import type { Evidence } from '../../check/outcome-and-evidence.ts';
import type { BuildReportInput } from '../build.ts';
import type { CheckRecord } from '../check-record.ts';

/** Test data for the report module's tests: synthetic check records over real clauses of the clause catalogue. */

export const XSS_PROBE = '</script><img src=x onerror=alert(1)>';

export const FAILING_CURL =
  "curl -sS -X POST 'http://127.0.0.1:4010/api/partner/v1/reservations' -H 'Authorization: Bearer $TOKEN_PARTNERA'";

export function failureEvidence(body = '{"code":"VALIDATION_ERROR"}'): Evidence {
  return {
    message: 'expected 200, got 422',
    expected: '200',
    actual: '422',
    exchanges: [
      {
        request: {
          method: 'POST',
          url: 'http://127.0.0.1:4010/api/partner/v1/reservations',
          headers: { authorization: 'Bearer [REDACTED]', 'content-type': 'application/json' },
          body: '{"quoteId":"q-1"}',
        },
        response: { status: 422, headers: { 'content-type': 'application/json', 'x-request-id': 'req-1' }, body },
        curl: FAILING_CURL,
        durationMs: 12,
      },
    ],
  };
}

export function record(overrides: Partial<CheckRecord> & Pick<CheckRecord, 'clauseId' | 'outcome'>): CheckRecord {
  return { name: `check of ${overrides.clauseId}`, file: 'suites/sample.test.ts', durationMs: 5, ...overrides };
}

/**
 * A run with every outcome: 4.2.x pass (one clause also n/a in XML), 4.7.3 fails in JSON and passes in XML,
 * 4.7.4 errors, 5.7b (SHOULD) warns, 4.3.1 is only not-applicable.
 */
export function sampleRecords(): CheckRecord[] {
  return [
    record({ clauseId: '4.2.1', outcome: 'pass', representation: 'json' }),
    record({
      clauseId: '4.2.1',
      outcome: 'not-applicable',
      representation: 'xml',
      notApplicable: { kind: 'profile', detail: 'needs shop' },
    }),
    record({ clauseId: '4.2.2', outcome: 'pass', representation: 'json' }),
    record({ clauseId: '4.7.3', outcome: 'fail', representation: 'json', evidence: failureEvidence() }),
    record({ clauseId: '4.7.3', outcome: 'pass', representation: 'xml' }),
    record({ clauseId: '4.7.4', outcome: 'error', evidence: { message: 'socket hang up', exchanges: [] } }),
    record({
      clauseId: '5.7b',
      outcome: 'warn',
      level: 'SHOULD',
      evidence: { message: 'no Retry-After', exchanges: [] },
    }),
    record({
      clauseId: '4.3.1',
      outcome: 'not-applicable',
      notApplicable: { kind: 'missing-credential', detail: 'partnerB is not configured' },
    }),
  ];
}

export function sampleInput(overrides: Partial<BuildReportInput> = {}): BuildReportInput {
  return {
    checks: sampleRecords(),
    tool: { name: 'partner-api-certification', version: '0.1.0' },
    target: { baseUrl: 'http://127.0.0.1:4010', embedded: true },
    profile: 'book',
    options: { allowBookings: true, strict: false, seed: 42, runs: 10, date: '2025-06-01', only: [] },
    timing: { startedAt: '2025-06-01T10:00:00.000Z', finishedAt: '2025-06-01T10:01:00.000Z', durationMs: 60_000 },
    ...overrides,
  };
}
