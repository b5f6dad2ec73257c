import { fc, test as fcTest } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { validExample } from './schemas/examples.ts';
import { SCHEMA_NAMES, type SchemaName } from './schemas/index.ts';
import { REMOVE, withChange } from './schemas/test-helpers.ts';
import { type FieldError, type ValidationResult, validate } from './validation.ts';

function fieldsOf(result: ValidationResult): FieldError[] {
  if (result.valid) throw new Error('expected an invalid result');
  return result.fields;
}

function invalidFields(name: SchemaName, path: string, next: unknown): FieldError[] {
  return fieldsOf(validate(name, withChange(validExample(name), path, next)));
}

describe('validate: field paths', () => {
  it('names a nested field with dots', () => {
    expect(invalidFields('ReservationRequest', 'driver.email', 'nope')).toEqual([
      { field: 'driver.email', message: 'must be a valid email address' },
    ]);
  });

  it('names an array element with brackets', () => {
    expect(invalidFields('AvailabilityRequest', 'vehicleCodes', ['AB', 'CD', 'EF', 'x'])).toEqual([
      { field: 'vehicleCodes[3]', message: 'must match the pattern ^[A-Z0-9-]{2,32}$' },
    ]);
  });

  it('names a nested number field', () => {
    expect(invalidFields('AvailabilityRequest', 'extras.childSeats', 9)).toEqual([
      { field: 'extras.childSeats', message: 'must be at most 3' },
    ]);
  });

  it("names a missing required key by the key's own path", () => {
    expect(invalidFields('ReservationRequest', 'driver.firstName', REMOVE)).toEqual([
      { field: 'driver.firstName', message: 'is required' },
    ]);
  });

  it('names an unknown property by its own path', () => {
    expect(invalidFields('AvailabilityRequest', 'extras.foo', true)).toEqual([
      { field: 'extras.foo', message: 'is not an allowed property' },
    ]);
  });

  it('reports a root-level failure as body', () => {
    for (const body of [null, [], 'text', 42, true]) {
      expect(fieldsOf(validate('ReservationRequest', body))).toEqual([{ field: 'body', message: 'must be an object' }]);
    }
  });

  it('reports the required keys of an empty body by name', () => {
    expect(fieldsOf(validate('CancelRequest', {}))).toEqual([{ field: 'reason', message: 'is required' }]);
  });

  it('reports every problem at once', () => {
    const body = withChange(withChange(validExample('ReservationRequest'), 'driver.phone', '12'), 'remarks', 7);
    expect(fieldsOf(validate('ReservationRequest', body))).toEqual([
      { field: 'driver.phone', message: 'must be at least 5 characters' },
      { field: 'driver.phone', message: 'must match the pattern ^\\+[1-9][0-9]{3,14}$' },
      { field: 'remarks', message: 'must be a string' },
    ]);
  });

  it('quotes an unknown key that is not a plain name, and shortens a long one', () => {
    expect(invalidFields('AvailabilityRequest', 'extras', { 'a.b': 1 })).toEqual([
      { field: 'extras["a.b"]', message: 'is not an allowed property' },
    ]);
    const [only] = invalidFields('CancelRequest', 'k'.repeat(500), 1);
    expect(only?.field).toBe(`["${'k'.repeat(64)}…"]`);
  });

  it('reports the cdwInsurance and fullProtection rule on the extras object', () => {
    expect(invalidFields('QuoteRequest', 'extras', { cdwInsurance: true, fullProtection: true })).toEqual([
      { field: 'extras', message: 'must not contain both cdwInsurance and fullProtection' },
    ]);
  });

  it('reports only the non-null branch of a T|null object', () => {
    expect(invalidFields('Reservation', 'commission', 'free')).toEqual([
      { field: 'commission', message: 'must be an object or null' },
    ]);
  });

  it('keeps at most 20 fields, without duplicates', () => {
    const body: Record<string, unknown> = { reason: 'ok' };
    for (let i = 0; i < 30; i += 1) body[`extra${i}`] = i;
    const fields = fieldsOf(validate('CancelRequest', body));
    expect(fields).toHaveLength(20);
    expect(fields[0]).toEqual({ field: 'extra0', message: 'is not an allowed property' });
    expect(new Set(fields.map((f) => `${f.field}|${f.message}`)).size).toBe(20);
  });
});

