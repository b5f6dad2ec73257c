import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { daysBetween, yearsBefore } from '../contract/iso-date.ts';
import { LIMITS } from '../contract/limits.ts';
import type { SchemaName } from '../contract/schemas/index.ts';
import type { JsonValue } from '../contract/types.ts';
import { validate } from '../contract/validation.ts';
import { isXmlRepresentable } from '../contract/xml/index.ts';
import { driver, emailOfLength } from './driver.ts';
import { rentalWindow } from './rental-window.ts';
import {
  availabilityRequest,
  cancelRequest,
  extras,
  idempotencyKey,
  quoteRequest,
  reservationRequest,
  tokenForm,
} from './requests.ts';
import { TODAY, testListings } from './test-listings.testkit.ts';

const RUNS = { numRuns: 100 };
const cat = testListings();
const locationOf = (code: string) => cat.locations.find((l) => l.locationCode === code);

/** Every value validates against its schema and has an XML form (spec 4.14). */
function expectValid(schema: SchemaName, arbitrary: fc.Arbitrary<object>): void {
  fc.assert(
    fc.property(arbitrary, (value) => {
      expect(validate(schema, value)).toEqual({ valid: true });
      expect(isXmlRepresentable(value as JsonValue)).toBe(true);
    }),
    RUNS,
  );
}

describe('valid arbitraries validate against their schema and have an XML form', () => {
  const quoteId = 'q_0123456789abcdef';
  const cases: [SchemaName, fc.Arbitrary<object>][] = [
    ['RentalWindow', rentalWindow(cat)],
    ['RentalWindow', rentalWindow(cat, { sameBranch: false })],
    ['Extras', extras()],
    ['Driver', driver(TODAY)],
    ['AvailabilityRequest', availabilityRequest(cat)],
    ['AvailabilityRequest', availabilityRequest(cat, { sameBranch: false, rate: 'plan' })],
    ['QuoteRequest', quoteRequest(cat)],
    ['QuoteRequest', quoteRequest(cat, { sameBranch: false })],
    ['ReservationRequest', reservationRequest(quoteId, TODAY)],
    ['ReservationRequest', reservationRequest(quoteId, TODAY, { partnerReferencePrefix: 'CERT-R1-' })],
    ['CancelRequest', cancelRequest()],
    ['TokenRequest', tokenForm('client-1', 's3cret', ['fleet:read', 'rates:read', 'quotes:write'])],
  ];
  for (const [schema, arbitrary] of cases) it(schema, () => expectValid(schema, arbitrary));
});

