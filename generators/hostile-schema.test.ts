import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../contract/limits.ts';
import { validExample } from '../contract/schemas/examples.ts';
import { PATTERNS, type SchemaName } from '../contract/schemas/index.ts';
import type { JsonValue } from '../contract/types.ts';
import { validate } from '../contract/validation.ts';
import { isXmlRepresentable } from '../contract/xml/index.ts';
import { meetsRejection } from './expectations.ts';
import { malformedCodes, type SchemaFault, type SchemaFaultKind, schemaFault, schemaFaults } from './hostile-schema.ts';
import { differences, fieldName } from './json-path.ts';
import { availabilityRequest, cancelRequest, quoteRequest, reservationRequest } from './requests.ts';
import { TODAY, testListings } from './test-listings.testkit.ts';

const REQUESTS: SchemaName[] = ['AvailabilityRequest', 'QuoteRequest', 'ReservationRequest', 'CancelRequest'];

/** The fault is where the case says, alone: validation names that field (and nothing outside it), one change. */
function expectOneFault(valid: JsonValue, fault: SchemaFault): void {
  const result = validate(fault.schema, fault.value);
  expect(result.valid, fault.name).toBe(false);
  if (result.valid) return;
  const fields = result.fields.map((f) => f.field);
  expect(fields, fault.name).toContain(fault.path);
  const within = (f: string) =>
    fault.path === 'body' || f === fault.path || f.startsWith(`${fault.path}.`) || f.startsWith(`${fault.path}[`);
  for (const f of fields) expect(within(f), `${fault.name}: reported ${f}`).toBe(true);
  const changed = differences(valid, fault.value).map(fieldName);
  expect(changed.length, `${fault.name}: changed ${changed.join(', ')}`).toBeGreaterThan(0);
  for (const c of changed) {
    const related =
      c === 'body' || fault.path === 'body' || c === fault.path || fault.path.startsWith(c) || c.startsWith(fault.path);
    expect(related, `${fault.name}: also changed ${c}`).toBe(true);
  }
  expect(isXmlRepresentable(fault.value), fault.name).toBe(true);
  expect(meetsRejection(fault.expect, 400, 'VALIDATION_ERROR'), fault.name).toBe(true);
}