describe('validate: hostile and odd input', () => {
  it('treats a parsed __proto__ key as an unknown property and leaves prototypes alone', () => {
    const body = JSON.parse('{"reason":"ok","__proto__":{"polluted":true}}');
    expect(fieldsOf(validate('CancelRequest', body))).toEqual([
      { field: '__proto__', message: 'is not an allowed property' },
    ]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('does not let an inherited property satisfy required', () => {
    const body = Object.create({ reason: 'inherited' });
    expect(fieldsOf(validate('CancelRequest', body))).toEqual([{ field: 'reason', message: 'is required' }]);
  });

  it('accepts objects without a prototype', () => {
    const body = Object.assign(Object.create(null), { reason: 'ok' });
    expect(validate('CancelRequest', body)).toEqual({ valid: true });
  });

  it('never throws, even on values JSON cannot hold', () => {
    const throwing = Object.defineProperty({}, 'reason', {
      enumerable: true,
      get() {
        throw new Error('boom');
      },
    });
    for (const value of [undefined, 10n, Symbol('s'), () => 1, Number.NaN, Number.POSITIVE_INFINITY, throwing]) {
      const result = validate('CancelRequest', value);
      expect(result.valid).toBe(false);
    }
  });

  fcTest.prop([fc.constantFrom(...SCHEMA_NAMES), fc.jsonValue()])(
    'returns a result for any JSON value, with 1 to 20 distinct fields when invalid',
    (name, value) => {
      const result = validate(name, value);
      if (result.valid) return;
      expect(result.fields.length).toBeGreaterThan(0);
      expect(result.fields.length).toBeLessThanOrEqual(20);
      expect(new Set(result.fields.map((f) => `${f.field}|${f.message}`)).size).toBe(result.fields.length);
    },
  );

  fcTest.prop([fc.constantFrom(...SCHEMA_NAMES), fc.anything({ withNullPrototype: true, withBigInt: true })])(
    'never throws on anything',
    (name, value) => {
      expect(() => validate(name, value)).not.toThrow();
    },
  );
});

/** Places in a reservation request where a customer value can be wrong in a way that is reported. */
const SECRET_PLACES: [string, (secret: string) => unknown][] = [
  ['driver.email', (s) => s],
  ['driver.phone', (s) => s],
  ['driver.firstName', (s) => s.repeat(20)],
  ['driver.lastName', (s) => ({ name: s })],
  ['driver.dateOfBirth', (s) => s],
  ['driver.nationality', (s) => s],
  ['driver.title', (s) => s],
  ['driver.idNumber', (s) => s.repeat(10)],
  ['partnerReference', (s) => s.repeat(10)],
  ['remarks', (s) => [s]],
  ['flightNumber', (s) => s.repeat(5)],
  ['quoteId', (s) => s.slice(0, 7)],
];

describe('validate: messages never echo the offending value', () => {
  fcTest.prop([
    fc.constantFrom(...SECRET_PLACES),
    fc.string({ minLength: 6, maxLength: 30, unit: 'grapheme-ascii' }).map((s) => `Zx9${s.replace(/\s/g, '_')}`),
  ])('a customer value in a reported field is not in any message', ([path, make], secret) => {
    const fields = invalidFields('ReservationRequest', path, make(secret));
    expect(fields.length).toBeGreaterThan(0);
    for (const { field, message } of fields) {
      expect(message).not.toContain(secret.slice(0, 7));
      expect(field).not.toContain(secret.slice(0, 7));
    }
  });

  fcTest.prop([fc.integer({ min: 1000, max: 1_000_000_000 })])('numbers out of range are not echoed', (n) => {
    for (const { message } of invalidFields('QuoteRequest', 'extras', { childSeats: n })) {
      expect(message).not.toContain(String(n));
    }
  });
});
