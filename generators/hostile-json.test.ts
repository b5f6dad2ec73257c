import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MEDIA_TYPES } from '../contract/constants.ts';
import { validExample } from '../contract/schemas/examples.ts';
import type { JsonValue } from '../contract/types.ts';
import { validate } from '../contract/validation.ts';
import type { BodyCase } from './cases.ts';
import { isAcceptance, isRejection } from './expectations.ts';
import { jsonAttacks } from './hostile-json.ts';
import { availabilityRequest, cancelRequest, quoteRequest, reservationRequest } from './requests.ts';
import { TODAY, testListings } from './test-listings.testkit.ts';

const cat = testListings();
const requests = fc.oneof(
  availabilityRequest(cat),
  quoteRequest(cat),
  reservationRequest('q_0123456789abcdef', TODAY),
  cancelRequest(),
);
const strict = new TextDecoder('utf-8', { fatal: true });
const lossy = new TextDecoder('utf-8');
/** How a strict server reads the body: UTF-8 first, then JSON. */
const parse = (c: BodyCase): unknown => JSON.parse(strict.decode(c.bytes));
const schemaOf = (value: object) =>
  'reason' in value
    ? 'CancelRequest'
    : 'quoteId' in value
      ? 'ReservationRequest'
      : 'vehicleCode' in value
        ? 'QuoteRequest'
        : 'AvailabilityRequest';

describe('jsonAttacks', () => {
  it('every case declares JSON, and names are unique', () => {
    const cases = jsonAttacks(validExample('AvailabilityRequest') as object);
    expect(new Set(cases.map((c) => c.name)).size).toBe(cases.length);
    for (const c of cases) expect(c.contentType).toBe(MEDIA_TYPES.json);
  });

  it('MALFORMED_JSON cases are not JSON; the UTF-8 ones are JSON once decoded leniently', () => {
    fc.assert(
      fc.property(requests, (value) => {
        for (const c of jsonAttacks(value)) {
          if (!isRejection(c.expect) || c.expect.reject[0]?.codes[0] !== 'MALFORMED_JSON') continue;
          expect(() => parse(c), c.name).toThrow();
          if (c.name.includes('invalid UTF-8')) {
            expect(() => strict.decode(c.bytes), c.name).toThrow();
            expect(() => JSON.parse(lossy.decode(c.bytes)), c.name).not.toThrow();
          }
        }
      }),
      { numRuns: 40 },
    );
  });

  it('duplicate names, prototype names and deep nesting are JSON; the fault is the only one', () => {
    fc.assert(
      fc.property(requests, (value) => {
        const schema = schemaOf(value);
        const cases = jsonAttacks(value);
        const get = (part: string) => cases.find((c) => c.name.includes(part)) as BodyCase;
        expect(parse(get('same value'))).toEqual(value);
        // JSON.parse keeps the last of two names.
        expect(validate(schema, parse(get('invalid value first')))).toEqual({ valid: true });
        expect(validate(schema, parse(get('invalid value last'))).valid).toBe(false);
        for (const part of ['"__proto__"', '"constructor"', 'nested arrays']) {
          const parsed = parse(get(part)) as Record<string, unknown>;
          const result = validate(schema, parsed);
          expect(result.valid, part).toBe(false);
          if (!result.valid) expect(result.fields).toHaveLength(1);
        }
        expect(get('"__proto__"').expect).not.toBe('unspecified');
      }),
      { numRuns: 40 },
    );
  });

  it('size cases are exact, and the padded body is the same value', () => {
    fc.assert(
      fc.property(requests, (value) => {
        const cases = jsonAttacks(value);
        const exact = cases.find((c) => c.name === 'json: exactly 32000 bytes') as BodyCase;
        const over = cases.find((c) => c.name === 'json: 32001 bytes') as BodyCase;
        expect(exact.bytes.length).toBe(32_000);
        expect(over.bytes.length).toBe(32_001);
        expect(parse(exact)).toEqual(value);
        expect(isAcceptance(exact.expect)).toBe(true);
        expect(over.expect).toBe('unspecified');
      }),
      { numRuns: 20 },
    );
  });

  it('top-level values of another type are JSON but no request; a BOM precedes the plain text', () => {
    fc.assert(
      fc.property(requests, (value) => {
        const cases = jsonAttacks(value);
        const topLevel = cases.filter((c) => c.name.includes('top-level'));
        expect(topLevel).toHaveLength(5);
        for (const c of topLevel) {
          const parsed = parse(c);
          expect(typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed), c.name).toBe(false);
          expect(isRejection(c.expect) && c.expect.reject[0]?.otherCodes, c.name).toBe(true);
        }
        const bom = cases.find((c) => c.name.includes('byte order mark')) as BodyCase;
        expect([...bom.bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
        expect(JSON.parse(strict.decode(bom.bytes.slice(3)))).toEqual(value);
        expect(bom.expect).toBe('unspecified');
      }),
      { numRuns: 20 },
    );
  });

  it('refuses a value that is not a request object', () => {
    expect(() => jsonAttacks([] as unknown as object)).toThrow();
    expect(() => jsonAttacks({})).toThrow();
  });

  it('the duplicate-name cases are unspecified, so no check asserts them', () => {
    const dupes = jsonAttacks(validExample('CancelRequest') as JsonValue as object).filter((c) =>
      c.name.includes('duplicate'),
    );
    expect(dupes).toHaveLength(3);
    for (const c of dupes) expect(c.expect).toBe('unspecified');
  });
});