describe('schemaFaults of the contract examples', () => {
  for (const schema of REQUESTS) {
    it(`${schema}: every case has exactly one fault, reported at its path`, () => {
      const valid = validExample(schema) as JsonValue;
      const faults = schemaFaults(schema, valid);
      expect(faults.length).toBeGreaterThan(5);
      expect(new Set(faults.map((f) => f.name)).size).toBe(faults.length);
      for (const fault of faults) expectOneFault(valid, fault);
    });
  }

  it('cover every kind of fault, and each limit of LIMITS one past', () => {
    const all = [
      ...schemaFaults('AvailabilityRequest', validExample('AvailabilityRequest') as JsonValue),
      ...schemaFaults('QuoteRequest', validExample('QuoteRequest') as JsonValue),
      ...schemaFaults('ReservationRequest', validExample('ReservationRequest') as JsonValue),
      ...schemaFaults('CancelRequest', validExample('CancelRequest') as JsonValue),
    ];
    const kinds = new Set(all.map((f) => f.kind));
    const expected: SchemaFaultKind[] = [
      'type',
      'pattern',
      'format',
      'enum',
      'range',
      'length',
      'items',
      'unknown-property',
      'missing-required',
      'cdw-with-full-protection',
    ];
    for (const kind of expected) expect(kinds, kind).toContain(kind);
    const names = all.map((f) => f.name);
    const mustHave = [
      `vehicleCodes: ${LIMITS.vehicleCodesMaxItems + 1} items (max ${LIMITS.vehicleCodesMaxItems})`,
      `extras.childSeats: ${LIMITS.childSeats.min - 1} (minimum ${LIMITS.childSeats.min})`,
      `extras.childSeats: ${LIMITS.childSeats.max + 1} (maximum ${LIMITS.childSeats.max})`,
      `partnerReference: ${LIMITS.partnerReferenceMaxLength + 1} characters (max ${LIMITS.partnerReferenceMaxLength})`,
      `remarks: ${LIMITS.remarksMaxLength + 1} characters (max ${LIMITS.remarksMaxLength})`,
      `flightNumber: ${LIMITS.flightNumberMaxLength + 1} characters (max ${LIMITS.flightNumberMaxLength})`,
      `reason: ${LIMITS.cancelReasonLength.min - 1} characters (min ${LIMITS.cancelReasonLength.min})`,
      `reason: ${LIMITS.cancelReasonLength.max + 1} characters (max ${LIMITS.cancelReasonLength.max})`,
      `quoteId: ${LIMITS.quoteIdLength.min - 1} characters (min ${LIMITS.quoteIdLength.min})`,
      `quoteId: ${LIMITS.quoteIdLength.max + 1} characters (max ${LIMITS.quoteIdLength.max})`,
      'driver.email: 201 characters (max 200)',
      'driver.firstName: 101 characters (max 100)',
      'extras: both cdwInsurance and fullProtection',
      'certificationProbe: unknown property',
      'driver.certificationProbe: unknown property',
      'driver.phone: missing',
      'body: wrong type []',
    ];
    for (const name of mustHave) expect(names, name).toContain(name);
  });

  it('the email length fault keeps a valid address form, so only its length is wrong', () => {
    const fault = schemaFaults('ReservationRequest', validExample('ReservationRequest') as JsonValue).find(
      (f) => f.name === 'driver.email: 201 characters (max 200)',
    );
    const result = fault && validate('ReservationRequest', fault.value);
    expect(result?.valid === false && result.fields).toEqual([
      { field: 'driver.email', message: 'must be at most 200 characters' },
    ]);
  });

  it('malformed codes all break the VehicleCode / LocationCode pattern', () => {
    expect(malformedCodes().length).toBeGreaterThanOrEqual(4);
    for (const code of malformedCodes()) expect(code, code).not.toMatch(new RegExp(PATTERNS.locationCode));
  });

  it('phone faults are only clearly invalid numbers (ambiguity #2)', () => {
    const faults = schemaFaults('ReservationRequest', validExample('ReservationRequest') as JsonValue).filter(
      (f) => f.path === 'driver.phone' && f.kind === 'pattern',
    );
    expect(faults.length).toBeGreaterThanOrEqual(4);
    // The most lenient reading of "E.164 with country code, 5 to 20 chars": spaces allowed, up to 20 characters.
    const lenient = (phone: string) => phone.length <= 20 && /^\+[1-9][0-9]{3,18}$/.test(phone.replaceAll(' ', ''));
    for (const f of faults) {
      const phone = (f.value as { driver: { phone: string } }).driver.phone;
      expect(lenient(phone), f.name).toBe(false);
    }
    expect(lenient('+84 90 123 4567')).toBe(true);
    expect(lenient('+8490123456789012')).toBe(true);
  });

  it('fields with a code of their own in 4.12 also accept it', () => {
    const faults = schemaFaults('QuoteRequest', validExample('QuoteRequest') as JsonValue);
    const byName = (name: string) => faults.find((f) => f.name === name);
    expect(
      meetsRejection(
        byName('pickupLocation: pattern "lower-case"')?.expect ?? { reject: [], level: 'MUST', basis: '' },
        400,
        'INVALID_LOCATION',
      ),
    ).toBe(true);
    expect(
      meetsRejection(
        byName('pickupTime: pattern "24:00"')?.expect ?? { reject: [], level: 'MUST', basis: '' },
        400,
        'INVALID_RENTAL_WINDOW',
      ),
    ).toBe(true);
    const unknown = byName('certificationProbe: unknown property');
    // 7.3 leaves an unknown field's specific code open: a code of the server's own passes, a table code must fit.
    expect(unknown && meetsRejection(unknown.expect, 400, 'UNKNOWN_FIELD')).toBe(true);
    expect(unknown && meetsRejection(unknown.expect, 422, 'UNKNOWN_FIELD')).toBe(false);
    expect(unknown && meetsRejection(unknown.expect, 400, 'INVALID_LOCATION')).toBe(false);
    // "Violations such as …" names examples (audit 7.3-R2): any schema fault may get a code of the server's own.
    const time = byName('pickupTime: pattern "24:00"');
    expect(time && meetsRejection(time.expect, 400, 'INVALID_TIME_OF_DAY')).toBe(true);
    expect(time && meetsRejection(time.expect, 400, 'INVALID_LOCATION')).toBe(false);
  });

  it('refuses an invalid base value', () => {
    expect(() => schemaFaults('CancelRequest', { reason: '' })).toThrow(/invalid/);
  });
});

describe('schemaFault over generated values', () => {
  const cat = testListings();
  const cases: [SchemaName, fc.Arbitrary<object>][] = [
    ['AvailabilityRequest', availabilityRequest(cat)],
    ['QuoteRequest', quoteRequest(cat)],
    ['ReservationRequest', reservationRequest('q_0123456789abcdef', TODAY, { partnerReferencePrefix: 'CERT-' })],
    ['CancelRequest', cancelRequest()],
  ];
  for (const [schema, valid] of cases) {
    it(`${schema}: one fault per case`, () => {
      fc.assert(
        fc.property(
          valid.chain((v) => schemaFault(schema, fc.constant(v)).map((fault) => ({ v: v as JsonValue, fault }))),
          ({ v, fault }) => expectOneFault(v, fault),
        ),
        { numRuns: 150 },
      );
    });
  }
});
