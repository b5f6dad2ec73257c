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

  it('one disagreement seen from both sides (each expected what the other got): neither expected from the other', () => {
    const stale = evidence(
      'GET after cancelling: expected "cancelled"; got "confirmed"',
      'GET',
      '/reservations/R-1',
      200,
      {
        expected: '"cancelled"',
        actual: '"confirmed"',
      },
    );
    const xml = evidence(
      'POST /reservations/R-2/cancel: the XML value against the JSON body: status: expected "confirmed"; got "cancelled"',
      'POST',
      '/reservations/R-2/cancel',
      200,
    );
    const seen = { clauseId: '6.3', message: 'GET /reservations lists it as "confirmed"', count: 5 };
    expect(
      order([
        record({ clauseId: '4.14.18a', outcome: 'fail', evidence: xml, representation: 'xml' }),
        record({ clauseId: '6.3', outcome: 'fail', evidence: stale }),
        record({ clauseId: '4.11.2', outcome: 'pass', observations: [seen] }),
      ]),
    ).toEqual(['6.3', '4.14.18a']);
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

  it('XML property names in snake_case after the XML rule they break, however often checks met them', () => {
    const snake = {
      clauseId: '9.3b',
      message: 'the availability answer: XML property names are spelled in snake_case, not as the JSON field names',
      count: 40,
    };
    const differs = evidence(
      'GET /locations: the XML value against the JSON body: locations[0].locationCode: expected "SGN-APT-01"; got none',
      'GET',
      '/locations',
      200,
    );
    expect(
      order([
        record({ clauseId: '4.5.1', outcome: 'pass', representation: 'xml', observations: [snake] }),
        record({ clauseId: '4.14.18a', outcome: 'fail', representation: 'xml', evidence: differs }),
      ]),
    ).toEqual(['4.14.18a', '9.3b']);
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

  it('a rule stated in several clauses: its owner first, however often checks met a restatement', () => {
    const offer = evidence(
      "quoteExpiresAt is 3600 s after the response's Date (spec: valid 30 minutes): expected at most 90000; got 1800000",
      'POST',
      '/availability',
      200,
    );
    const limit = evidence('offer KIA-MORNING-MT is valid 3600 s, not 1800 s', 'POST', '/availability', 200);
    const quote = evidence("expiresAt is 3600 s after the response's Date", 'POST', '/quotes', 201);
    const seen = { clauseId: '2.8.2', message: 'quoteExpiresAt of KIA-MORNING-MT: 3600 s, not 1800 s', count: 30 };
    // 8.2 states the 30 minutes for offers, quotes and bookings at once (contract/clause-refs.ts RESTATED_RULES).
    expect(
      order([
        record({ clauseId: '2.8.2', outcome: 'fail', evidence: offer }),
        record({ clauseId: '2.9.3', outcome: 'fail', evidence: quote }),
        record({ clauseId: '8.2', outcome: 'fail', evidence: limit }),
        record({ clauseId: '4.5.2', outcome: 'pass', observations: [seen] }),
      ]),
    ).toEqual(['8.2', '2.8.2', '2.9.3']);
  });

  it('a restatement that failed on another operation than its owner keeps its place', () => {
    const branch = evidence('locations[0] branchCode: expected a string; got 7', 'GET', '/locations', 200);
    const fee = evidence('oneWayFee across branches: expected more than 0; got 0', 'POST', '/quotes', 201);
    expect(
      order([
        record({ clauseId: '2.9.8c', outcome: 'fail', evidence: fee }),
        record({ clauseId: '2.6.15', outcome: 'fail', evidence: branch }),
      ]),
    ).toEqual(['2.6.15', '2.9.8c']);
    const sameFee = evidence('HAN-APT-01 → HAN-HK: expected 0; got 50000', 'POST', '/quotes', 201);
    expect(
      order([
        record({ clauseId: '2.9.8c', outcome: 'fail', evidence: fee }),
        record({ clauseId: '2.6.15', outcome: 'fail', evidence: sameFee }),
      ]),
    ).toEqual(['2.9.8c', '2.6.15']);
  });

  it('a rule that is one part of what clauses state: its owner first only when the failure shows that part', () => {
    const namespace = (got: string) => {
      const seen = {
        clauseId: '4.14.1',
        message: 'element is not in namespace urn:service:partner-api:v1',
        count: 400,
      };
      const version = evidence(`uri: expected "urn:service:partner-api:v1"; got "${got}"`, 'GET', '/locations', 200);
      return order([
        record({ clauseId: '4.2.1', outcome: 'pass', representation: 'xml', observations: [{ ...seen }] }),
        record({ clauseId: '9.4', outcome: 'fail', representation: 'xml', evidence: version }),
        record({
          clauseId: '4.14.1',
          outcome: 'fail',
          representation: 'xml',
          evidence: evidence(seen.message, 'GET', '/locations', 200),
        }),
      ]);
    };
    // The v1 namespace with another version is 9.4's (the version the namespace carries); any other is 4.14.1's.
    expect(namespace('urn:service:partner-api:v2')).toEqual(['9.4', '4.14.1']);
    expect(namespace('')).toEqual(['4.14.1', '9.4']);
  });

  it('a field sent under another spelling: the clause of field names before what the rename looks like elsewhere', () => {
    const missing = evidence('LocationList locations[0].locationCode is required; got none', 'GET', '/locations', 200);
    const unknown = evidence(
      'LocationList locations[0].location_code is not an allowed property',
      'GET',
      '/locations',
      200,
    );
    const names = evidence(
      "keys the spec does not name: expected []; got [ 'GET /locations: locations[0].location_code' ]",
      'GET',
      '/locations',
      200,
    );
    const blocked = { kind: 'blocked' as const, clauseId: '2.6.1', detail: 'blocked by 2.6.1: locations lack codes' };
    expect(
      order([
        record({ clauseId: '2.6.1', outcome: 'fail', evidence: missing }),
        record({ clauseId: '2.0.2', outcome: 'fail', evidence: unknown }),
        record({
          clauseId: '9.3b',
          outcome: 'fail',
          evidence: names,
          observations: [{ clauseId: '2.6.1', message: 'locations[1].locationCode is required', count: 1 }],
        }),
        // Every check that reads a location's code is blocked by the missing key, and still 9.3b comes first.
        ...['4.3.1', '4.5.1', '4.6.1'].map((clauseId) =>
          record({ clauseId, outcome: 'not-applicable', notApplicable: blocked }),
        ),
      ]),
    ).toEqual(['9.3b', '2.6.1', '2.0.2']);
    // An unknown key that respells no field of the spec is the object's to judge: spec order.
    const extra = evidence(
      "keys the spec does not name: expected []; got [ 'GET /locations: locations[0].x_y' ]",
      'GET',
      '/locations',
      200,
    );
    expect(
      order([
        record({ clauseId: '2.0.2', outcome: 'fail', evidence: unknown }),
        record({ clauseId: '9.3b', outcome: 'fail', evidence: extra }),
      ]),
    ).toEqual(['2.0.2', '9.3b']);
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
