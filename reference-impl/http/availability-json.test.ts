import { describe, expect, it } from 'vitest';
import type { AvailabilityResponse } from '../../contract/types.ts';
import { OPERATOR_DATA } from '../../fixtures/index.ts';
import { vnd } from '../domain/money.ts';
import { OperatorData } from '../domain/operator-data.ts';
import { availabilityJson as availabilityBytes } from './availability-json.ts';

/** The answer's bytes as text (every byte ASCII when right, so latin1 is exact). */
const availabilityJson = (value: unknown) => availabilityBytes(value).toString('latin1');

const operatorData = new OperatorData(OPERATOR_DATA);

function response(): AvailabilityResponse {
  return {
    availabilityModel: 'model_level_on_request',
    pickupLocation: 'SGN-APT-01',
    dropoffLocation: 'SGN-APT-01',
    pickupDateTime: '2027-01-24T10:00:00',
    dropoffDateTime: '2027-01-27T10:00:00',
    rentalDays: 3,
    accountCode: null,
    rateCode: 'PA-"quoted"\u2028',
    offers: operatorData.listVehicles().map((vehicle, i) => ({
      quoteId: `q.${i}.\u00e9"\\`,
      quoteExpiresAt: '2027-01-24T10:30:00.000Z',
      vehicle,
      rentalDays: 3,
      dailyRate: vnd(700_000 + i),
      estimatedTotal: vnd(2_100_000 + i),
      currency: 'VND',
    })),
  };
}

/** JSON.stringify's text with its non-ASCII characters escaped: the text availabilityJson must give. */
function asciiStringify(value: unknown): string {
  return JSON.stringify(value).replace(
    /[\u0080-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

describe('availabilityJson (the bytes of the value JSON.stringify gives, in ASCII, faster)', () => {
  it('gives JSON.stringify of the answer with non-ASCII escaped, twice (remembered vehicles and displays too)', () => {
    const value = response();
    expect(value.offers.length).toBeGreaterThan(1);
    const text = availabilityJson(value);
    expect(text).toBe(asciiStringify(value));
    expect(text).toMatch(/^[^\u0080-\uffff]*$/);
    expect(JSON.parse(text)).toEqual(value);
    expect(text).toContain('\\u20ab');
    expect(availabilityJson(value)).toBe(text);
  });

  it('leaves a money of another shape (a fault adding a field) to JSON.stringify', () => {
    const value = response();
    // Amounts are shared frozen objects (domain/money.ts): a changed money is a new one.
    const offer = value.offers[1] as unknown as Record<string, unknown>;
    offer.dailyRate = { ...(offer.dailyRate as object), extra: true };
    expect(availabilityJson(value)).toBe(asciiStringify(value));
  });

  it('leaves an offer of another shape (a fault adding or reordering fields) to JSON.stringify', () => {
    const extra = response();
    (extra.offers[0] as unknown as Record<string, unknown>).extra = 1;
    expect(availabilityJson(extra)).toBe(asciiStringify(extra));
    const reordered = response();
    const { quoteId, ...rest } = reordered.offers[0] as NonNullable<(typeof reordered.offers)[0]>;
    reordered.offers[0] = { ...rest, quoteId };
    expect(availabilityJson(reordered)).toBe(asciiStringify(reordered));
    const empty = { ...response(), offers: [] };
    expect(availabilityJson(empty)).toBe(asciiStringify(empty));
  });

  it('stays ASCII when a field of the known shape holds a value of another type (sent as latin1 bytes)', () => {
    const value = response();
    const offer = value.offers[0] as unknown as Record<string, unknown>;
    offer.rentalDays = 'ba ng\u00e0y';
    offer.dailyRate = { ...(offer.dailyRate as object), amount: '\u20ab' };
    const text = availabilityJson(value);
    expect(text).toBe(asciiStringify(value));
    expect(text).toMatch(/^[ -~]*$/);
  });
});