describe('rentalWindow', () => {
  it('picks up 1 to 300 days ahead at a pickup location, drops off later at a dropoff location of the branch', () => {
    fc.assert(
      fc.property(rentalWindow(cat), (w) => {
        const pickup = locationOf(w.pickupLocation);
        const dropoff = locationOf(w.dropoffLocation);
        expect(pickup?.capabilities.pickup).toBe(true);
        expect(dropoff?.capabilities.dropoff).toBe(true);
        expect(dropoff?.branchCode).toBe(pickup?.branchCode);
        const ahead = daysBetween(TODAY, w.pickupDate);
        expect(ahead).toBeGreaterThanOrEqual(1);
        expect(ahead).toBeLessThanOrEqual(300);
        expect(`${w.dropoffDate}T${w.dropoffTime}` > `${w.pickupDate}T${w.pickupTime}`).toBe(true);
      }),
      RUNS,
    );
  });

  it('sameBranch false: another branch, both ends one-way capable, two days or more across timezones', () => {
    fc.assert(
      fc.property(rentalWindow(cat, { sameBranch: false }), (w) => {
        const pickup = locationOf(w.pickupLocation);
        const dropoff = locationOf(w.dropoffLocation);
        expect(dropoff?.branchCode).not.toBe(pickup?.branchCode);
        expect(pickup?.capabilities.oneWay && dropoff?.capabilities.oneWay).toBe(true);
        if (pickup?.timezone !== dropoff?.timezone) {
          expect(daysBetween(w.pickupDate, w.dropoffDate)).toBeGreaterThanOrEqual(2);
        }
      }),
      RUNS,
    );
  });

  it('sends accountCode and rateCode together, of a listed plan, with both dates inside its validity', () => {
    fc.assert(
      fc.property(rentalWindow(cat, { rate: 'plan' }), (w) => {
        const plan = cat.rates.find((r) => r.accountCode === w.accountCode && r.rateCode === w.rateCode);
        expect(plan).toBeDefined();
        if (plan?.validFrom) expect(w.pickupDate >= plan.validFrom).toBe(true);
        if (plan?.validTo) expect(w.dropoffDate <= plan.validTo).toBe(true);
        expect(plan?.rateCode).not.toBe('EXPIRED');
      }),
      RUNS,
    );
    fc.assert(
      fc.property(rentalWindow(cat, { rate: 'public' }), (w) => {
        expect('accountCode' in w || 'rateCode' in w).toBe(false);
      }),
      RUNS,
    );
  });

  it('throws when the listings offer no such window', () => {
    const oneBranch = { ...cat, locations: cat.locations.filter((l) => l.branchCode === 'HCM') };
    expect(() => rentalWindow(oneBranch, { sameBranch: false })).toThrow(/no window/);
    expect(() => rentalWindow({ ...cat, rates: [] }, { rate: 'plan' })).toThrow(/no window/);
  });
});

describe('shopping requests', () => {
  it('quoteRequest asks for a complete vehicle offered at the pickup location', () => {
    fc.assert(
      fc.property(quoteRequest(cat), (q) => {
        const vehicle = cat.vehicles.find((v) => v.vehicleCode === q.vehicleCode);
        expect(vehicle?.locationCodes).toContain(q.pickupLocation);
        expect(vehicle?.dataQuality.status).not.toBe('incomplete');
      }),
      RUNS,
    );
  });

  it('availabilityRequest filters on distinct vehicles offered at the pickup location', () => {
    fc.assert(
      fc.property(availabilityRequest(cat), (a) => {
        for (const code of a.vehicleCodes ?? []) {
          expect(cat.vehicles.find((v) => v.vehicleCode === code)?.locationCodes).toContain(a.pickupLocation);
        }
        expect(new Set(a.vehicleCodes).size).toBe(a.vehicleCodes?.length ?? 0);
      }),
      RUNS,
    );
  });

  it('extras never hold both cdwInsurance and fullProtection; childSeats 0 to 3', () => {
    fc.assert(
      fc.property(extras(), (x) => {
        expect('cdwInsurance' in x && 'fullProtection' in x).toBe(false);
        if (x.childSeats !== undefined) expect(x.childSeats >= 0 && x.childSeats <= 3).toBe(true);
      }),
      RUNS,
    );
  });
});

