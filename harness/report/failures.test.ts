import { describe, expect, it } from 'vitest';
import type { Evidence } from '../check/outcome-and-evidence.ts';
import { buildReport } from './build.ts';
import type { CheckRecord } from './check-record.ts';
import { failingClauses, groupByCause } from './failures.ts';
import { record, sampleInput } from './test-support/sample.ts';

/** Root causes that are roots: the clause a deviation breaks before the clauses that only met it on the way. */

function evidence(message: string, method: string, path: string, status: number, sides: Partial<Evidence> = {}) {
  return {
    message,
    ...sides,
    exchanges: [
      {
        request: { method, url: `https://127.0.0.1:4010/api/partner/v1${path}`, headers: {} },
        response: { status, headers: {}, body: '{}' },
        curl: `curl -X ${method}`,
        durationMs: 1,
      },
    ],
  };
}

const order = (checks: CheckRecord[]) =>
  failingClauses(buildReport(sampleInput({ checks }))).map((item) => item.clause.id);

describe('failing clauses, roots first', () => {
  it('the listing rule before the GET by code that met the listed vehicle, however often that GET was seen', () => {
    const listing = evidence(
      "GET /fleet vehicles[0] KIA-MORNING-MT dataQuality.status: expected one of [ 'complete_unverified', 'verified' ]; got \"incomplete\"",
      'GET',
      '/fleet',
      200,
    );
    const single = evidence(
      'GET /fleet/KIA-MORNING-MT: expected 200; got HTTP 409',
      'GET',
      '/fleet/KIA-MORNING-MT',
      409,
    );
    const seen = { clauseId: '4.0.6', message: 'GET /fleet/{vehicleCode} answers 200; got HTTP 409', count: 12 };
    expect(
      order([
        record({ clauseId: '4.0.6', outcome: 'fail', evidence: single }),
        record({ clauseId: '2.5.23', outcome: 'fail', evidence: listing }),
        record({ clauseId: '4.2.1', outcome: 'pass', observations: [seen] }),
      ]),
    ).toEqual(['2.5.23', '4.0.6']);
  });

  it('a clause whose failing check ran into another on its way comes after it', () => {
    const broken = evidence('error.code: expected a string; got 400', 'POST', '/quotes', 400);
    const refused = evidence('HTTP status: expected 409 QUOTE_EXPIRED; got HTTP 400', 'POST', '/reservations', 400);
    const ranInto = { clauseId: '7.2.2', message: 'error.code: expected a string; got 400', count: 1 };
    expect(
      order([
        record({ clauseId: '4.7.3', outcome: 'fail', evidence: refused, observations: [ranInto] }),
        record({ clauseId: '7.2.2', outcome: 'fail', evidence: broken }),
        // Seen more often than 7.2.2, and still after it.
        record({
          clauseId: '4.2.1',
          outcome: 'pass',
          observations: [{ clauseId: '4.7.3', message: 'POST /reservations answers 201; got HTTP 400', count: 5 }],
        }),
      ]),
    ).toEqual(['7.2.2', '4.7.3']);
  });

  it('a check that expected what another clause’s answer carried comes after that clause', () => {
    const listed = evidence(
      'GET /locations locations[0] SGN-APT-01 timezone ICT: not the case',
      'GET',
      '/locations',
      200,
    );
    const quoted = evidence(
      'rental.timezone is the pickup location timezone: expected "ICT"; got "Asia/Ho_Chi_Minh"',
      'POST',
      '/quotes',
      201,
      { expected: '"ICT"', actual: '"Asia/Ho_Chi_Minh"' },
    );
    expect(
      order([
        record({ clauseId: '2.4.9', outcome: 'fail', evidence: quoted }),
        record({ clauseId: '2.6.10', outcome: 'fail', evidence: listed }),
      ]),
    ).toEqual(['2.6.10', '2.4.9']);
  });

  it('of two failures at one field, the clause about the field before the one about what holds it', () => {
    const accepted = {
      clauseId: '2.12.3',
      message: 'AvailabilityRequest with pickupDate: date format "2027/01/04" is refused; got HTTP 200',
      count: 2,
    };
    const notRefused = evidence('AvailabilityRequest faults at pickupDate not refused', 'POST', '/availability', 200);
    expect(
      order([
        record({ clauseId: '4.5.1', outcome: 'pass', observations: [accepted] }),
        record({ clauseId: '2.4.3', outcome: 'fail', evidence: notRefused }),
      ]),
    ).toEqual(['2.4.3', '2.12.3']);
  });

  it('a rule of the XML representation before the differences of XML answers it explains', () => {
    const refused = evidence(
      'pickupTime with a decimal reference for ":": the answer differs',
      'POST',
      '/availability',
      400,
    );
    const xmlOnly = {
      clauseId: '4.14.18a',
      message:
        'HTTP status: expected 404 NOT_FOUND; got HTTP 400 MALFORMED_XML (spec 4.11.3) (in XML only; JSON meets 4.11.3)',
      count: 5,
    };
    expect(
      order([
        record({ clauseId: '4.11.3', outcome: 'pass', observations: [xmlOnly] }),
        record({ clauseId: '4.14.15', outcome: 'fail', evidence: refused }),
      ]),
    ).toEqual(['4.14.15', '4.14.18a']);
  });

  it('two clauses stating one rule, failed on one deviation: in spec order', () => {
    const pending = evidence(
      'status of a new reservation: expected "confirmed"; got "pending"',
      'POST',
      '/reservations',
      201,
    );
    expect(
      order([
        record({ clauseId: '3.2', outcome: 'fail', evidence: pending }),
        record({ clauseId: '1.3a', outcome: 'fail', evidence: pending }),
        record({ clauseId: '1.3a', outcome: 'pass', representation: 'xml' }),
      ]),
    ).toEqual(['1.3a', '3.2']);
  });

  it('unrelated clauses keep their order: most seen first, then spec order', () => {
    expect(
      order([
        record({ clauseId: '4.7.3', outcome: 'fail', evidence: evidence('a', 'POST', '/reservations', 400) }),
        record({ clauseId: '2.1.2', outcome: 'fail', evidence: evidence('b', 'GET', '/fleet', 200) }),
      ]),
    ).toEqual(['2.1.2', '4.7.3']);
  });

  it('a group names the request its clauses were seen on', () => {
    const refused = evidence(
      'HTTP status: expected 404 NOT_FOUND; got HTTP 403 INSUFFICIENT_SCOPE',
      'GET',
      '/fleet/XYZ',
      403,
    );
    const model = buildReport(
      sampleInput({
        checks: ['4.2.5', '7.3.20'].map((clauseId) => record({ clauseId, outcome: 'fail', evidence: refused })),
      }),
    );
    const [group] = groupByCause(failingClauses(model));
    expect(group?.headline).toBe(
      'HTTP status: expected 404 NOT_FOUND; got HTTP 403 INSUFFICIENT_SCOPE — GET /fleet/XYZ',
    );
    expect(group?.items.map((item) => item.clause.id)).toEqual(['4.2.5', '7.3.20']);
  });
});
