import { chai, describe, expect, it } from 'vitest';
import { LIBRARY_PHRASES } from '../report/message-audit.ts';
import { recordAssertionFacts } from './assertion-facts.ts';
import { buildEvidence } from './evidence.ts';
import type { EvidenceExchange } from './outcome-and-evidence.ts';

/** A suite's failed expect() in the report's words: `<what>: expected <E>; got <A>`, never the library's sentence. */

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('did not throw');
}

function exchange(method: string, path: string, status: number, body: unknown): EvidenceExchange {
  return {
    request: { method, url: `https://127.0.0.1:4010/api/partner/v1${path}`, headers: {} },
    response: { status, headers: {}, body: JSON.stringify(body) },
    curl: `curl -X ${method}`,
    durationMs: 1,
  };
}

const CASES: { name: string; fn: () => unknown; message: string; expected?: string; actual?: string }[] = [
  {
    name: 'a value against another',
    fn: () => expect('pending', 'status of a new reservation').toBe('confirmed'),
    message: 'status of a new reservation: expected "confirmed"; got "pending"',
    expected: '"confirmed"',
    actual: '"pending"',
  },
  {
    name: 'a value that must be there',
    fn: () => expect(null, 'GET /fleet vehicles[14] (KIA-MORNING-MT-X) doors').not.toBeNull(),
    message: 'GET /fleet vehicles[14] (KIA-MORNING-MT-X) doors: expected a value; got null',
    expected: 'a value',
    actual: 'null',
  },
  {
    name: 'a list that lacks an item',
    fn: () => expect([], 'the booked class is still offered').toContain('KIA-MORNING-MT'),
    message: 'the booked class is still offered: expected "KIA-MORNING-MT" among them; got []',
  },
  {
    name: 'a requirement that does not hold',
    fn: () => expect(false, 'estimatedTotal is a Money object').toBe(true),
    message: 'estimatedTotal is a Money object: not the case',
  },
  {
    name: 'a label stating the status wanted and, in brackets, the one that came back',
    fn: () => expect(false, 'a driver 16 years old: HTTP 400 (201 {"reservationId":"RSV-1"})').toBe(true),
    message: 'a driver 16 years old: HTTP status: expected 400; got HTTP 201',
  },
  {
    name: 'a bound',
    fn: () => expect(3, 'quoteId length').toBeGreaterThanOrEqual(8),
    message: 'quoteId length: expected at least 8; got 3',
  },
  {
    name: 'a pattern',
    fn: () => expect('mdmr', 'sippCode').toMatch(/^[A-Z]{4}$/),
    message: 'sippCode: expected a string matching /^[A-Z]{4}$/; got "mdmr"',
  },
  {
    name: 'two objects, by the first field that differs',
    fn: () =>
      expect({ code: 'A', dataQuality: { status: 'incomplete' } }, 'GET /fleet/A against its list entry').toEqual({
        code: 'A',
        dataQuality: { status: 'verified' },
      }),
    message: 'GET /fleet/A against its list entry: dataQuality.status: expected "verified"; got "incomplete"',
  },
  {
    name: 'a value that must differ',
    fn: () => expect([1], 'absent keys').not.toEqual([1]),
    message: 'absent keys: expected anything but [ 1 ]; got [ 1 ]',
  },
];

describe.each([
  { how: 'read back from the library’s sentence', install: false },
  { how: 'from the facts recorded when it failed', install: true },
])('plain words for a failed expect(), $how', ({ install }) => {
  if (install) recordAssertionFacts(chai);
  it.each(CASES)('$name', ({ fn, message, expected, actual }) => {
    const error = thrown(fn) as { name: string; message: string; expected?: unknown; actual?: unknown };
    // The same error without the recorded facts (another test file of the worker may have installed the recording).
    const bare = { name: error.name, message: error.message, expected: error.expected, actual: error.actual };
    const evidence = buildEvidence(install ? error : bare, []);
    expect(evidence.message).toBe(message);
    if (expected !== undefined) expect(evidence.expected).toBe(expected);
    if (actual !== undefined) expect(evidence.actual).toBe(actual);
    for (const phrase of LIBRARY_PHRASES) expect(evidence.message).not.toMatch(phrase);
  });
});

describe('the exchange a failed expect() is about is printed as the failing one (the last)', () => {
  it('a status: the exchange that answered it, also when the check sent others after', () => {
    recordAssertionFacts(chai);
    const conflict = exchange('POST', '/availability', 409, { error: { code: 'X' } });
    const later = exchange('GET', '/fleet', 200, { vehicles: [] });
    const evidence = buildEvidence(
      thrown(() => expect(409, `POST /availability: ${conflict.response?.body}`).toBe(200)),
      [conflict, later],
    );
    expect(evidence.message).toBe('POST /availability: HTTP status: expected 200; got HTTP 409');
    expect(evidence.exchanges.at(-1)).toBe(conflict);
    expect(evidence.exchanges).toHaveLength(2);
  });

  it('an item that came back: the list is what was allowed, the item what the answer held', () => {
    recordAssertionFacts(chai);
    const listing = exchange('GET', '/fleet', 200, { vehicles: [{ dataQuality: { status: 'incomplete' } }] });
    const evidence = buildEvidence(
      thrown(() => expect(['complete_unverified', 'verified'], 'GET /fleet vehicles[0]').toContain('incomplete')),
      [listing],
    );
    expect(evidence.message).toBe(
      "GET /fleet vehicles[0]: expected one of [ 'complete_unverified', 'verified' ]; got \"incomplete\"",
    );
    expect(evidence.actual).toBe('"incomplete"');
  });

  it('a header value that came back: the list is what was allowed, the value what the answer carried', () => {
    recordAssertionFacts(chai);
    const listing = exchange('GET', '/locations', 200, { locations: [] });
    if (listing.response) listing.response.headers['content-type'] = 'application/json; charset=utf-8';
    const evidence = buildEvidence(
      thrown(() => expect(['application/xml'], 'Content-Type').toContain('application/json')),
      [listing],
    );
    expect(evidence.message).toBe('Content-Type: expected one of [ \'application/xml\' ]; got "application/json"');
    expect(evidence.actual).toBe('"application/json"');
  });

  it('a list of what went wrong, judged at the end: the request that sent a value it names', () => {
    recordAssertionFacts(chai);
    const accepted = {
      ...exchange('POST', '/availability', 200, {}),
      request: {
        method: 'POST',
        url: 'https://127.0.0.1:4010/api/partner/v1/availability',
        headers: {},
        body: '{"pickupDate":"2026/12/30"}',
      },
    };
    const refused = exchange('POST', '/availability', 400, { error: { code: 'VALIDATION_ERROR' } });
    const evidence = buildEvidence(
      thrown(() =>
        expect([{ fault: 'pickupDate: date format "2026/12/30"', got: 200 }], 'faults not refused').toEqual([]),
      ),
      [accepted, refused],
    );
    expect(evidence.exchanges.at(-1)).toBe(accepted);
  });

  it('a label naming a request: the latest exchange of that request', () => {
    recordAssertionFacts(chai);
    const listing = exchange('GET', '/fleet', 200, { vehicles: [] });
    const single = exchange('GET', '/fleet/FORD', 200, {});
    const evidence = buildEvidence(
      thrown(() => expect(1, 'GET /fleet vehicles[0] doors').toBe(2)),
      [listing, single],
    );
    expect(evidence.exchanges.at(-1)).toBe(listing);
  });
});