describe('driver', () => {
  it('is 18 or over on today with a margin, and at most maxAge', () => {
    fc.assert(
      fc.property(driver(TODAY), (d) => {
        expect(d.dateOfBirth < yearsBefore(TODAY, 18)).toBe(true);
        expect(d.dateOfBirth > yearsBefore(TODAY, 81)).toBe(true);
      }),
      RUNS,
    );
    fc.assert(
      fc.property(driver(TODAY, { minAge: 25, maxAge: 25 }), (d) => {
        expect(d.dateOfBirth < yearsBefore(TODAY, 25)).toBe(true);
        expect(d.dateOfBirth > yearsBefore(TODAY, 26)).toBe(true);
      }),
      { numRuns: 30 },
    );
  });

  it('handles 29 February as today', () => {
    fc.assert(
      fc.property(driver('2032-02-29'), (d) => {
        expect(validate('Driver', d)).toEqual({ valid: true });
        expect(d.dateOfBirth <= '2014-02-26').toBe(true);
      }),
      { numRuns: 30 },
    );
  });

  it('names carry Vietnamese diacritics in some runs and emails stay within 200', () => {
    const drivers = fc.sample(driver(TODAY), { seed: 7, numRuns: 200 });
    expect(drivers.some((d) => /[ăâđêôơưạảấầẩẫậắằẳẵặẹẻẽếềểễệỉịọỏốồổỗộớờởỡợụủứừửữựỳỵỷỹ]/i.test(d.lastName))).toBe(true);
    for (const d of drivers) expect(d.email.length).toBeLessThanOrEqual(200);
    expect(drivers.some((d) => d.email.length === 200)).toBe(true);
  });

  it('emailOfLength is exact and a valid address', () => {
    for (const n of [13, 40, 64, 76, 77, 140, 200, 201, 250]) {
      const address = emailOfLength(n);
      expect(address).toHaveLength(n);
      const driverWith = {
        firstName: 'A',
        lastName: 'B',
        email: address,
        phone: '+84901234567',
        dateOfBirth: '1990-01-01',
      };
      const result = validate('Driver', driverWith);
      if (n <= 200) expect(result).toEqual({ valid: true });
      else expect(result.valid).toBe(false);
      for (const label of address.split('@')[1]?.split('.') ?? []) expect(label.length).toBeLessThanOrEqual(63);
    }
  });
});

describe('reservationRequest', () => {
  it('uses the prefix for partnerReference within 64 characters, and refuses a prefix that leaves no room', () => {
    fc.assert(
      fc.property(reservationRequest('q_0123456789', TODAY, { partnerReferencePrefix: 'CERT-' }), (r) => {
        expect(r.partnerReference).toMatch(/^CERT-[A-Z0-9]{6,16}$/);
        expect(r.quoteId).toBe('q_0123456789');
      }),
      RUNS,
    );
    expect(() => reservationRequest('q_0123456789', TODAY, { partnerReferencePrefix: 'P'.repeat(59) })).toThrow();
    const none = fc.sample(reservationRequest('q_0123456789', TODAY), { seed: 1, numRuns: 30 });
    expect(none.every((r) => r.partnerReference === undefined)).toBe(true);
  });

  it('reaches the remarks limit in some runs', () => {
    const values = fc.sample(reservationRequest('q_0123456789', TODAY), { seed: 3, numRuns: 300 });
    expect(values.some((r) => r.remarks?.length === LIMITS.remarksMaxLength)).toBe(true);
  });
});

describe('tokenForm and idempotencyKey', () => {
  it('tokenForm sends a non-empty subset of the held scopes, or none', () => {
    const held = ['fleet:read', 'rates:read', 'quotes:write'];
    fc.assert(
      fc.property(tokenForm('client-1', 's3cret', held), (form) => {
        expect(form.grant_type).toBe('client_credentials');
        expect([form.client_id, form.client_secret]).toEqual(['client-1', 's3cret']);
        if (form.scope !== undefined) {
          const asked = form.scope.split(' ');
          expect(asked.length).toBeGreaterThan(0);
          for (const s of asked) expect(held).toContain(s);
          expect(new Set(asked).size).toBe(asked.length);
        }
      }),
      RUNS,
    );
  });

  it('idempotencyKey is 8 to 200 visible ASCII characters, with the bounds reached', () => {
    fc.assert(
      fc.property(idempotencyKey(), (key) => {
        expect(key).toMatch(/^[\x21-\x7e]{8,200}$/);
      }),
      RUNS,
    );
    const lengths = new Set(fc.sample(idempotencyKey(), { seed: 5, numRuns: 300 }).map((k) => k.length));
    expect(lengths.has(8) && lengths.has(200)).toBe(true);
    fc.assert(
      fc.property(idempotencyKey({ prefix: 'run42-' }), (key) => {
        expect(key).toMatch(/^run42-[\x21-\x7e]{2,194}$/);
      }),
      RUNS,
    );
  });
});
